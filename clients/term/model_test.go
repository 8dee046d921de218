package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
)

func wantMoves(t *testing.T, h *harness, want ...string) {
	t.Helper()
	if got := h.moves(); !slices.Equal(got, want) {
		t.Fatalf("moves sent:\n got %q\nwant %q", got, want)
	}
}

func wantStatus(t *testing.T, h *harness, sub string) {
	t.Helper()
	if line := h.statusLine(); !strings.Contains(line, sub) {
		t.Fatalf("status line %q does not contain %q", line, sub)
	}
}

// TestHotSeatPlaysForTheSeatToMove: Enter and Space play at the cursor as
// whoever's turn it is; hjkl and the arrows move the cursor.
func TestHotSeatPlaysForTheSeatToMove(t *testing.T) {
	h := newHarness(t, modeHotSeat, []string{"0", "1"}, langEn, game(t, 9))
	wantStatus(t, h, "Black to play")
	wantStatus(t, h, "cursor E5") // the cursor starts on tengen
	h.keys("enter")
	wantMoves(t, h, `0 play ["E5"]`)
	h.push(game(t, 9, "E5"))
	wantStatus(t, h, "White to play")
	h.keys("l", "space")
	wantMoves(t, h, `1 play ["F5"]`)
	h.push(game(t, 9, "E5", "F5"))
	h.keys("k", "up", "h", "left", "left", "j", "down", "right", "enter") // F5 → F7 → C7 → C5 → D5
	wantMoves(t, h, `0 play ["D5"]`)
	h.keys("p")
	wantMoves(t, h, `0 pass []`)
}

// TestCursorStaysOnTheBoard: the cursor stops at the edges.
func TestCursorStaysOnTheBoard(t *testing.T) {
	h := newHarness(t, modeHotSeat, []string{"0", "1"}, langEn, game(t, 9))
	for i := 0; i < 12; i++ {
		h.keys("h", "k")
	}
	wantStatus(t, h, "cursor A9")
	for i := 0; i < 12; i++ {
		h.keys("l", "j")
	}
	wantStatus(t, h, "cursor J1")
}

// TestKeysWaitForTheMoveInFlight: keys typed before the server answered a
// move are handled after it, against the new position.
func TestKeysWaitForTheMoveInFlight(t *testing.T) {
	h := newHarness(t, modeHotSeat, []string{"0", "1"}, langEn, game(t, 9))
	_, cmd := h.m.Update(keyPress("enter")) // the move travels: cmd not run yet
	h.send(keyPress("l"))
	h.send(keyPress("enter"))
	if len(h.be.moves) != 0 || !h.m.busy {
		t.Fatalf("keys were handled while a move travelled: %q", h.be.moves)
	}
	msg := cmd()                        // the server accepts E5 ...
	h.m.apply(h.next(game(t, 9, "E5"))) // ... and its state arrives first
	h.send(msg)
	wantMoves(t, h, `0 play ["E5"]`, `1 play ["F5"]`)
}

// TestUndo: in hot-seat the player of the last move asks and the other
// agrees at once; against a bot or a remote player u only asks.
func TestUndo(t *testing.T) {
	h := newHarness(t, modeHotSeat, []string{"0", "1"}, langEn, game(t, 9, "E5", "F5"))
	h.keys("u")
	wantMoves(t, h, `1 requestUndo []`, `0 answerUndo [true]`)

	h = newHarness(t, modeHotSeat, []string{"0", "1"}, langEn, game(t, 9, "E5"))
	h.keys("u")
	wantMoves(t, h, `0 requestUndo []`, `1 answerUndo [true]`)

	h = newHarness(t, modeBot, []string{"0"}, langEn, game(t, 9, "E5", "F5"))
	h.keys("u")
	wantMoves(t, h, `0 requestUndo []`)
	h.push(game(t, 9, "E5", "F5", "0 requestUndo"))
	wantStatus(t, h, "Undo requested: waiting for the opponent")
}

// TestResignNeedsY: r asks, y resigns for the player to move, any other
// key cancels.
func TestResignNeedsY(t *testing.T) {
	h := newHarness(t, modeHotSeat, []string{"0", "1"}, langZh, game(t, 9, "E5"))
	h.keys("r")
	wantStatus(t, h, "确认认输？按 y 确认")
	h.keys("x")
	wantMoves(t, h)
	wantStatus(t, h, "已取消认输")
	h.keys("r", "y")
	wantMoves(t, h, `1 resign []`)
	h.push(game(t, 9, "E5", "1 resign"))
	wantStatus(t, h, "黑中盘胜（白认输） (B+R)")
	h.keys("enter")
	wantMoves(t, h)
	wantStatus(t, h, "对局已结束")
	h.keys("q")
	if !h.quit {
		t.Fatal("q did not quit after the end")
	}
}

