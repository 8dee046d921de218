package rooms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/games/gongzhu"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
)

// msgSink keeps every message a connection is sent.
type msgSink struct {
	mu   sync.Mutex
	msgs [][]byte
}

func (s *msgSink) Send(msg []byte, _ rooms.Kind) bool {
	s.mu.Lock()
	s.msgs = append(s.msgs, msg)
	s.mu.Unlock()
	return true
}

func (s *msgSink) Close() {}

func (s *msgSink) all() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.msgs...)
}

// awaitState waits until the latest state or patch message says ok.
func (s *msgSink) await(t *testing.T, what string, ok func(last []byte) bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		msgs := s.all()
		if len(msgs) > 0 && ok(msgs[len(msgs)-1]) {
			return
		}
	}
	t.Fatalf("no message: %s", what)
}

// viewDoc is a state message's view as a client holds it (all but type,
// stateID and ack), decoded.
func viewDoc(t *testing.T, msg []byte) map[string]any {
	t.Helper()
	doc, err := protocol.DecodeDoc(msg)
	if err != nil {
		t.Fatal(err)
	}
	m := doc.(map[string]any)
	delete(m, "type")
	delete(m, "stateID")
	delete(m, "ack")
	return m
}

// patchedDocs plays a patch client's messages: the view it holds after
// each, normalised (json.Marshal sorts the keys). Patches must chain.
func patchedDocs(t *testing.T, msgs [][]byte, check func(protocol.Patch)) (out, types []string) {
	t.Helper()
	var doc any
	var stateID int64
	for i, msg := range msgs {
		var head struct {
			Type    string `json:"type"`
			StateID int64  `json:"stateID"`
		}
		if err := json.Unmarshal(msg, &head); err != nil {
			t.Fatal(err)
		}
		switch head.Type {
		case protocol.TypeState:
			doc, stateID = viewDoc(t, msg), head.StateID
		case protocol.TypePatch:
			var p protocol.Patch
			if err := json.Unmarshal(msg, &p); err != nil {
				t.Fatal(err)
			}
			if doc == nil || p.Base != stateID {
				t.Fatalf("message %d: a patch from %d, the client holds %d", i, p.Base, stateID)
			}
			var err error
			if doc, err = protocol.ApplyPatch(doc, p.Ops); err != nil {
				t.Fatalf("message %d: %v", i, err)
			}
			stateID = p.StateID
			if check != nil {
				check(p)
			}
		default:
			continue // chat, errors
		}
		b, _ := json.Marshal(doc)
		out = append(out, string(b))
		types = append(types, head.Type)
	}
	return out, types
}

// fullDocs is each state message's view, normalised.
func fullDocs(t *testing.T, msgs [][]byte) []string {
	var out []string
	for _, msg := range msgs {
		if bytes.HasPrefix(msg, []byte(`{"type":"state"`)) {
			b, _ := json.Marshal(viewDoc(t, msg))
			out = append(out, string(b))
		}
	}
	return out
}

// dedup drops each entry equal to the one before it.
func dedup(s []string) []string {
	var out []string
	for _, x := range s {
		if len(out) == 0 || out[len(out)-1] != x {
			out = append(out, x)
		}
	}
	return out
}

// sameTail fails t unless the patch client's views, from its first on,
// are the full client's views from the moment it connected (the full
// client connected first and left last).
func sameTail(t *testing.T, full, patched []string) {
	t.Helper()
	full, patched = dedup(full), dedup(patched)
	if len(patched) < 10 {
		t.Fatalf("only %d views through patches", len(patched))
	}
	for k := range full {
		if full[k] == patched[0] && len(full)-k >= len(patched) {
			for i := range patched {
				if full[k+i] != patched[i] {
					t.Fatalf("view %d differs:\npatched %.400s\n   full %.400s", i, patched[i], full[k+i])
				}
			}
			return
		}
	}
	t.Fatalf("the patch client's first view is none of the full client's")
}

