package site_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chromedp/chromedp"
)

// TestConnMovePromises drives conn.js directly: a move resolves with the
// state whose ack is its id, a refused move rejects with the error whose ref
// is its id (and changes nothing), and a spectator's move is refused.
func TestConnMovePromises(t *testing.T) {
	base := browsertest.StartServer(t)
	var created struct{ MatchID string }
	browsertest.PostJSON(t, base, "/games/gomoku/create", map[string]any{"numPlayers": 2}, &created)
	type joined struct{ PlayerID, PlayerCredentials string }
	var a, bob joined
	browsertest.PostJSON(t, base, "/games/gomoku/"+created.MatchID+"/join", map[string]any{"playerName": "Ann", "playerID": "0"}, &a)
	browsertest.PostJSON(t, base, "/games/gomoku/"+created.MatchID+"/join", map[string]any{"playerName": "Bob", "playerID": "1"}, &bob)

	b := browsertest.Start(t)
	p := b.NewPage("ann")
	p.Open(base + "/?lang=en")
	got := browsertest.Eval[map[string]any](p, fmt.Sprintf(`(async () => {
		const { Conn } = await import("/assets/js/conn.js");
		const open = (seat) => new Promise((resolve) => {
			const c = new Conn({ game: "gomoku", matchID: %q, seat,
				onState: () => resolve(c), onError() {}, onChat() {}, onStatus() {} });
			c.start();
		});
		const ann = await open({ playerID: "0", credentials: %q });
		const out = {};
		const s = await ann.move("place", [7, 7]);
		out.ack = s.ack;
		out.moves = s.G.moves.length;
		try { await ann.move("place", [8, 8]); out.second = "resolved"; } catch (e) { out.secondCode = e.code; out.secondRef = e.ref; }
		try { await ann.move("nonsense", []); out.third = "resolved"; } catch (e) { out.thirdCode = e.code; out.thirdRef = e.ref; }
		const spec = await open(null);
		try { await spec.move("place", [0, 0]); out.spec = "resolved"; } catch (e) { out.specCode = e.code; }
		ann.close();
		try { await ann.move("place", [0, 0]); } catch (e) { out.closedCode = e.code; }
		out.after = spec.lastState.G.moves.length;
		spec.close();
		return out;
	})()`, created.MatchID, a.PlayerCredentials), chromedp.EvalAwaitPromise)
	want := map[string]any{
		"ack": 1.0, "moves": 1.0,
		"secondCode": "not_your_turn", "secondRef": 2.0,
		"thirdCode": "unknown_move", "thirdRef": 3.0,
		"specCode":   "unauthorized",
		"closedCode": "disconnected",
		"after":      1.0,
	}
	if !reflect.DeepEqual(got, want) {
		p.Fail("conn results\n got %v\nwant %v", got, want)
	}
}
