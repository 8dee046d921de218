package gongzhu_test

import (
	"testing"

	"github.com/chaguan/chaguan/clients/web/browsertest"
)

// The page plays the states in order at its own pace (the room's pacer),
// and what it shows and asks always belongs to the one state on show. Bots
// move at once (delay 0), the hardest case: a watcher in the page samples
// every 25 ms and records any moment when the page asks for something the
// felt or the log has not shown yet.

// TestGongzhuPacing: your cards are playable only when the felt shows the
// trick the state asks about; a finished trick on show is not followed by
// "Your turn"; the next deal waits for the round's banner to go.
func TestGongzhuPacing(t *testing.T) {
	t.Parallel() // each has its own server and pages; they wait mostly on the page's animations
	srv := browsertest.StartGongzhuServer(t, 0)
	id := browsertest.CreateGongzhu(t, srv.URL, 4)
	b := browsertest.Start(t)
	p := b.NewPage("ann")
	browsertest.SitGongzhu(p, srv.URL, id, "Ann", "en")
	browsertest.InstallWatch(p, `
		const s = window.__chaguan && window.__chaguan.state;
		if (!s || !s.G) return "";
		const g = s.G;
		const turn = !!document.querySelector(".gz-hand.turn .gz-card.legal");
		const banner = !!document.querySelector("[data-banner=round]");
		const hand = document.querySelectorAll(".gz-hand .gz-card").length;
		const felt = [...document.querySelectorAll(".gz-trick-card:not(.collect)")].map((e) => e.dataset.card).sort().join();
		const want = g.trick.plays.map((x) => x.card).sort().join();
		const status = document.querySelector("[data-status=gongzhu]").textContent;
		if (turn && banner) return "cards playable under the round banner";
		if (banner && hand > 0) return "the next deal (" + hand + " cards) under the round banner";
		if (turn && s.ctx.currentPlayer !== "0") return "cards playable when the state on show is not my turn";
		if (turn && felt !== want) return "cards playable while the felt shows [" + felt + "], the state [" + want + "]";
		if (/Your turn/.test(status) && felt !== want) return "status " + status + " while the felt shows [" + felt + "], the state [" + want + "]";
		return "";`)
	for i := 0; i < 16; i++ {
		browsertest.PlayCard(p, i+1)
	}
	if browsertest.Eval[int](p, browsertest.GongzhuG+`.round`) < 2 {
		p.Fail("round 2 never came")
	}
	browsertest.CheckWatch(p)
	p.NoJSErrors()
}
