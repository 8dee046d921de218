package weiqi

import (
	"slices"
	"testing"
)

func TestCapture(t *testing.T) {
	// White E5 with three black neighbours; black E4 takes it.
	s := setUp(t, 9, []string{"D5", "F5", "E6"}, []string{"E5"}, 0)
	s = do(t, s, 0, movePlay, "E4")
	if at(t, s, "E5") != Empty || s.captured != [2]int{1, 0} {
		t.Fatalf("E5 = %v, captures %v\n%s", at(t, s, "E5"), s.captured, diagram(s))
	}
	if v := view(s); v.Captures != [2]int{1, 0} || v.Recent[len(v.Recent)-1].Captured != 1 || *v.Last != "E4" {
		t.Fatalf("view captures %v recent %+v last %v", v.Captures, v.Recent, *v.Last)
	}
}

func TestCaptureEdgeGroup(t *testing.T) {
	// A two-stone white group on the bottom edge.
	s := setUp(t, 9, []string{"C1", "C2", "D2", "E2"}, []string{"D1", "E1", "J9"}, 0)
	s = do(t, s, 0, movePlay, "F1")
	if at(t, s, "D1") != Empty || at(t, s, "E1") != Empty || s.captured[0] != 2 {
		t.Fatalf("edge group not captured: %v\n%s", s.captured, diagram(s))
	}
}

func TestSeveralGroupsAtOnce(t *testing.T) {
	// Black E5 takes white D5 and F5 at once (double atari resolved).
	black := []string{"C5", "D6", "D4", "G5", "F6", "F4"}
	white := []string{"D5", "F5", "A9", "B9", "C9", "J9"}
	s := setUp(t, 9, black, white, 0)
	s = do(t, s, 0, movePlay, "E5")
	if at(t, s, "D5") != Empty || at(t, s, "F5") != Empty || s.captured[0] != 2 {
		t.Fatalf("both groups should go: %v\n%s", s.captured, diagram(s))
	}
}

func TestSuicideCorner(t *testing.T) {
	s := setUp(t, 9, []string{"A2", "B1"}, []string{"E5"}, 1)
	refuse(t, s, 1, "禁止自杀", movePlay, "A1")
	refuse(t, s, 1, "suicide", movePlay, "A1")
}

func TestSuicideMiddle(t *testing.T) {
	// A two-point eye: white may not fill one point of it... one point eye.
	s := setUp(t, 9, []string{"D5", "F5", "E4", "E6"}, []string{"A1"}, 1)
	refuse(t, s, 1, "禁止自杀", movePlay, "E5")
	// A group suicide: white stone E7 next to the eye... multi-stone suicide.
	s = setUp(t, 9, []string{"D5", "F5", "E3", "D4", "F4", "E6"}, []string{"E4", "A1", "B1"}, 1)
	refuse(t, s, 1, "禁止自杀", movePlay, "E5")
}

func TestSuicideThatCapturesIsLegal(t *testing.T) {
	// White's A1 has no liberty of its own, but it takes black A2's last.
	s := setUp(t, 9, []string{"A2", "B1"}, []string{"A3", "B2", "C1"}, 1)
	// Black B1 is in atari (C1, B2 white; A1 empty) and A2 too.
	s = do(t, s, 1, movePlay, "A1")
	if at(t, s, "A1") != White || s.captured[1] == 0 {
		t.Fatalf("A1 should capture: %v\n%s", s.captured, diagram(s))
	}
}

// koShape sets up the classic ko on 9x9: black surrounds D5 on three
// sides (C5, D6, D4), white surrounds E5 (F5, E6, E4), black stands on E5.
func koShape(t *testing.T) State {
	return setUp(t, 9, []string{"C5", "D6", "D4", "E5"}, []string{"F5", "E6", "E4"}, 1)
}

func TestKo(t *testing.T) {
	s := koShape(t)
	s = do(t, s, 1, movePlay, "D5") // white takes E5
	if at(t, s, "E5") != Empty {
		t.Fatalf("white should take E5\n%s", diagram(s))
	}
	refuse(t, s, 0, "禁止打劫", movePlay, "E5")
	refuse(t, s, 0, "superko (the position repeats)", movePlay, "E5")
	// After a ko threat elsewhere the retake is legal.
	s = do(t, s, 0, movePlay, "H8")
	s = do(t, s, 1, movePlay, "H2")
	s = do(t, s, 0, movePlay, "E5")
	if at(t, s, "D5") != Empty {
		t.Fatalf("black should retake\n%s", diagram(s))
	}
}

func TestPassIsNeverSuperko(t *testing.T) {
	s := koShape(t)
	s = do(t, s, 1, movePlay, "D5")
	s = do(t, s, 0, movePass) // the position repeats the one before: still legal
	if s.passes != 1 || s.phase != phasePlay {
		t.Fatalf("passes %d phase %v", s.passes, s.phase)
	}
}