// TestScoringKeys: e enters scoring (at once in hot-seat), d toggles the
// group under the cursor, Enter approves for both seats here, Esc resumes.
func TestScoringKeys(t *testing.T) {
	h := newHarness(t, modeHotSeat, []string{"0", "1"}, langEn, game(t, 9, "E5", "F5"))
	h.keys("d")
	wantMoves(t, h)
	wantStatus(t, h, "d marks dead stones in scoring")
	h.keys("e")
	wantMoves(t, h, `0 requestScoring []`, `1 answerScoring [true]`)

	scoring := game(t, 9, "E5", "F5", "pass", "pass")
	h.push(scoring)
	wantStatus(t, h, "Scoring")
	h.keys("d") // E5 holds black's stone
	wantMoves(t, h, `0 toggleDead ["E5"]`)
	h.keys("j", "d")
	wantMoves(t, h)
	wantStatus(t, h, "E4 holds no stone")
	h.keys("u")
	wantStatus(t, h, "No undo while scoring")
	h.keys("enter")
	wantMoves(t, h, `0 approve []`, `1 approve []`)
	h.push(game(t, 9, "E5", "F5", "pass", "pass", "1 approve"))
	h.keys("e")
	wantMoves(t, h, `0 approve []`) // white approved already
	h.keys("esc")
	wantMoves(t, h, `0 resume []`)

	h = newHarness(t, modeRemote, []string{"1"}, langEn, scoring)
	h.keys("l", "d", "enter")
	wantMoves(t, h, `1 toggleDead ["F5"]`, `1 approve []`)
	h.push(game(t, 9, "E5", "F5", "pass", "pass", "1 approve"))
	h.keys("enter")
	wantMoves(t, h)
	wantStatus(t, h, "Approved: waiting for the opponent")
}