// TestPatchLiveGomokuBots: two bots play a whole Gomoku match while a
// full and a patch spectator watch; after every message the patch
// client's view is the full client's.
func TestPatchLiveGomokuBots(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	defer mem.Close()
	// Bots move once somebody watches: a pause between their moves keeps
	// the game from ending before the second spectator is in.
	m := rooms.New(rooms.Config{Store: mem, Games: games.NewRegistry(gomoku.Game), BotDelay: 5 * time.Millisecond})
	defer m.Close()
	ctx := context.Background()
	id, err := m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2, Bots: map[string]string{"0": "easy", "1": "easy"}})
	if err != nil {
		t.Fatal(err)
	}
	full, patch := &msgSink{}, &msgSink{}
	fv, err := m.Connect(ctx, "gomoku", id, rooms.Hello{}, full)
	if err != nil {
		t.Fatal(err)
	}
	pv, err := m.Connect(ctx, "gomoku", id, rooms.Hello{Patches: true}, patch)
	if err != nil {
		t.Fatal(err)
	}
	over := func(last []byte) bool { return bytes.Contains(last, []byte(`"gameover":{`)) }
	full.await(t, "the game's end", over)
	patch.await(t, "the game's end, patched", func(last []byte) bool {
		return bytes.HasPrefix(last, []byte(`{"type":"patch"`)) && bytes.Contains(last, []byte(`"path":"/ctx/gameover"`)) || over(last)
	})
	pv.Close()
	fv.Close()
	var patches int
	docs, _ := patchedDocs(t, patch.all(), func(protocol.Patch) { patches++ })
	sameTail(t, fullDocs(t, full.all()), docs)
	if patches < 9 {
		t.Fatalf("%d patches in a whole game", patches)
	}
}

// TestPatchLiveGongzhuSeat: a person's seat at a Gong Zhu table of bots,
// on autoplay, watched by a full and a patch connection of that seat: a
// presence change and the autoplay flag are patches of the same stateID;
// a sync gets the whole view; the views agree after every message; and
// the seat's patches never touch another seat's private entry.
func TestPatchLiveGongzhuSeat(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	defer mem.Close()
	m := rooms.New(rooms.Config{Store: mem, Games: games.NewRegistry(gongzhu.Game), BotDelay: rooms.ZeroBotDelay})
	defer m.Close()
	ctx := context.Background()
	id, err := m.Create(ctx, "gongzhu", rooms.CreateParams{NumPlayers: 4, Bots: map[string]string{"1": "easy", "2": "easy", "3": "easy"}})
	if err != nil {
		t.Fatal(err)
	}
	seat := "0"
	_, creds, err := m.Join(ctx, "gongzhu", id, rooms.JoinParams{Name: "Ann", PlayerID: &seat})
	if err != nil {
		t.Fatal(err)
	}
	full, patch := &msgSink{}, &msgSink{}
	fv, err := m.Connect(ctx, "gongzhu", id, rooms.Hello{PlayerID: &seat, Credentials: creds}, full)
	if err != nil {
		t.Fatal(err)
	}
	pv, err := m.Connect(ctx, "gongzhu", id, rooms.Hello{PlayerID: &seat, Credentials: creds, Patches: true}, patch)
	if err != nil {
		t.Fatal(err)
	}
	if err := pv.Autoplay(true); err != nil {
		t.Fatal(err)
	}
	reached := func(n int64) func([]byte) bool {
		return func(last []byte) bool {
			var h struct {
				StateID int64 `json:"stateID"`
			}
			_ = json.Unmarshal(last, &h)
			return h.StateID >= n
		}
	}
	patch.await(t, "stateID 150", reached(150))
	if err := pv.Sync(); err != nil {
		t.Fatal(err)
	}
	patch.await(t, "stateID 300", reached(300))
	pv.Close()
	fv.Close()

	sameStateID, syncs := 0, 0
	docs, types := patchedDocs(t, patch.all(), func(p protocol.Patch) {
		if p.StateID == p.Base {
			sameStateID++
		}
		for _, op := range p.Ops {
			if strings.HasPrefix(op.Path, "/G/players/") && !strings.HasPrefix(op.Path, "/G/players/0") {
				t.Fatalf("seat 0's patch touches %s", op.Path)
			}
		}
	})
	for i := 1; i < len(docs); i++ {
		if types[i] == protocol.TypeState && docs[i] == docs[i-1] {
			syncs++ // the sync's answer: the view the patches had built
		}
	}
	sameTail(t, fullDocs(t, full.all()), docs)
	if sameStateID == 0 {
		t.Fatal("no patch kept the stateID (autoplay on, presence)")
	}
	if syncs == 0 {
		t.Fatal("the sync got no whole state")
	}
}
