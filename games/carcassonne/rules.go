package carcassonne

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/chaguan/chaguan/games"
)

// Moves.
const (
	MovePlaceTile   = "placeTile"
	MovePlaceMeeple = "placeMeeple"
	MoveSkipMeeple  = "skipMeeple"
)

// Bot levels.
const (
	LevelEasy   = "easy"
	LevelNormal = "normal"
)

// Info describes the game for the catalog.
func (Rules) Info() games.Info {
	return games.Info{
		Name:         "carcassonne",
		Title:        games.Text{En: "Carcassonne", Zh: "卡卡颂"},
		MinPlayers:   2,
		MaxPlayers:   5,
		SetupOptions: map[string]games.SetupOption{},
		Moves: []games.MoveSpec{
			{Name: MovePlaceTile, Args: `[{"x":1,"y":0,"rotation":90}]`, Description: games.Text{
				En: "Place the drawn tile at (x, y), turned 0, 90, 180 or 270 degrees clockwise; every edge must match",
				Zh: "把抽到的板块放在 (x, y)，顺时针旋转 0/90/180/270 度；每条边都必须吻合"}},
			{Name: MovePlaceMeeple, Args: `[{"feature":"city0"}]`, Description: games.Text{
				En: "Put a meeple on a feature of the tile you just placed (one of the view's meepleOptions)",
				Zh: "在刚放下的板块的一个地形上放置米宝（见 meepleOptions）"}},
			{Name: MoveSkipMeeple, Args: `[]`, Description: games.Text{
				En: "Place no meeple this turn", Zh: "本回合不放米宝"}},
		},
		Bots:       []string{LevelEasy, LevelNormal},
		PublicView: true,
	}
}

// Setup puts the start tile at (0,0), shuffles the other 71 tiles into the
// secret deck and draws the first tile for seat 0. There are no setup
// options: setupData must be absent, null or {}.
func (Rules) Setup(n int, setupData json.RawMessage, rng *games.RNG) (State, error) {
	if n < 2 || n > 5 {
		return State{}, games.BadSetup("carcassonne takes 2 to 5 players, not %d", n)
	}
	if d := bytes.TrimSpace(setupData); len(d) > 0 && !bytes.Equal(d, []byte("null")) {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(d, &m); err != nil || len(m) > 0 {
			return State{}, games.BadSetup("carcassonne takes no setup options")
		}
	}
	if rng == nil {
		return State{}, games.BadSetup("carcassonne needs a random source to shuffle")
	}
	r := rng.Clone()
	deck := fullDeck()
	r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	s := State{
		Seats: n, Tiles: []Placed{{X: 0, Y: 0, Type: StartTile}}, Meeples: []Meeple{},
		Scores: make([]int, n), MeeplesLeft: make([]int, n), Removed: []string{},
		Turn: 0, Secret: Secret{Deck: deck, RNG: r},
	}
	for i := range s.MeeplesLeft {
		s.MeeplesLeft[i] = Meeples
	}
	s.Events = []Event{{Kind: EvStart, Seat: -1, Tile: StartTile}}
	s.Current = n - 1 // draw hands the first turn to seat 0
	s.draw()
	return s, nil
}

// Status: the phase, the seat to move, the turn (one per tile placed), and
// the outcome once the deck is spent.
func (Rules) Status(s State) games.Status {
	st := games.Status{Phase: s.Phase, Turn: max(s.Turn, 1), Current: s.Current}
	if s.Phase == PhaseOver && s.Final != nil {
		st.Current = -1
		st.Outcome = outcome(s.Final)
	}
	return st
}

// outcome: the top total wins; a tie at the top is reported as a draw with
// every tied seat in detail.winners (they share the win).
func outcome(f *Final) *games.Outcome {
	o := &games.Outcome{Reason: "score", Detail: f}
	if len(f.Winners) == 1 {
		o.Winner = games.PlayerID(f.Winners[0])
	} else {
		o.Draw = true
	}
	return o
}

// Apply plays one move for seat.
func (Rules) Apply(s State, seat int, name string, args json.RawMessage) (State, error) {
	if s.Phase == PhaseOver {
		return s, games.ErrGameOver
	}
	if seat != s.Current {
		return s, games.ErrNotYourTurn
	}
	switch name {
	case MovePlaceTile:
		return s.placeTile(args)
	case MovePlaceMeeple:
		return s.placeMeeple(args)
	case MoveSkipMeeple:
		if err := games.DecodeArgs(name, "[]", args); err != nil {
			return s, err
		}
		if s.Phase != PhaseMeeple {
			return s, games.Invalid("Place the tile first", "请先放置板块")
		}
		n := s.clone()
		n.endTurn()
		return n, nil
	}
	return s, fmt.Errorf("%w: %q", games.ErrUnknownMove, name)
}

// TileArgs is placeTile's one argument, {"x":1,"y":0,"rotation":90}: its
// JSON (fields in this order) is the canonical form the bots send.
type TileArgs struct {
	X        int `json:"x"`
	Y        int `json:"y"`
	Rotation int `json:"rotation"` // degrees clockwise: 0, 90, 180 or 270
}

// MeepleArgs is placeMeeple's one argument, {"feature":"city0"}.
type MeepleArgs struct {
	Feature string `json:"feature"`
}

