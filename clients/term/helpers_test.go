package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/weiqi"
	"github.com/chaguan/chaguan/protocol"
)

// fakeBackend records the moves the model sends and refuses those its
// refuse map names; it pushes nothing (Next returns nil at once).
type fakeBackend struct {
	moves  []string         // "seat name args", e.g. `0 play ["E5"]`
	refuse map[string]error // by move name
}

func (f *fakeBackend) Move(_ context.Context, seat, name string, args ...any) (*protocol.State, error) {
	if args == nil {
		args = []any{}
	}
	b, _ := json.Marshal(args)
	f.moves = append(f.moves, fmt.Sprintf("%s %s %s", seat, name, b))
	if err := f.refuse[name]; err != nil {
		return nil, err
	}
	return nil, nil
}

func (f *fakeBackend) Next() tea.Msg { return nil }

// game plays moves on the real rules (only to build realistic views for
// the tests: the client itself never runs them). Each move is "seat name
// args", args as JSON, or a bare point like "E5" for the mover's play.
func game(t *testing.T, size int, moves ...string) weiqi.View {
	t.Helper()
	var r weiqi.Rules
	s, err := r.Setup(2, json.RawMessage(fmt.Sprintf(`{"size":%d}`, size)), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range moves {
		f := strings.Fields(mv)
		var seat int
		var name string
		var args json.RawMessage
		if len(f) == 1 {
			v := r.View(s, 0)
			seat, name, args = int(v.ToMove[0]-'0'), "play", games.Args(f[0])
			if f[0] == "pass" {
				name, args = "pass", games.Args()
			}
		} else {
			seat, name = int(f[0][0]-'0'), f[1]
			args = games.Args()
			if len(f) > 2 {
				args = json.RawMessage(f[2])
			}
		}
		if s, err = r.Apply(s, seat, name, args); err != nil {
			t.Fatalf("move %q: %v", mv, err)
		}
	}
	return r.View(s, 0)
}

// stateOf wraps a view in a state message with stateID id.
func stateOf(t *testing.T, id int64, v weiqi.View) *protocol.State {
	t.Helper()
	g, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return &protocol.State{
		Type: protocol.TypeState, StateID: id, G: g,
		Players: []protocol.Player{{ID: 0, Name: "Ann", IsConnected: true}, {ID: 1, Name: "Bo", IsConnected: true}},
	}
}

// harness drives a model as Bubble Tea would, running the commands the
// model returns (moves through the fake) but for the evolution's ticks,
// which the test sends itself.
type harness struct {
	t  *testing.T
	m  *model
	be *fakeBackend
	id int64
	// you is the seat of the connection the model follows (the first of
	// its seats, "" for a spectator): the you of the states pushed.
	you string
	// quit is set once the model asked to quit.
	quit bool
}

func newHarness(t *testing.T, md mode, seats []string, l lang, v weiqi.View) *harness {
	be := &fakeBackend{refuse: map[string]error{}}
	first := stateOf(t, 1, v)
	if len(seats) > 0 {
		first.You = seats[0]
	}
	h := newHarnessOn(t, md, seats, l, be, first)
	h.be = be
	return h
}

// newHarnessOn drives a model on any backend from its first state. Its
// Next is never called: the harness runs only the commands of keys and
// moves, and the tests push states themselves.
func newHarnessOn(t *testing.T, md mode, seats []string, l lang, be backend, first *protocol.State) *harness {
	h := &harness{t: t, id: first.StateID, you: first.You}
	h.m = newModel(md, seats, l, be, first)
	h.m.evoEvery = 0
	h.send(tea.WindowSizeMsg{Width: 80, Height: 26})
	return h
}

// send delivers msg and runs what follows from it.
func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

// run executes cmd and feeds back the messages of finished moves.
func (h *harness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
	case doneMsg:
		h.send(msg)
	case tea.QuitMsg:
		h.quit = true
	}
}

// keys presses each key: a name Bubble Tea gives ("enter", "esc", "up") or
// one printable character.
func (h *harness) keys(ks ...string) {
	h.t.Helper()
	for _, k := range ks {
		h.send(keyPress(k))
	}
}

func keyPress(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// push delivers a new state of the view, as the server would.
func (h *harness) push(v weiqi.View) {
	h.t.Helper()
	h.send(stateMsg{h.next(v)})
}

// next is the state of the view with the next stateID, as the server
// sends it to the connection the model follows.
func (h *harness) next(v weiqi.View) *protocol.State {
	h.t.Helper()
	h.id++
	st := stateOf(h.t, h.id, v)
	st.You = h.you
	return st
}

// moves returns and forgets the moves sent so far.
func (h *harness) moves() []string {
	m := h.be.moves
	h.be.moves = nil
	return m
}

// screen is the rendered screen without its colours.
func (h *harness) screen() string { return ansi.Strip(h.m.View().Content) }

// statusLine is the screen's first status line, trimmed.
func (h *harness) statusLine() string {
	lines := strings.Split(h.screen(), "\n")
	return strings.TrimSpace(lines[len(lines)-2])
}

func teaSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

func displayWidth(s string) int { return ansi.StringWidth(s) }