// TestScoringPreviewShowsMarks: in scoring the dead stones are ✕ and the
// sidebar counts the preview.
func TestScoringPreviewShowsMarks(t *testing.T) {
	v := game(t, 9, "E5", "F5", "pass", "pass", `0 toggleDead ["F5"]`)
	h := newHarness(t, modeHotSeat, []string{"0", "1"}, langEn, v)
	s := h.screen()
	for _, want := range []string{"●─✕", "Scoring  ● wait  ○ wait", "B 1 st + 80 terr", "W 0 st + 0 terr + komi 7.5"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

// TestRefusalsInBothLanguages: the server's reasons (禁止自杀, 禁止打劫,
// 此处已有棋子) reach the status bar in the chosen language.
func TestRefusalsInBothLanguages(t *testing.T) {
	for _, tc := range []struct {
		err    *client.MoveError
		zh, en string
	}{
		{&client.MoveError{Code: "invalid_move", Message: "suicide is not allowed", MessageZh: "禁止自杀"}, "禁止自杀", "suicide is not allowed"},
		{&client.MoveError{Code: "invalid_move", Message: "superko (the position repeats)", MessageZh: "禁止打劫"}, "禁止打劫", "superko (the position repeats)"},
		{&client.MoveError{Code: "invalid_move", Message: "E5 is occupied", MessageZh: "E5 此处已有棋子"}, "E5 此处已有棋子", "E5 is occupied"},
		{&client.MoveError{Code: "not_your_turn", Message: "it is not your turn", MessageZh: "还没轮到你"}, "还没轮到你", "it is not your turn"},
		{&client.MoveError{Code: "rate_limited", Message: "slow down"}, "操作太快，请稍候", "slow down"},
	} {
		for _, l := range []lang{langZh, langEn} {
			h := newHarness(t, modeHotSeat, []string{"0", "1"}, l, game(t, 9, "E5"))
			h.be.refuse["play"] = tc.err
			h.keys("enter")
			want := map[lang]string{langZh: tc.zh, langEn: tc.en}[l]
			wantStatus(t, h, want)
			h.keys("l") // the next key clears the message
			if strings.Contains(h.statusLine(), want) {
				t.Errorf("%q stayed after a key", want)
			}
		}
	}
}

// TestOnlyMyTurn: against a remote player the terminal plays only its
// own seat, and answers the opponent's requests with y or n.
func TestOnlyMyTurn(t *testing.T) {
	h := newHarness(t, modeRemote, []string{"1"}, langZh, game(t, 9))
	wantStatus(t, h, "等待黑方落子…")
	h.keys("enter")
	wantMoves(t, h)
	wantStatus(t, h, "还没轮到你")

	h.push(game(t, 9, "E5", "F5", "0 requestUndo"))
	wantStatus(t, h, "黑方请求悔棋：y 同意，n 拒绝")
	h.keys("n")
	wantMoves(t, h, `1 answerUndo [false]`)
	h.push(game(t, 9, "E5", "F5", "0 requestScoring"))
	wantStatus(t, h, "黑方请求结算")
	h.keys("y")
	wantMoves(t, h, `1 answerScoring [true]`)
}

// TestSpectatorSendsNothing: a spectator moves the cursor and quits, and
// no key plays.
func TestSpectatorSendsNothing(t *testing.T) {
	h := newHarness(t, modeSpectate, nil, langEn, game(t, 9, "E5"))
	h.keys("enter", "u", "r", "y", "e", "d", "p", "l")
	wantMoves(t, h)
	wantStatus(t, h, "cursor F5")
	h.keys("esc")
	if !h.quit {
		t.Fatal("Esc did not quit")
	}
}

// endByScoring is a 9x9 game counted after both approved: the state the
// evolution starts from.
func endByScoring(t *testing.T) (before, after []string) {
	before = []string{"C3", "G7", "C4", "G6", "D3", "F7", "D4", "F6", "pass", "pass"}
	return before, append(slices.Clone(before), "0 approve", "1 approve")
}

// TestEvolutionThenScore: the end by scoring animates the six boards one
// tick each; then the score and the winner show. e finishes at once.
func TestEvolutionThenScore(t *testing.T) {
	before, after := endByScoring(t)
	h := newHarness(t, modeHotSeat, []string{"0", "1"}, langEn, game(t, 9, before...))
	end := game(t, 9, after...)
	h.push(end)
	if !h.m.evo || h.m.evoGen != 0 {
		t.Fatalf("evolution did not start: evo %v gen %d", h.m.evo, h.m.evoGen)
	}
	wantStatus(t, h, "Evolution 0/5")
	for gen := 1; gen <= 5; gen++ {
		h.send(evoTickMsg{h.m.evoTick})
		if gen < 5 {
			wantStatus(t, h, "Evolution "+string(rune('0'+gen))+"/5")
		}
	}
	if h.m.evo {
		t.Fatal("evolution still running after 5 ticks")
	}
	s := h.screen()
	sc := end.Score
	for _, want := range []string{*end.Result, "Score (area)", "B " + itoa(sc.Black.Stones) + " st + " + itoa(sc.Black.Territory) + " terr = " + num(sc.Black.Total),
		"W " + itoa(sc.White.Stones) + " st + " + itoa(sc.White.Territory) + " terr + 7.5 = " + num(sc.White.Total)} {
		if !strings.Contains(s, want) {
			t.Errorf("end screen lacks %q:\n%s", want, s)
		}
	}

	h = newHarness(t, modeHotSeat, []string{"0", "1"}, langEn, game(t, 9, before...))
	h.push(end)
	h.keys("e")
	if h.m.evo || h.m.evoGen != 5 {
		t.Fatalf("e did not finish the evolution: evo %v gen %d", h.m.evo, h.m.evoGen)
	}
	stale := h.m.evoTick - 1
	h.send(evoTickMsg{stale}) // a tick already on its way changes nothing
	if h.m.evoGen != 5 {
		t.Fatal("a stale tick moved the evolution")
	}

	h = newHarness(t, modeHotSeat, []string{"0", "1"}, langEn, game(t, 9, before...))
	h.push(end)
	h.keys("q")
	if h.m.evo || h.quit {
		t.Fatalf("q during the evolution: evo %v, quit %v; want it skipped, not quit", h.m.evo, h.quit)
	}

	// Joining a finished game shows the end without replaying it.
	h = newHarness(t, modeSpectate, nil, langEn, end)
	if h.m.evo {
		t.Fatal("a finished game replayed its evolution on connect")
	}
}

func itoa(n int) string { return num(float64(n)) }

// TestHelpOverlay: ? opens the overlay over the board and closes it.
func TestHelpOverlay(t *testing.T) {
	h := newHarness(t, modeHotSeat, []string{"0", "1"}, langZh, game(t, 19))
	h.keys("?")
	s := h.screen()
	for _, want := range []string{"按键帮助", "切换光标所在整块棋的死/活", "认输（按 r 后再按 y 确认）"} {
		if !strings.Contains(s, want) {
			t.Errorf("help lacks %q:\n%s", want, s)
		}
	}
	h.keys("enter") // keys do nothing while it is open
	wantMoves(t, h)
	h.keys("?")
	if strings.Contains(h.screen(), "按键帮助") {
		t.Fatal("? did not close the help")
	}
}

// TestTooSmall: below the board's minimum the screen says so and q quits;
// a resize back redraws the board.
func TestTooSmall(t *testing.T) {
	for _, tc := range []struct {
		size, w, h int
	}{{9, 60, 16}, {13, 68, 20}, {19, 80, 26}} {
		if w, h := minSize(tc.size); w != tc.w || h != tc.h {
			t.Errorf("minSize(%d) = %dx%d, want the design's %dx%d", tc.size, w, h, tc.w, tc.h)
		}
	}
	h := newHarness(t, modeHotSeat, []string{"0", "1"}, langEn, game(t, 19))
	h.send(teaSize(79, 26))
	if s := h.screen(); !strings.Contains(s, "terminal too small (need 80x26, have 79x26)") || strings.Contains(s, "A B C") {
		t.Fatalf("too-small screen:\n%s", s)
	}
	h.keys("enter")
	wantMoves(t, h)
	h.send(teaSize(80, 26))
	if s := h.screen(); !strings.Contains(s, "A B C D E F G H J K L M N O P Q R S T") {
		t.Fatalf("no board after the resize:\n%s", s)
	}
	h.send(teaSize(40, 10))
	h.keys("q")
	if !h.quit {
		t.Fatal("q did not quit the too-small screen")
	}
}

// TestScreenFitsEverySize: at the minimum and at larger sizes, every
// line of the screen is exactly the terminal's width and height.
func TestScreenFitsEverySize(t *testing.T) {
	before, after := endByScoring(t)
	views := map[string][]string{"play": {"E5", "F5"}, "scoring": append(before[:len(before):len(before)], `0 toggleDead ["C3"]`), "over": after}
	for _, size := range []int{9, 13, 19} {
		for phase, moves := range views {
			if size != 9 {
				moves = []string{"pass", "pass"}
				if phase == "play" {
					moves = nil
				}
			}
			for _, l := range []lang{langZh, langEn} {
				mw, mh := minSize(size)
				for _, wh := range [][2]int{{mw, mh}, {mw + 1, mh + 3}, {160, 50}} {
					h := newHarness(t, modeBot, []string{"0"}, l, game(t, size, moves...))
					h.send(teaSize(wh[0], wh[1]))
					for _, open := range []bool{false, true} {
						if open {
							h.keys("?")
						}
						lines := strings.Split(h.screen(), "\n")
						if len(lines) != wh[1] {
							t.Errorf("%dx%d %s %v at %dx%d (help %v): %d lines", size, size, phase, l, wh[0], wh[1], open, len(lines))
						}
						for i, line := range lines {
							if w := displayWidth(line); w != wh[0] {
								t.Errorf("%dx%d %s at %dx%d (help %v): line %d is %d wide: %q", size, size, phase, wh[0], wh[1], open, i, w, line)
								break
							}
						}
					}
				}
			}
		}
	}
}

// TestLocale: the default language follows LC_ALL, LC_MESSAGES, LANG.
func TestLocale(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want lang
	}{
		{map[string]string{}, langEn},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, langZh},
		{map[string]string{"LANG": "en_US.UTF-8"}, langEn},
		{map[string]string{"LANG": "zh_CN.UTF-8", "LC_ALL": "C"}, langEn},
		{map[string]string{"LANG": "C", "LC_MESSAGES": "zh_TW.UTF-8"}, langZh},
	} {
		if got := localeLang(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: got %v, want %v", tc.env, got, tc.want)
		}
	}
	for _, s := range []string{"zh", "en", "ZH"} {
		if _, err := parseLang(s); err != nil {
			t.Errorf("-lang %s: %v", s, err)
		}
	}
	if _, err := parseLang("fr"); err == nil {
		t.Error("-lang fr was accepted")
	}
}