func TestOccupied(t *testing.T) {
	s := setUp(t, 9, []string{"E5"}, nil, 1)
	refuse(t, s, 1, "此处已有棋子", movePlay, "E5")
	refuse(t, s, 1, "occupied", movePlay, "ｅ５")
}

func TestCoordinates(t *testing.T) {
	for _, tc := range []struct {
		in   string
		size int
		x, y int
	}{
		{"A1", 19, 0, 18}, {"T19", 19, 18, 0}, {"K10", 19, 9, 9}, {"J9", 9, 8, 0},
		{"H8", 9, 7, 1}, {"d4", 19, 3, 15}, {"Ｄ４", 19, 3, 15}, {"ｑ１６", 19, 15, 3},
		{" D 4 ", 19, 3, 15}, {"Ｔ１９", 19, 18, 0}, {"N13", 13, 12, 0},
	} {
		x, y, err := ParseCoord(tc.in, tc.size)
		if err != nil || x != tc.x || y != tc.y {
			t.Errorf("ParseCoord(%q, %d) = %d, %d, %v; want %d, %d", tc.in, tc.size, x, y, err, tc.x, tc.y)
			continue
		}
		if got := FormatCoord(x, y, tc.size); got == "" || got[0] == 'I' {
			t.Errorf("FormatCoord(%d, %d) = %q", x, y, got)
		}
	}
	for _, bad := range []string{"I5", "i5", "Ｉ５", "A0", "A20", "U1", "A", "", "5A", "A-1", "A+1", "A01", "AA1", "K10x", "J10"} {
		size := 19
		if bad == "J10" {
			size = 9
		}
		if _, _, err := ParseCoord(bad, size); err == nil {
			t.Errorf("ParseCoord(%q, %d) accepted", bad, size)
		}
	}
	// Every point round-trips, and no column is I.
	for _, size := range []int{9, 13, 19} {
		for p := 0; p < size*size; p++ {
			name := pointName(p, size)
			x, y, err := ParseCoord(name, size)
			if err != nil || y*size+x != p || name[0] == 'I' {
				t.Fatalf("%d on %d: %q -> %d,%d %v", p, size, name, x, y, err)
			}
		}
	}
}

func TestUndoRestoresCapturedStones(t *testing.T) {
	s := setUp(t, 9, []string{"D5", "F5", "E6"}, []string{"E5", "A9"}, 0)
	s = do(t, s, 0, movePlay, "E4") // takes white E5
	s = do(t, s, 0, moveRequestUndo)
	refuse(t, s, 0, "cannot answer your own", moveAnswerUndo, true)
	refuse(t, s, 1, "waiting", movePlay, "B2")
	s = do(t, s, 1, moveAnswerUndo, true)
	if at(t, s, "E5") != White || at(t, s, "E4") != Empty || s.captured != [2]int{0, 0} || s.toMove() != 0 {
		t.Fatalf("undo did not restore white E5: %v\n%s", s.captured, diagram(s))
	}
	// Black can play elsewhere; the position history was rebuilt.
	s = do(t, s, 0, movePlay, "E4")
	if s.captured[0] != 1 {
		t.Fatalf("recapture after undo: %v", s.captured)
	}
}

func TestUndoTakesBackTheReplyToo(t *testing.T) {
	s := moves(t, newGame(t, 9), "E5", "D5", "C3")
	s = do(t, s, 1, moveRequestUndo) // white's last is D5, black replied C3
	s = do(t, s, 0, moveAnswerUndo, true)
	if len(s.moves) != 1 || s.toMove() != 1 || at(t, s, "D5") != Empty {
		t.Fatalf("moves %v toMove %d", s.moves, s.toMove())
	}
	// A refusal leaves the moves.
	s = moves(t, s, "D5")
	s = do(t, s, 1, moveRequestUndo)
	s = do(t, s, 0, moveAnswerUndo, false)
	if len(s.moves) != 2 || s.undoBy != 0 {
		t.Fatalf("refused undo changed the game")
	}
	refuse(t, newGame(t, 9), 0, "no move", moveRequestUndo)
}

func TestTwoPassesEnterScoring(t *testing.T) {
	s := moves(t, newGame(t, 9), "E5", "pass", "D4", "pass")
	if s.phase != phasePlay {
		t.Fatal("passes separated by a stone must not enter scoring")
	}
	s = moves(t, s, "pass")
	if s.phase != phaseScoring || s.scorings != 1 {
		t.Fatalf("phase %v", s.phase)
	}
	st := rules.Status(s)
	if st.Current != -1 || len(st.Active) != 2 || st.Active[0] != "scoring" {
		t.Fatalf("status %+v", st)
	}
	refuse(t, s, 0, "being scored", movePlay, "A1")
	s = do(t, s, 1, moveResume)
	if s.phase != phasePlay || s.passes != 0 || s.toMove() != 1 {
		t.Fatalf("resume: phase %v passes %d toMove %d", s.phase, s.passes, s.toMove())
	}
	s = moves(t, s, "pass")
	if s.phase != phasePlay {
		t.Fatal("one pass after resume must not enter scoring")
	}
}

