package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/threemonks"
	"github.com/chaguan/chaguan/server/servertest"
)

// The page plays the states in order at its own pace (the room's pacer),
// and what it shows and asks always belongs to the one state on show. Bots
// move at once (delay 0), the hardest case: a watcher in the page samples
// every 25 ms and records any moment when the page asks for something the
// felt or the log has not shown yet.

// installWatch starts sampling expr (a JS function body returning a
// violation string or "") into window.__viol.
func installWatch(p *Page, body string) {
	p.t.Helper()
	p.Do("install the watcher", evalVoid(`(() => {
		window.__viol = [];
		const check = () => { try { `+body+` } catch (e) { return ""; } };
		setInterval(() => { const v = check(); if (v && window.__viol.length < 20) window.__viol.push(v); }, 25);
	})()`))
}

func checkWatch(p *Page) {
	p.t.Helper()
	if v := Eval[[]string](p, `window.__viol`); len(v) > 0 {
		p.Fail("the page showed and asked different states:\n%s", strings.Join(v, "\n"))
	}
}

// TestGongzhuPacing: your cards are playable only when the felt shows the
// trick the state asks about; a finished trick on show is not followed by
// "Your turn"; the next deal waits for the round's banner to go.
func TestGongzhuPacing(t *testing.T) {
	srv := startGongzhuServer(t, 0)
	id := createGongzhu(t, srv.URL, 4)
	b := StartBrowser(t)
	p := b.NewPage("ann")
	sitGongzhu(p, srv.URL, id, "Ann", "en")
	installWatch(p, `
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
		playCardPaced(p, i+1)
	}
	if Eval[int](p, gzG+`.round`) < 2 {
		p.Fail("round 2 never came")
	}
	checkWatch(p)
	p.NoJSErrors()
}

// TestThreeMonksPacing: the page never asks (cards, decision buttons)
// while the log is still telling the round, the question belongs to the
// state whose events the log ends with, the end card comes with the
// table's own winner banner, not before, and every number on the table
// belongs to the moment the log has told (tmCountersWatch).
func TestThreeMonksPacing(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{Games: games.NewRegistry(threemonks.Game)})
	id := createThreeMonks(t, srv.URL)
	b := StartBrowser(t)
	p := b.NewPage("ann")
	sitIn(p, srv.URL, "threemonks", id, "en")
	installWatch(p, `
		const s = window.__chaguan && window.__chaguan.state;
		if (!s || !s.G || !s.G.monks) return "";
		const g = s.G;
		const asking = !!document.querySelector("[data-ask]:not([disabled])") || !!document.querySelector("[data-card]:not([disabled])");
		const status = document.querySelector("[data-status=threemonks]").textContent;
		const lis = document.querySelectorAll("[data-log=threemonks] li");
		const evs = g.events.length ? g.events : g.lastEvents;
		const last = evs.length ? evs[evs.length - 1].kind : "";
		if (asking && /played out/.test(status)) return "asks while the round is played out: " + status;
		if (asking && last && lis.length && lis[lis.length - 1].dataset.ev !== last) return "asks while the log ends with " + lis[lis.length - 1].dataset.ev + ", the state with " + last;
		if (document.querySelector(".gameover") && !document.querySelector("[data-banner=threemonks]:not([hidden])")) return "the end card before the table's banner";
		return "";`)
	p.Do("record the states on show", evalVoid(tmHistoryHook))
	installWatch(p, tmCountersWatch)
	prefer := []string{"drink", "fetch", "chant", "exchange", "rest"}
	for step := 0; step < 400; step++ {
		p.WaitJSFor("my move or the end", tmNext+` !== ""`, 90*time.Second)
		next := Eval[string](p, tmNext)
		if next == "over" {
			p.WaitJSFor("the end card", `!!document.querySelector(".gameover")`, 90*time.Second)
			break
		}
		if next == "choose" {
			locked := Eval[string](p, `(`+tmG+`.lastCards[0] || "")`)
			round := Eval[int](p, tmG+`.round`)
			for _, c := range prefer {
				if c != locked {
					p.Click(fmt.Sprintf(`[data-card=%q]`, c))
					p.WaitJS("choice "+c, fmt.Sprintf(`(%s.players["0"].choice === %q || %s.round > %d || !!window.__chaguan.state.ctx.gameover)`, tmG, c, tmG, round))
					break
				}
			}
			continue
		}
		stateID := Eval[int](p, `window.__chaguan.state.stateID`)
		p.Click(`[data-ask]`)
		p.WaitJS("decision "+next, fmt.Sprintf(`window.__chaguan.state.stateID > %d`, stateID))
	}
	checkWatch(p)
	checkTMCountersSampled(p)
	p.NoJSErrors()
}

// playCardPaced clicks a legal card and waits until the state has it
// played. A click may land while the pacer redraws the hand (the trick
// before is still being collected on a slow machine, so the card is not
// clickable yet, or has moved): the page then still asks for a card, and
// the click is made again, up to three times.
func playCardPaced(p *Page, n int) {
	p.t.Helper()
	for try := 1; ; try++ {
		code := playLegalCard(p)
		played := fmt.Sprintf(`%s.round > 1 || !%s.players["0"].hand.includes(%q)`, gzG, gzG, code)
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if Eval[bool](p, played) {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		if try == 3 {
			p.Fail("card %d (%s) was clicked %d times and never played", n, code, try)
		}
	}
}