// TestPlayersUpdateWithoutMove: the server sends a seat taken, a presence
// change or a rename with the stateID on screen and new players; the
// sidebar redraws the names and (away) at once, and the message on the
// status line stays (it is about the position, which did not change).
func TestPlayersUpdateWithoutMove(t *testing.T) {
	for _, l := range []lang{langEn, langZh} {
		want := map[lang][3]string{
			langEn: {"(free seat)", "Bob", "Bob (away)"},
			langZh: {"（空位）", "Bob", "Bob（离线）"},
		}[l]
		h := newHarness(t, modeRemote, []string{"0"}, l, game(t, 9, "E5"))
		players := func(ps ...protocol.Player) {
			st := stateOf(t, h.id, game(t, 9, "E5")) // the same stateID: no move
			st.You, st.Players = "0", ps
			h.send(stateMsg{st})
		}
		ann := protocol.Player{ID: 0, Name: "Ann", IsConnected: true}
		players(ann, protocol.Player{ID: 1})
		if s := h.screen(); !strings.Contains(s, want[0]) {
			t.Fatalf("%v: no %q for the empty seat:\n%s", l, want[0], s)
		}
		h.keys("enter") // not black's turn: a message to keep
		msg := h.statusLine()
		players(ann, protocol.Player{ID: 1, Name: "Bob", IsConnected: true})
		if s := h.screen(); !strings.Contains(s, want[1]) || strings.Contains(s, want[0]) || strings.Contains(s, want[2]) {
			t.Fatalf("%v: after bob joined, want %q without %q or %q:\n%s", l, want[1], want[0], want[2], s)
		}
		players(ann, protocol.Player{ID: 1, Name: "Bob"})
		if s := h.screen(); !strings.Contains(s, want[2]) {
			t.Fatalf("%v: after bob left, no %q:\n%s", l, want[2], s)
		}
		if got := h.statusLine(); got != msg {
			t.Errorf("%v: a players update changed the status line %q to %q", l, msg, got)
		}
		if h.m.stateID != h.id || len(h.m.v.Moves) != 1 {
			t.Errorf("%v: a players update changed the position: stateID %d moves %v", l, h.m.stateID, h.m.v.Moves)
		}
	}
}

