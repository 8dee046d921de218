package threemonks

// The engine resolves a revealed round step by step. run advances until a
// monk must decide (s.Pending), the game ends, or the round ends and the next
// round's choosing begins. Every step appends its public Event.

func (s *State) emit(e Event) {
	if !s.quiet {
		s.Events = append(s.Events, e)
	}
}

// next is the seat clockwise after seat ("left").
func (s *State) next(seat int) int { return (seat + 1) % s.N }

// prev is the seat counterclockwise from seat ("right").
func (s *State) prev(seat int) int { return (seat + s.N - 1) % s.N }

// clockwise lists the seats that keep is true for, clockwise from the holder.
func (s *State) clockwise(keep func(seat int) bool) []int {
	out := []int{}
	for k := 0; k < s.N; k++ {
		if seat := (s.Holder + k) % s.N; keep(seat) {
			out = append(out, seat)
		}
	}
	return out
}

func (s *State) proposed(c Card) bool {
	for _, r := range s.Revealed {
		if r == c {
			return true
		}
	}
	return false
}

func (s *State) over() bool { return s.Winner >= 0 || s.Draw }

// reveal turns the chosen cards face up and starts resolving the round.
func (s *State) reveal() {
	s.Revealed = append([]Card(nil), s.Secret.Choices...)
	if !s.quiet {
		s.emit(Event{Kind: EvReveal, Seat: -1, Cards: cloneCards(s.Revealed)})
	}
	s.Cur = Cursor{}
	s.run()
}

// run resolves the round from the cursor until a decision, the end of the
// game or the start of the next round.
func (s *State) run() {
	for s.Pending == nil && !s.over() {
		if s.Cur.Phase >= len(Phases) {
			s.endRound()
			return
		}
		phase := Phases[s.Cur.Phase]
		switch {
		case !s.proposed(phase):
			s.nextPhase()
		case !s.Cur.Started:
			s.beginPhase(phase)
		case s.Cur.Idx >= len(s.Cur.Order):
			s.finishPhase(phase)
			s.nextPhase()
		case phase == Chant:
			s.chantStep(s.Cur.Order[s.Cur.Idx])
		case phase == Drink:
			s.drinkStep(s.Cur.Order[s.Cur.Idx])
		}
	}
}

func (s *State) nextPhase() { s.Cur = Cursor{Phase: s.Cur.Phase + 1} }

// participants lists who takes part in phase, clockwise from the holder.
func (s *State) participants(phase Card) []int {
	played := func(seat int) Card { return s.Revealed[seat] }
	switch phase {
	case Chant:
		return s.clockwise(func(i int) bool { return played(i) == Chant })
	case Fetch:
		return s.clockwise(func(i int) bool { return s.Items[i].Kind.Fetching() && played(i) != Rest })
	case Exchange:
		return s.clockwise(func(i int) bool { return played(i) != Chant })
	default: // Drink
		return s.clockwise(func(i int) bool { return s.Items[i].Kind != WaterVat || played(i) == Drink })
	}
}

func (s *State) beginPhase(phase Card) {
	s.Cur.Started = true
	s.Cur.Order = s.participants(phase)
	s.Runs.add(phase)
	if !s.quiet {
		s.emit(Event{Kind: EvPhase, Seat: -1, Phase: phase, Seats: append([]int{}, s.Cur.Order...)})
	}
	switch phase {
	case Fetch:
		s.fetch(s.Cur.Order)
		s.Cur.Idx = len(s.Cur.Order)
	case Exchange:
		s.exchange(s.Cur.Order)
		s.Cur.Idx = len(s.Cur.Order)
	}
}

// finishPhase runs what happens after every participant's turn.
func (s *State) finishPhase(phase Card) {
	if phase == Chant && len(s.Cur.Order) > 0 {
		last := s.Cur.Order[len(s.Cur.Order)-1]
		s.moveToken(last, "chant")
	}
}

func (s *State) moveToken(to int, reason string) {
	if s.Holder == to {
		return
	}
	s.emit(Event{Kind: EvToken, Seat: to, From: placeSeat(s.Holder), To: placeSeat(to), Reason: reason})
	s.Holder = to
}

// chantStep: the vase takes 1 from the supply; the mouse robs a neighbour.
func (s *State) chantStep(seat int) {
	switch s.Items[seat].Kind {
	case Vase:
		s.Items[seat].Water++
		s.Taken++
		s.emit(Event{Kind: EvVase, Seat: seat, N: 1, From: PlaceSupply, To: placeItem(seat), Item: Vase})
	case Mouse:
		l, r := s.Items[s.next(seat)].Water > 0, s.Items[s.prev(seat)].Water > 0
		switch {
		case l && r:
			s.Pending = &Decide{Seat: seat, Kind: DecideMouse}
			return
		case l:
			s.mouse(seat, s.next(seat))
		case r:
			s.mouse(seat, s.prev(seat))
		default:
			s.emit(Event{Kind: EvMouseIdle, Seat: seat, Item: Mouse})
		}
	}
	s.Cur.Idx++
}

// mouse moves 1 from victim's item onto seat's mouse.
func (s *State) mouse(seat, victim int) {
	s.Items[victim].Water--
	s.Items[seat].Water++
	s.emit(Event{Kind: EvMouse, Seat: seat, N: 1, From: placeItem(victim), To: placeItem(seat), Item: Mouse})
}

// fetchCost is what a participant pays onto their item.
func fetchCost(k ItemKind, participants int) int {
	switch {
	case k == Bucket:
		return 1
	case k == WoodenBarrel && participants > 1:
		return 0
	}
	return 2
}

