package site_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gongzhu"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server/servertest"
)

// TestPatchesInBrowser: the page asks for patches, and the state it is
// handed after many of them is the one a client of whole states gets at
// the same stateID: a spectator's page and a Go spectator without patches
// watch the same Gong Zhu table of bots.
func TestPatchesInBrowser(t *testing.T) {
	b := browsertest.Start(t)
	srv := servertest.Start(t, servertest.Options{Games: games.NewRegistry(gongzhu.Game), BotDelay: 20 * time.Millisecond})
	id := browsertest.CreateGongzhuBotTable(t, srv.URL)
	full := browsertest.DialGongzhuWS(t, srv.URL, id, `{"type":"hello"}`)
	states := make(chan []byte, 4096)
	go func() {
		defer close(states)
		for {
			_, msg, err := full.ReadMessage()
			if err != nil {
				return
			}
			states <- msg
		}
	}()
	p := b.NewPage("spectator")
	p.Open(srv.URL + "/m/gongzhu/" + id)
	p.WaitJSFor("60 moves through patches", `window.__chaguan && window.__chaguan.latest && window.__chaguan.latest.stateID >= 60`, time.Minute)
	// The page's newest state, at once (the bots go on meanwhile).
	page := browsertest.Eval[string](p, `JSON.stringify((({stateID, G, ctx, log, you}) => ({stateID, G, ctx, log, you}))(window.__chaguan.latest))`)
	var got struct {
		StateID int64           `json:"stateID"`
		G       json.RawMessage `json:"G"`
		Ctx     json.RawMessage `json:"ctx"`
		Log     json.RawMessage `json:"log"`
		You     string          `json:"you"`
	}
	if err := json.Unmarshal([]byte(page), &got); err != nil {
		t.Fatal(err)
	}
	guard := time.After(time.Minute)
	for {
		var msg []byte
		select {
		case m, ok := <-states:
			if !ok {
				t.Fatalf("the full client's connection closed before stateID %d", got.StateID)
			}
			msg = m
		case <-guard:
			t.Fatalf("the full client never saw stateID %d", got.StateID)
		}
		var s protocol.State
		if json.Unmarshal(msg, &s) != nil || s.Type != protocol.TypeState || s.StateID != got.StateID {
			continue
		}
		for _, c := range [][3]any{{"G", got.G, s.G}, {"log", got.Log, mustJSON(s.Log)}, {"ctx", got.Ctx, mustJSON(s.Ctx)}} {
			if normJSON(t, c[1].(json.RawMessage)) != normJSON(t, c[2].(json.RawMessage)) {
				t.Fatalf("at stateID %d the page's %s differs:\n page %.400s\n full %.400s", got.StateID, c[0], c[1], c[2])
			}
		}
		return
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprint(err))
	}
	return b
}

// normJSON re-encodes js with sorted keys.
func normJSON(t *testing.T, js json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(js, &v); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