// CanonicalArgs parses the args of move name and returns their canonical
// JSON (games.ArgsParser): [{"x":1,"y":0,"rotation":90}] for placeTile
// (exactly these three whole numbers, the rotation a multiple of 90 from
// 0 to 270), [{"feature":"city0"}] for placeMeeple, [] for skipMeeple.
// Whether the tile fits or the feature is free is Apply's to check.
func (Rules) CanonicalArgs(name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case MovePlaceTile:
		a, err := parseTileArgs(args)
		if err != nil {
			return nil, err
		}
		return games.CanonicalJSON(a)
	case MovePlaceMeeple:
		a, err := parseMeepleArgs(args)
		if err != nil {
			return nil, err
		}
		return games.CanonicalJSON(a)
	case MoveSkipMeeple:
		if err := games.DecodeArgs(name, "[]", args); err != nil {
			return nil, err
		}
		return json.RawMessage("[]"), nil
	}
	return nil, fmt.Errorf("%w: %q", games.ErrUnknownMove, name)
}

// parseTileArgs reads placeTile's args strictly (games.DecodeArgs: no
// missing, unknown or null field) and checks the rotation.
func parseTileArgs(args json.RawMessage) (TileArgs, error) {
	var a TileArgs
	if err := games.DecodeArgs(MovePlaceTile, `[{"x":1,"y":0,"rotation":90}]`, args, &a); err != nil {
		return a, err
	}
	if a.Rotation%90 != 0 || a.Rotation < 0 || a.Rotation >= 360 {
		return a, games.Invalid("rotation must be 0, 90, 180 or 270", "旋转角度必须是 0、90、180 或 270")
	}
	return a, nil
}

// parseMeepleArgs reads placeMeeple's args strictly.
func parseMeepleArgs(args json.RawMessage) (MeepleArgs, error) {
	var a MeepleArgs
	err := games.DecodeArgs(MovePlaceMeeple, `[{"feature":"city0"}]`, args, &a)
	return a, err
}

func (s State) placeTile(args json.RawMessage) (State, error) {
	if s.Phase != PhaseTile {
		return s, games.Invalid("You have placed your tile: place a meeple or skip", "你已放好板块：请放置米宝或跳过")
	}
	a, err := parseTileArgs(args)
	if err != nil {
		return s, err
	}
	x, y, deg := a.X, a.Y, a.Rotation
	sh, _ := shapeOf(s.Tile, deg/90)
	if !s.board().fits(sh, x, y) {
		return s, games.Invalid(
			fmt.Sprintf("Tile %s does not fit at (%d,%d) turned %d°: it must touch a tile and every edge must match", s.Tile, x, y, deg),
			fmt.Sprintf("板块 %s 旋转%d°后不能放在 (%d,%d)：必须与已有板块相邻且每条边都吻合", s.Tile, deg, x, y))
	}
	n := s.clone()
	n.Tiles = append(n.Tiles, Placed{X: x, Y: y, Type: s.Tile, Rot: deg / 90})
	n.Events = append(n.Events, Event{Turn: s.Turn, Kind: EvPlace, Seat: s.Current, Tile: s.Tile, X: x, Y: y, Rotation: deg})
	n.Phase, n.Tile = PhaseMeeple, ""
	if len(n.meepleOptions()) == 0 {
		n.endTurn() // no meeple left, or every feature taken: nothing to ask
	}
	return n, nil
}

func (s State) placeMeeple(args json.RawMessage) (State, error) {
	if s.Phase != PhaseMeeple {
		return s, games.Invalid("Place the tile first", "请先放置板块")
	}
	a, err := parseMeepleArgs(args)
	if err != nil {
		return s, err
	}
	var opt *MeepleOption
	for _, o := range s.meepleOptions() {
		if o.Feature == a.Feature {
			opt = &o
			break
		}
	}
	if opt == nil {
		return s, games.Invalid(
			fmt.Sprintf("No meeple may go on %q: choose one of the meeple options (a feature of this tile whose whole holds no meeple)", a.Feature),
			fmt.Sprintf("不能在 %q 放置米宝：请从可选项中选择（本板块上、所连通地形尚无米宝的地形）", a.Feature))
	}
	n := s.clone()
	t := n.Tiles[len(n.Tiles)-1]
	sh, _ := shapeOf(t.Type, t.Rot)
	n.Meeples = append(n.Meeples, Meeple{Seat: s.Current, X: t.X, Y: t.Y, Feature: featureIndex(sh, opt.Feature)})
	n.MeeplesLeft[s.Current]--
	n.Events = append(n.Events, Event{Turn: s.Turn, Kind: EvMeeple, Seat: s.Current, Tile: t.Type, X: t.X, Y: t.Y, Feature: opt.Feature})
	n.endTurn()
	return n, nil
}

// endTurn scores what the placed tile completed and draws the next seat's
// tile; on a state Apply owns.
func (s *State) endTurn() {
	s.scoreCompleted(len(s.Tiles) - 1)
	s.draw()
}

// draw passes the turn to the next seat with the next tile that fits
// anywhere, removing (publicly) those that do not; with the deck spent the
// game ends.
func (s *State) draw() {
	b := s.board()
	for len(s.Secret.Deck) > 0 {
		t := s.Secret.Deck[0]
		s.Secret.Deck = s.Secret.Deck[1:]
		if b.canPlace(t) {
			s.Tile, s.Phase = t, PhaseTile
			s.Current = (s.Current + 1) % s.Seats
			s.Turn++
			return
		}
		s.Removed = append(s.Removed, t)
		s.Events = append(s.Events, Event{Turn: s.Turn, Kind: EvRemove, Seat: -1, Tile: t})
	}
	s.finish()
}
