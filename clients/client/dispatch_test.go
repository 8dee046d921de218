package client

import (
	"encoding/json"
	"testing"

	"github.com/chaguan/chaguan/protocol"
)

// newDetached is a Conn with no socket: enough to drive dispatch.
func newDetached() *Conn {
	return &Conn{
		states:  make(chan *protocol.State, 1),
		errs:    make(chan *protocol.Error, eventQueue),
		chats:   make(chan *protocol.Chat, eventQueue),
		waiters: map[int64]chan reply{},
		closing: make(chan struct{}),
		done:    make(chan struct{}),
	}
}

func TestDispatchRouting(t *testing.T) {
	tests := []struct {
		name      string
		frame     string
		waiting   int64 // a pending move id, 0 for none
		wantReply string
		wantState bool
		wantErr   string // code delivered on Errors
		wantChat  bool
	}{
		{name: "ack", frame: `{"type":"state","stateID":3,"ack":7,"ctx":{"gameover":null}}`, waiting: 7, wantReply: "state", wantState: true},
		{name: "other ack", frame: `{"type":"state","stateID":3,"ack":8}`, waiting: 7, wantState: true},
		{name: "ref", frame: `{"type":"error","code":"invalid_move","message":"no","ref":7}`, waiting: 7, wantReply: "invalid_move"},
		{name: "error without ref", frame: `{"type":"error","code":"rate_limited","message":"slow"}`, waiting: 7, wantErr: "rate_limited"},
		{name: "chat", frame: `{"type":"chat","from":"1","text":"hi","at":5}`, wantChat: true},
		{name: "unknown type", frame: `{"type":"hint","text":"x"}`},
		{name: "not JSON", frame: `{"type":`},
		{name: "wrong field type", frame: `{"type":"state","stateID":"x"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newDetached()
			var w chan reply
			if tc.waiting != 0 {
				w = make(chan reply, 1)
				c.waiters[tc.waiting] = w
			}
			c.dispatch(nil, []byte(tc.frame))
			got := ""
			select {
			case r := <-w:
				if r.err != nil {
					got = r.err.Code
				} else {
					got = "state"
				}
			default:
			}
			if got != tc.wantReply {
				t.Errorf("waiter got %q, want %q", got, tc.wantReply)
			}
			if gotState := len(c.states) == 1; gotState != tc.wantState {
				t.Errorf("state delivered = %v, want %v", gotState, tc.wantState)
			}
			gotErr := ""
			if len(c.errs) == 1 {
				gotErr = (<-c.errs).Code
			}
			if gotErr != tc.wantErr {
				t.Errorf("Errors got %q, want %q", gotErr, tc.wantErr)
			}
			if gotChat := len(c.chats) == 1; gotChat != tc.wantChat {
				t.Errorf("chat delivered = %v, want %v", gotChat, tc.wantChat)
			}
		})
	}
}

// FuzzDispatch: no server frame makes the reader panic or block.
func FuzzDispatch(f *testing.F) {
	for _, s := range []string{
		`{"type":"state","stateID":1,"ack":1,"G":{"board":[]},"ctx":{"gameover":null},"players":[{"id":0}],"log":[]}`,
		`{"type":"error","code":"invalid_move","ref":1}`,
		`{"type":"chat","text":"x"}`,
		`[]`, `null`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newDetached()
		c.waiters[1] = make(chan reply, 1)
		c.hello = make(chan reply, 1)
		for range 3 { // repeated frames must not block on full channels
			c.dispatch(nil, data)
		}
	})
}

// BenchmarkDispatchState measures decoding one mid-game Gomoku state frame
// (60 stones, 20 log entries), the client's main per-message cost.
func BenchmarkDispatchState(b *testing.B) {
	frame := gomokuFrame(60)
	c := newDetached()
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		c.dispatch(nil, frame)
	}
}

// gomokuFrame builds a state frame shaped like the server's Gomoku state.
func gomokuFrame(stones int) []byte {
	type view struct {
		Size    int      `json:"size"`
		Board   []string `json:"board"`
		Moves   [][2]int `json:"moves"`
		Last    *[2]int  `json:"last"`
		ToMove  string   `json:"toMove"`
		WinLine [][2]int `json:"winLine"`
	}
	v := view{Size: 15, ToMove: "0"}
	rows := make([][]byte, 15)
	for y := range rows {
		rows[y] = []byte("...............")
	}
	for i := range stones {
		x, y := i%15, i/15
		rows[y][x] = "BW"[i%2]
		v.Moves = append(v.Moves, [2]int{x, y})
	}
	for _, r := range rows {
		v.Board = append(v.Board, string(r))
	}
	g, _ := json.Marshal(v)
	st := protocol.State{
		Type: "state", MatchID: "3f1c2a9e-8d3b-4c1e-9a77-0d6f0b1e2c3d", StateID: int64(stones + 5), G: g,
		Ctx:     protocol.Ctx{NumPlayers: 2, PlayOrder: []string{"0", "1"}, CurrentPlayer: "0", Phase: "play", Turn: stones + 1, Started: true, Gameover: json.RawMessage("null")},
		Players: []protocol.Player{{ID: 0, Name: "load0", IsConnected: true}, {ID: 1, Name: "load1", IsConnected: true}},
	}
	for i := max(0, stones-20); i < stones; i++ {
		args, _ := json.Marshal([]int{i % 15, i / 15})
		st.Log = append(st.Log, protocol.LogEntry{Turn: i + 1, PlayerID: []string{"0", "1"}[i%2], Move: "place", Args: args})
	}
	b, _ := json.Marshal(st)
	return b
}