// fetch resolves the whole fetch phase: nobody decides anything in it.
func (s *State) fetch(order []int) {
	for _, seat := range order {
		cost := fetchCost(s.Items[seat].Kind, len(order))
		switch {
		case cost == 0:
		case s.Water[seat] >= cost:
			s.Water[seat] -= cost
			s.Items[seat].Water += cost
			s.emit(Event{Kind: EvPay, Seat: seat, N: cost, From: placeWater(seat), To: placeItem(seat), Item: s.Items[seat].Kind})
		default:
			s.emit(Event{Kind: EvNoPay, Seat: seat, N: cost, Item: s.Items[seat].Kind})
		}
	}
	n := s.N - len(order)
	s.Centre += n
	s.Taken += n
	s.emit(Event{Kind: EvSupply, Seat: -1, N: n, From: PlaceSupply, To: PlaceCentre})
	for _, seat := range order {
		if s.Items[seat].Kind == Ladle && s.Centre > 0 {
			s.Centre--
			s.Items[seat].Water++
			s.emit(Event{Kind: EvLadle, Seat: seat, N: 1, From: PlaceCentre, To: placeItem(seat), Item: Ladle})
		}
	}
}

// exchange passes every participant's item to the next participant
// clockwise, all at once; a carrying pole that moves spills into the centre.
func (s *State) exchange(order []int) {
	if len(order) < 2 {
		return
	}
	for _, seat := range order {
		if it := s.Items[seat]; it.Kind == Pole && it.Water > 0 {
			s.Centre += it.Water
			s.Items[seat].Water = 0
			s.emit(Event{Kind: EvPole, Seat: seat, N: it.Water, From: placeItem(seat), To: PlaceCentre, Item: Pole})
		}
	}
	old := append([]Item(nil), s.Items...)
	for j, seat := range order {
		to := order[(j+1)%len(order)]
		s.Items[to] = old[seat]
		s.emit(Event{Kind: EvPass, Seat: seat, N: old[seat].Water, From: placeItem(seat), To: placeItem(to), Item: old[seat].Kind})
	}
}

// Drink steps of one participant's turn.
const (
	stepCentre = iota // 1 from the centre, the vat's extra 1
	stepItem          // drink from one's own item
	stepBowl          // the big bowl's refill
	stepWin           // the win check
)

// drinkStep resolves the current step of seat's drinking turn.
func (s *State) drinkStep(seat int) {
	it := s.Items[seat]
	switch s.Cur.Step {
	case stepCentre:
		if s.Centre > 0 {
			s.Centre--
			s.Water[seat]++
			s.emit(Event{Kind: EvCentre, Seat: seat, N: 1, From: PlaceCentre, To: placeWater(seat)})
		}
		if it.Kind == WaterVat {
			s.Water[seat]++
			s.Taken++
			s.emit(Event{Kind: EvVat, Seat: seat, N: 1, From: PlaceSupply, To: placeWater(seat), Item: WaterVat})
		}
		s.Cur.Step, s.Cur.Drank = stepItem, 0
	case stepItem:
		if max := drinkMax(it); max > 0 {
			s.Pending = &Decide{Seat: seat, Kind: DecideDrink, Max: max}
			return
		}
		s.Cur.Step = stepBowl
	case stepBowl:
		if it.Kind == BigBowl && s.Cur.Drank == 0 && s.Centre > 0 {
			s.Pending = &Decide{Seat: seat, Kind: DecideBowl}
			return
		}
		s.Cur.Step = stepWin
	default:
		if s.Water[seat] >= WinWater {
			s.Winner = seat
			s.emit(Event{Kind: EvWin, Seat: seat, N: s.Water[seat]})
			return
		}
		s.Cur.Idx++
		s.Cur.Step = stepCentre
	}
}

// drinkMax is the most a monk may drink from item: 2, any from the big barrel.
func drinkMax(it Item) int {
	if it.Kind == BigBarrel || it.Water < 2 {
		return it.Water
	}
	return 2
}

// drinkFrom moves n from seat's item to their water.
func (s *State) drinkFrom(seat, n int) {
	if n > 0 {
		s.Items[seat].Water -= n
		s.Water[seat] += n
		s.emit(Event{Kind: EvDrink, Seat: seat, N: n, From: placeItem(seat), To: placeWater(seat), Item: s.Items[seat].Kind})
	}
	s.Cur.Drank = n
	s.Cur.Step = stepBowl
}

// fillBowl moves 1 from the centre onto seat's big bowl if yes.
func (s *State) fillBowl(seat int, yes bool) {
	if yes {
		s.Centre--
		s.Items[seat].Water++
		s.emit(Event{Kind: EvBowl, Seat: seat, N: 1, From: PlaceCentre, To: placeItem(seat), Item: BigBowl})
	}
	s.Cur.Step = stepWin
}

// endRound gives the token to the wooden fish's owner, locks this round's
// cards and starts the next round, or ends the match in a draw at the cap.
func (s *State) endRound() {
	if o := s.Owner(WoodenFish); o >= 0 {
		s.moveToken(o, "fish")
	}
	if s.Round >= RoundCap {
		s.Draw = true
		s.emit(Event{Kind: EvCap, Seat: -1})
		return
	}
	s.Last = s.Revealed
	s.Revealed = nil
	s.Cur = Cursor{}
	s.Round++
	s.LastEvents, s.Events = s.Events, []Event{}
	for i := range s.Secret.Choices {
		s.Secret.Choices[i] = ""
	}
}
