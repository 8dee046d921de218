package carcassonne

// scoreEvent records what group g of a scored for its owners (its words
// are Event.text's).
func (a *analysis) scoreEvent(kind string, turn int, g *group) Event {
	i := g.anchor / maxFeats
	t := a.b.tiles[i]
	sh := a.b.shape(i)
	ev := Event{
		Turn: turn, Kind: kind, Seat: -1, X: t.X, Y: t.Y, Feature: sh.feats[g.anchor%maxFeats].id,
		What: g.kind.String(), Points: a.points(g), Seats: owners(g.meeples[:a.seats]),
		Meeples: append([]int(nil), g.meeples[:a.seats]...), Size: g.tiles, Shields: g.shields,
		Complete: g.complete(), Cells: a.cells(g),
	}
	if g.kind == Field {
		ev.Cities = a.completedCities(g)
	}
	return ev
}

// scoreCompleted scores every road, city and cloister with meeples that
// the tile at index tile completed, returns their meeples and records the
// events. It runs after the meeple step, on a state Apply owns.
func (s *State) scoreCompleted(tile int) {
	b := s.board()
	a := analyze(b, s.Meeples, s.Seats)
	var scored []*group
	seen := map[*group]bool{}
	sh := b.shape(tile)
	for fi, f := range sh.feats {
		g := a.groupAt(tile, fi)
		if (f.kind == Road || f.kind == City) && !seen[g] && g.complete() && g.hasMeeple() {
			seen[g] = true
			scored = append(scored, g)
		}
	}
	t := b.tiles[tile]
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			j, ok := b.index(t.X+dx, t.Y+dy)
			if !ok || b.shape(j).cloister < 0 {
				continue
			}
			g := a.groupAt(j, int(b.shape(j).cloister))
			if g.complete() && g.hasMeeple() {
				scored = append(scored, g)
			}
		}
	}
	if len(scored) == 0 {
		return
	}
	done := map[*group]bool{}
	for _, g := range scored {
		ev := a.scoreEvent(EvScore, s.Turn, g)
		for _, seat := range ev.Seats {
			s.Scores[seat] += ev.Points
		}
		s.Events = append(s.Events, ev)
		done[g] = true
	}
	kept := s.Meeples[:0:0]
	for _, m := range s.Meeples {
		i, _ := b.index(m.X, m.Y)
		if done[a.groupAt(i, m.Feature)] {
			s.MeeplesLeft[m.Seat]++
			continue
		}
		kept = append(kept, m)
	}
	s.Meeples = kept
}

// finish runs the end scoring (unfinished roads, cities and cloisters, then
// fields) and settles the result. Meeples stay on the board to be shown.
func (s *State) finish() {
	a := analyze(s.board(), s.Meeples, s.Seats)
	f := &Final{ByKind: make([][4]int, s.Seats), Breakdown: []Event{}}
	for _, kind := range []Kind{Road, City, Cloister, Field} {
		for gi := range a.groups {
			g := &a.groups[gi]
			if g.kind != kind || !g.hasMeeple() {
				continue
			}
			ev := a.scoreEvent(EvFinal, s.Turn, g)
			if ev.Points == 0 {
				continue
			}
			for _, seat := range ev.Seats {
				s.Scores[seat] += ev.Points
				f.ByKind[seat][kindSlot(kind)] += ev.Points
			}
			s.Events = append(s.Events, ev)
			ev.Text = ev.text(nil) // the breakdown travels in the outcome too: it carries its text
			f.Breakdown = append(f.Breakdown, ev)
		}
	}
	f.Scores = append([]int(nil), s.Scores...)
	f.Winners = topSeats(s.Scores)
	s.Final = f
	s.Phase, s.Tile = PhaseOver, ""
	s.Events = append(s.Events, Event{Turn: s.Turn, Kind: EvEnd, Seat: -1, Seats: f.Winners, Points: s.Scores[f.Winners[0]]})
}

func kindSlot(k Kind) int {
	switch k {
	case Road:
		return 0
	case City:
		return 1
	case Cloister:
		return 2
	}
	return 3
}

// topSeats lists the seats with the highest score.
func topSeats(scores []int) []int {
	best := scores[0]
	for _, v := range scores {
		best = max(best, v)
	}
	var out []int
	for seat, v := range scores {
		if v == best {
			out = append(out, seat)
		}
	}
	return out
}