// TestSeatTakenAway: a state whose you is "" while the terminal holds a
// seat (the bot took it after three timeouts, or the player left from
// elsewhere) turns the terminal into a spectator that says so.
func TestSeatTakenAway(t *testing.T) {
	for _, l := range []lang{langEn, langZh} {
		want := map[lang]string{langEn: "Your seat was taken: you are watching", langZh: "你已失去座位，现为观战"}[l]
		h := newHarness(t, modeRemote, []string{"1"}, l, game(t, 9, "E5"))
		wantStatus(t, h, map[lang]string{langEn: "White to play", langZh: "白方行棋"}[l])
		st := stateOf(t, h.id, game(t, 9, "E5"))
		st.Players[1].IsBot, st.Players[1].BotLevel = true, "easy"
		h.send(stateMsg{st}) // same stateID, you ""
		wantStatus(t, h, want)
		if s := h.screen(); !strings.Contains(s, map[lang]string{langEn: "· watching", langZh: "· 观战"}[l]) ||
			strings.Contains(s, map[lang]string{langEn: "(you)", langZh: "（你）"}[l]) {
			t.Fatalf("%v: the screen still shows a seat held:\n%s", l, s)
		}
		h.keys("enter", "p", "u", "e", "l") // keys play nothing now
		wantMoves(t, h)
		wantStatus(t, h, want)
		h.you = ""
		h.push(game(t, 9, "E5", "F5")) // the bot plays on
		wantStatus(t, h, want)
	}
}