func TestScoringByRequest(t *testing.T) {
	s := moves(t, newGame(t, 9), "E5")
	s = do(t, s, 0, moveRequestScoring)
	if st := rules.Status(s); st.Active[1] != "answerScoring" || len(st.Active) != 1 {
		t.Fatalf("status %+v", st)
	}
	s2 := do(t, s, 1, moveAnswerScoring, false)
	if s2.phase != phasePlay || s2.scoreBy != 0 {
		t.Fatal("a refused request changed the phase")
	}
	s = do(t, s, 1, moveAnswerScoring, true)
	if s.phase != phaseScoring {
		t.Fatal("accepted request should enter scoring")
	}
}

func TestDeadMarkingAndApprovals(t *testing.T) {
	// Black owns the left, white the right; a lone white stone B5 is dead.
	black := []string{"D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9"}
	white := []string{"E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9", "B5", "B6"}
	s := setUp(t, 9, black, white, 0)
	s = do(t, s, 0, moveRequestScoring)
	s = do(t, s, 1, moveAnswerScoring, true)
	s = do(t, s, 1, moveApprove)
	if s.approved != [2]bool{false, true} {
		t.Fatalf("approved %v", s.approved)
	}
	s = do(t, s, 0, moveToggleDead, "B5")
	if v := view(s); !slices.Equal(v.Dead, []string{"B6", "B5"}) && !slices.Equal(v.Dead, []string{"B5", "B6"}) {
		t.Fatalf("dead = %v", v.Dead)
	}
	if s.approved != [2]bool{} || s.edits != 1 {
		t.Fatalf("a toggle must clear approvals: %v edits %d", s.approved, s.edits)
	}
	// Territory preview: with B5-B6 dead, the whole left is black's.
	v := view(s)
	if v.Territory == nil || v.Territory[4][1] != 'b' || v.Territory[4][7] != 'w' {
		t.Fatalf("territory preview:\n%v", v.Territory)
	}
	refuse(t, s, 0, "holds no stone", moveToggleDead, "A1")
	s2 := do(t, s, 1, moveToggleDead, "B6") // unmark the whole group
	if len(s2.dead) != 0 {
		t.Fatalf("toggle again should unmark: %v", s2.dead)
	}
	s = do(t, s, 1, moveApprove)
	refuse(t, s, 1, "approved already", moveApprove)
	s = do(t, s, 0, moveApprove)
	if s.phase != phaseOver || s.fin == nil {
		t.Fatal("both approvals should end the game")
	}
	v = view(s)
	if len(v.Evolution) != Generations+1 || v.Score == nil || v.Result == nil {
		t.Fatalf("final view: evolution %d score %v result %v", len(v.Evolution), v.Score, v.Result)
	}
	if v.Evolution[0][4][1] != '.' {
		t.Fatal("generation 0 must have the dead stones removed")
	}
	st := rules.Status(s)
	if st.Outcome == nil || st.Outcome.Reason != "score" {
		t.Fatalf("outcome %+v", st.Outcome)
	}
}

func TestResign(t *testing.T) {
	s := moves(t, newGame(t, 9), "E5")
	s = do(t, s, 0, moveResign) // any time, even not on turn
	if v := view(s); *v.Result != "W+R" || rules.Status(s).Outcome.Winner != "1" {
		t.Fatalf("result %v", *v.Result)
	}
	if _, err := rules.Apply(s, 1, movePlay, []byte(`["A1"]`)); err == nil {
		t.Fatal("a move after resignation")
	}
}

func TestBadArgs(t *testing.T) {
	s := newGame(t, 9)
	refuse(t, s, 0, `play takes ["D4"]: it takes 1 argument, not 0`, movePlay)
	refuse(t, s, 0, `play takes ["D4"]: it takes 1 argument, not 2`, movePlay, 3, 4)
	refuse(t, s, 0, "row 10", movePlay, "A10")
	refuse(t, s, 0, "pass takes []: it takes no arguments, not 1", movePass, 1)
	refuse(t, s, 0, "only for scoring", moveToggleDead, "A1")
	refuse(t, s, 0, "only for scoring", moveApprove)
}

func TestSetupOptions(t *testing.T) {
	for _, bad := range []string{`{"size":10}`, `{"size":"19"}`, `{"komi":0.3}`, `{"komi":1e9}`, `[1]`, `"x"`} {
		if _, err := rules.Setup(2, []byte(bad), nil); err == nil {
			t.Errorf("setup %s accepted", bad)
		}
	}
	s, err := rules.Setup(2, []byte(`{"size":13,"komi":-0.5}`), nil)
	if err != nil || s.size != 13 || s.komi != -0.5 {
		t.Fatalf("setup: %v %d %v", err, s.size, s.komi)
	}
	s, _ = rules.Setup(2, nil, nil)
	if s.size != 19 || s.komi != 7.5 {
		t.Fatalf("defaults %d %v", s.size, s.komi)
	}
}