// TestRefusedRequestsShow: a refused undo or scoring request reaches the
// status line in the terminal's language, whether the refusal answers the
// move, arrives after the wait gave up, or is the opponent's no.
func TestRefusedRequestsShow(t *testing.T) {
	pending := &client.MoveError{Code: "invalid_move", Message: "a request is already waiting", MessageZh: "已有待回应的请求"}
	for _, l := range []lang{langEn, langZh} {
		tr := func(en, zh string) string { return map[lang]string{langEn: en, langZh: zh}[l] }
		for key, move := range map[string]string{"u": "requestUndo", "e": "requestScoring"} {
			h := newHarness(t, modeRemote, []string{"0"}, l, game(t, 9, "E5", "F5"))
			h.be.refuse[move] = pending
			h.keys(key)
			wantMoves(t, h, `0 `+move+` []`)
			wantStatus(t, h, tr(pending.Message, pending.MessageZh))
		}

		h := newHarness(t, modeRemote, []string{"0"}, l, game(t, 9, "E5", "F5"))
		ref := int64(4)
		h.send(serverErrMsg{&protocol.Error{Type: protocol.TypeError, Code: "invalid_move",
			Message: "you have no move to take back", MessageZh: "你还没有可以悔的棋", Ref: &ref}})
		wantStatus(t, h, tr("you have no move to take back", "你还没有可以悔的棋"))

		h.push(game(t, 9, "E5", "F5", "0 requestUndo"))
		h.push(game(t, 9, "E5", "F5", "0 requestUndo", "1 answerUndo [false]"))
		wantStatus(t, h, tr("The opponent refused the undo", "对方拒绝了悔棋请求"))
		h.push(game(t, 9, "E5", "F5", "0 requestUndo", "1 answerUndo [false]", "0 requestScoring"))
		h.push(game(t, 9, "E5", "F5", "0 requestUndo", "1 answerUndo [false]", "0 requestScoring", "1 answerScoring [false]"))
		wantStatus(t, h, tr("The opponent refused to count", "对方拒绝了结算请求"))

		// An undo granted is no refusal.
		h.push(game(t, 9, "E5", "F5", "0 requestUndo"))
		h.push(game(t, 9, "E5", "F5", "0 requestUndo", "1 answerUndo [true]"))
		if s := h.statusLine(); strings.Contains(s, tr("refused", "拒绝")) {
			t.Errorf("%v: a granted undo reads as refused: %q", l, s)
		}
	}
}

// TestDeadMarkRemovedByOtherSide: in scoring, the other side taking a dead
// mark away is said on the status line; this side's own toggle (acked)
// says nothing.
func TestDeadMarkRemovedByOtherSide(t *testing.T) {
	scoring := []string{"E5", "F5", "pass", "pass"}
	for _, l := range []lang{langEn, langZh} {
		want := map[lang]string{langEn: "The other side removed the dead mark on F5", langZh: "对方取消了 F5 的死子标记"}[l]
		h := newHarness(t, modeRemote, []string{"0"}, l, game(t, 9, scoring...))
		marked := append(slices.Clone(scoring), `1 toggleDead ["F5"]`)
		h.push(game(t, 9, marked...))
		h.push(game(t, 9, append(marked, `1 toggleDead ["F5"]`)...))
		wantStatus(t, h, want)

		h.push(game(t, 9, marked...))
		own := h.next(game(t, 9, append(marked, `0 toggleDead ["F5"]`)...))
		ack := int64(9)
		own.Ack = &ack
		h.send(stateMsg{own})
		if s := h.statusLine(); strings.Contains(s, want) {
			t.Errorf("%v: this side's own toggle reads as the other side's: %q", l, s)
		}
	}
}

// TestLateAnswerIsNoFailure: a move whose ack came in after the wait
// gave up (before the model heard of the timeout) was played: no "did
// not answer"; when the ack comes after the message, it clears it.
func TestLateAnswerIsNoFailure(t *testing.T) {
	for _, md := range []mode{modeRemote, modeHotSeat} {
		seats := map[mode][]string{modeRemote: {"0"}, modeHotSeat: {"0", "1"}}[md]
		h := newHarness(t, md, seats, langEn, game(t, 9))
		h.be.refuse["play"] = context.DeadlineExceeded
		_, cmd := h.m.Update(keyPress("enter"))
		msg := cmd() // the wait gave up ...
		st := h.next(game(t, 9, "E5"))
		ack := int64(1)
		st.Ack = &ack
		h.send(stateMsg{st}) // ... and the ack arrives before the model hears of it
		h.send(msg)
		if s := h.statusLine(); strings.Contains(s, "did not answer") {
			t.Fatalf("mode %v: a move answered late reads as unanswered: %q", md, s)
		}
		if h.m.status != "" {
			t.Fatalf("mode %v: a message after a move played: %q", md, h.m.status)
		}

		h = newHarness(t, md, seats, langEn, game(t, 9))
		h.be.refuse["play"] = context.DeadlineExceeded
		h.keys("enter")
		wantStatus(t, h, "The server did not answer")
		st = h.next(game(t, 9, "E5"))
		st.Ack = &ack
		h.send(stateMsg{st})
		if s := h.statusLine(); strings.Contains(s, "did not answer") {
			t.Fatalf("mode %v: the late ack left %q", md, s)
		}
	}
}
