package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
	"github.com/chaguan/chaguan/games/gongzhu"
	"github.com/chaguan/chaguan/server/servertest"
)

// startGongzhuServer serves Gong Zhu whether or not it is registered in
// games/all yet; bots wait botDelay before each card (0: at once).
func startGongzhuServer(t *testing.T, botDelay time.Duration) *servertest.Server {
	t.Helper()
	return servertest.Start(t, servertest.Options{Games: games.NewRegistry(gongzhu.Game), BotDelay: botDelay})
}

// createGongzhu creates an n-seat match over HTTP with normal bots in every
// seat but 0 and returns its ID.
func createGongzhu(t *testing.T, base string, n int) string {
	t.Helper()
	bots := map[string]string{}
	for i := 1; i < n; i++ {
		bots[strconv.Itoa(i)] = gongzhu.LevelNormal
	}
	return createMatch(t, base, "gongzhu", map[string]any{"numPlayers": n, "bots": bots})
}

// sitGongzhu opens the room on p and takes seat 0 as name.
func sitGongzhu(p *Page, base, matchID, name, lang string) {
	p.t.Helper()
	p.Open(fmt.Sprintf("%s/m/gongzhu/%s?lang=%s", base, matchID, lang))
	p.Type(`[data-field="name"]`, name)
	p.Click(`[data-action="sit"][data-seat="0"]`)
	p.WaitJS("seated in seat 0", `window.__chaguan && window.__chaguan.you === "0" && window.__chaguan.state.ctx.started`)
	p.WaitJS("the table", `!!document.querySelector("[data-table=gongzhu] [data-seat]")`)
}

// gzG is a JS expression for the page's latest view.
const gzG = `window.__chaguan.state.G`

// gzMyTurn is a JS expression, true when the page's latest state has seat
// 0 (the person in these tests) to play.
const gzMyTurn = `window.__chaguan.state.ctx.currentPlayer === "0"`

// gzHandAtRest is true when no card of the hand is moving (no CSS
// transition or animation running on it).
const gzHandAtRest = `[...document.querySelectorAll(".gz-hand .gz-card")].every((c) => c.getAnimations().every((a) => a.playState !== "running"))`

// playLegalCard waits for the viewer's turn, then clicks a raised (legal)
// card of the hand at a point where it is really on top (the hand overlaps),
// and returns its code once the page has taken the click: the card is on
// its way (marked sending) or already out of the hand. A click that the
// page did not take (on a loaded machine the hand can move between the
// point's measure and the click, and the click lands on a neighbour) is
// made again, a few times at most; none of this waits on a clock.
func playLegalCard(p *Page) string {
	p.t.Helper()
	for try := 1; ; try++ {
		p.WaitJS("my turn", gzMyTurn+` && document.querySelectorAll(".gz-hand.turn .gz-card.legal").length > 0`)
		// Let the hand's transitions (the raise, a redraw) finish so the point
		// stays on the card: waited for, not timed, as a loaded machine may
		// take far longer than the transition's 200 ms.
		p.WaitJS("the hand at rest", gzHandAtRest)
		code, x, y := gzCardPoint(p, ".gz-hand.turn .gz-card.legal")
		if x < 0 {
			p.Fail("legal card %s has no visible point to click", code)
		}
		// A person's pointer rests on the card before the click: the card
		// rises under it (:hover), and the click lands where it now is.
		p.HoverXY(x, y)
		p.WaitJS("the hand at rest", gzHandAtRest)
		sel := fmt.Sprintf(".gz-hand.turn .gz-card.legal[data-card=%q]", code)
		if _, x, y = gzCardPoint(p, sel); x < 0 {
			p.Fail("legal card %s has no visible point to click once raised", code)
		}
		p.ClickXY(x, y)
		took := fmt.Sprintf(`(() => {
			const c = document.querySelector('.gz-hand .gz-card[data-card=%q]');
			return !c || c.classList.contains("sending") || !`+gzG+`.players["0"] || !`+gzG+`.players["0"].hand.includes(%q);
		})()`, code, code)
		if Eval[bool](p, took) {
			return code
		}
		if try == 4 {
			p.Fail("card %s was clicked %d times and the page never took it", code, try)
		}
		at := Eval[string](p, fmt.Sprintf(`(() => { const e = document.elementFromPoint(%f, %f); const c = e && e.closest(".gz-card"); return (e ? e.tagName + "." + [...e.classList].join(".") : "nothing") + (c ? " card " + c.dataset.card + " " + c.className : "") + " hand " + document.querySelector(".gz-hand").className + " scroll " + scrollY + " toasts " + [...document.querySelectorAll(".toast")].map((t) => t.textContent).join("|") + " shown " + window.__chaguan.state.stateID + " latest " + (window.__chaguan.latest && window.__chaguan.latest.stateID) + " status " + (document.querySelector("[data-conn]") ? document.querySelector("[data-conn]").textContent : "?"); })()`, x, y))
		p.t.Logf("the click on %s at %.0f,%.0f did not take (now there: %s); again", code, x, y, at)
	}
}

// TestGongzhuRoundInBrowser: a person and three normal bots play one whole
// 4-seat round; the person clicks a raised card each turn. When the round
// ends, the scoreboard and round result on the page must show what the
// server computed, read back from the server's own store. Bots wait 150 ms
// per card, as people would see them, so the felt's animations run between
// real states.
func TestGongzhuRoundInBrowser(t *testing.T) {
	srv := startGongzhuServer(t, 150*time.Millisecond)
	id := createGongzhu(t, srv.URL, 4)
	b := StartBrowser(t)
	ann := b.NewPage("ann")
	sitGongzhu(ann, srv.URL, id, "Ann", "en")

	for i := 0; i < 13; i++ {
		// At my turn the felt shows the trick in progress, its winning card marked.
		ann.WaitJS(fmt.Sprintf("trick %d on the felt", i+1), gzMyTurn+` && (() => {
			const tr = `+gzG+`.trick;
			const shown = [...document.querySelectorAll(".gz-trick-card")];
			if (shown.length !== tr.plays.length) return false;
			const ok = tr.plays.every(p => shown.some(e => e.dataset.card === p.card && e.dataset.seat === String(p.seat)));
			// The seat on top: the highest card of the led suit.
			const rank = (c) => "23456789TJQKA".indexOf(c[0]);
			const top = tr.plays.filter(p => p.card[1] === tr.plays[0].card[1]).reduce((a, p) => (!a || rank(p.card) > rank(a.card) ? p : a), null);
			const win = document.querySelector(".gz-trick-card.winning");
			return ok && (tr.plays.length < 2 ? !win : !!win && win.dataset.seat === String(top.seat));
		})()`)
		code := playLegalCard(ann)
		ann.WaitJS(fmt.Sprintf("card %d (%s) played", i+1, code),
			fmt.Sprintf(`%s.round > 1 || !%s.players["0"].hand.includes(%q)`, gzG, gzG, code))
	}
	ann.WaitJS("round 1 over", gzG+`.round === 2 && !!`+gzG+`.lastRound`)
	ann.WaitText("[data-result=gongzhu] h3", "Round 1 result")

	s := gzStoredState(t, srv, id)
	if s.LastRound == nil || s.LastRound.Round != 1 {
		t.Fatalf("server state has no round 1 result: %+v", s.LastRound)
	}
	taken := make([][]cards.Card, 4)
	for _, tr := range s.LastRound.Tricks {
		taken[tr.Taker] = append(taken[tr.Taker], tr.Cards()...)
	}
	want := gongzhu.ScoreRound(taken)
	for seat := 0; seat < 4; seat++ {
		if s.LastRound.Scores[seat] != want[seat] || s.Totals[seat] != want[seat] {
			t.Fatalf("server scores %v totals %v, recomputed %v", s.LastRound.Scores, s.Totals, want)
		}
		sel := fmt.Sprintf(`[data-scoreboard=gongzhu] [data-total="%d"]`, seat)
		if got := ann.Text(sel); got != signedScore(s.Totals[seat]) {
			ann.Fail("scoreboard total of seat %d shows %q, server has %d", seat, got, s.Totals[seat])
		}
		sel = fmt.Sprintf(`[data-scoreboard=gongzhu] [data-last="%d"]`, seat)
		if got := ann.Text(sel); got != signedScore(s.LastRound.Scores[seat]) {
			ann.Fail("scoreboard last round of seat %d shows %q, server has %d", seat, got, s.LastRound.Scores[seat])
		}
		sel = fmt.Sprintf(`[data-result=gongzhu] [data-round-score="%d"]`, seat)
		if got := ann.Text(sel); got != signedScore(s.LastRound.Scores[seat]) {
			ann.Fail("round result of seat %d shows %q, server has %d", seat, got, s.LastRound.Scores[seat])
		}
	}
	// Rows best first, the viewer's row highlighted, team totals 0+2 and 1+3.
	order := Eval[[]string](ann, `[...document.querySelectorAll("[data-scoreboard=gongzhu] tr[data-row]")].map(r => r.dataset.row)`)
	if len(order) != 4 {
		ann.Fail("scoreboard has %d rows", len(order))
	}
	for i := 1; i < len(order); i++ {
		a, _ := strconv.Atoi(order[i-1])
		c, _ := strconv.Atoi(order[i])
		if s.Totals[a] < s.Totals[c] {
			ann.Fail("scoreboard order %v is not best first for totals %v", order, s.Totals)
		}
	}
	if !Eval[bool](ann, `document.querySelector('[data-scoreboard=gongzhu] tr[data-row="0"]').classList.contains("me")`) {
		ann.Fail("the viewer's scoreboard row is not highlighted")
	}
	for team := 0; team < 2; team++ {
		sel := fmt.Sprintf(`[data-scoreboard=gongzhu] [data-team-total="%d"]`, team)
		if got, want := ann.Text(sel), signedScore(s.Totals[team]+s.Totals[team+2]); got != want {
			ann.Fail("team %d total shows %q, want %q", team, got, want)
		}
	}

	// A spectator sees the same board and no hand at all.
	sam := b.NewPage("spectator")
	sam.Open(fmt.Sprintf("%s/m/gongzhu/%s?lang=zh", srv.URL, id))
	sam.WaitJS("the spectator's table", `!!window.__chaguan && window.__chaguan.you === "" && !!document.querySelector("[data-scoreboard=gongzhu] [data-total]")`)
	sam.WaitText("[data-scoreboard=gongzhu] h3", "榜")
	if Eval[bool](sam, `!!document.querySelector("[data-hand=gongzhu]") || Object.keys(`+gzG+`.players).length > 0`) {
		sam.Fail("the spectator is shown a hand")
	}
	for seat := 0; seat < 4; seat++ {
		sel := fmt.Sprintf(`[data-scoreboard=gongzhu] [data-total="%d"]`, seat)
		if got := sam.Text(sel); got != signedScore(s.Totals[seat]) {
			sam.Fail("spectator's scoreboard total of seat %d shows %q, server has %d", seat, got, s.Totals[seat])
		}
	}
}

// gzStoredState reads match id's state back from the server's own store.
func gzStoredState(t *testing.T, srv *servertest.Server, id string) gongzhu.State {
	t.Helper()
	rec, err := srv.Store.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	st, err := gongzhu.Game.Load(rec.State)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := games.Typed[gongzhu.State](st)
	return s
}

func signedScore(n int) string {
	if n > 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// TestGongzhuShots takes screenshots for a person to look at (desktop and
// phone, English and Chinese, 3 and 4 seats). It runs only with
// GONGZHU_SHOTS=dir.
func TestGongzhuShots(t *testing.T) {
	dir := os.Getenv("GONGZHU_SHOTS")
	if dir == "" {
		t.Skip("set GONGZHU_SHOTS=dir to take screenshots")
	}
	srv := startGongzhuServer(t, 0)
	b := StartBrowser(t)
	for _, n := range []int{4, 3} {
		for _, lang := range []string{"en", "zh"} {
			p := b.NewPage(fmt.Sprintf("p%d%s", n, lang))
			id := createGongzhu(t, srv.URL, n)
			sitGongzhu(p, srv.URL, id, "Ann", lang)
			for i := 0; i < 3; i++ {
				code := playLegalCard(p)
				p.WaitJS("played", fmt.Sprintf(`!%s.players["0"].hand.includes(%q)`, gzG, code))
			}
			p.WaitJS("my turn", gzMyTurn)
			gzShot(p, filepath.Join(dir, fmt.Sprintf("gz%d_%s_desk.png", n, lang)), 1280, 900)
			gzShot(p, filepath.Join(dir, fmt.Sprintf("gz%d_%s_phone.png", n, lang)), 390, 844)
			gzShot(p, filepath.Join(dir, fmt.Sprintf("gz%d_%s_360.png", n, lang)), 360, 740)
			if n == 4 && lang == "en" {
				for p.Text("[data-result=gongzhu] h3") != "Round 1 result" || !Eval[bool](p, gzG+`.round === 2`) {
					code := playLegalCard(p)
					p.WaitJS("played", fmt.Sprintf(`%s.round > 1 || !%s.players["0"].hand.includes(%q)`, gzG, gzG, code))
					if Eval[bool](p, gzG+`.round === 2`) {
						break
					}
				}
				time.Sleep(300 * time.Millisecond)
				gzShot(p, filepath.Join(dir, "gz4_en_roundover.png"), 1280, 900)
				sam := b.NewPage("spectator")
				sam.Open(fmt.Sprintf("%s/m/gongzhu/%s?lang=zh", srv.URL, id))
				sam.WaitJS("the table", `!!document.querySelector("[data-table=gongzhu] [data-seat]")`)
				gzShot(sam, filepath.Join(dir, "gz4_spectator_desk.png"), 1280, 900)
			}
		}
	}
}

// gzShot takes a w×h screenshot of p with the status bar at the top.
func gzShot(p *Page, file string, w, h int64) { gzShotAt(p, file, w, h, "[data-status=gongzhu]") }

// gzShotAt takes a w×h screenshot of p with the element sel near the top.
func gzShotAt(p *Page, file string, w, h int64, sel string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h)); err != nil {
		p.t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	_ = chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.querySelector(`+jsString(sel)+`).getBoundingClientRect().top + window.scrollY - 64)`))
	time.Sleep(200 * time.Millisecond)
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// gzCardPoint finds the first card matching sel in p's hand, scrolls it
// into view and returns its code and a viewport point where the card
// itself (not a neighbour over it) takes a click; ("", -1, -1) without
// such a card, (code, -1, -1) when no point of it shows.
func gzCardPoint(p *Page, sel string) (code string, x, y float64) {
	p.t.Helper()
	pt := Eval[[]any](p, `(() => {
		const c = document.querySelector(`+jsString(sel)+`);
		if (!c) return ["", -1, -1];
		c.scrollIntoView({block: "center"});
		const r = c.getBoundingClientRect();
		for (let y = r.top + 12; y < r.bottom - 4; y += 6)
			for (let x = r.left + 4; x < r.right - 2; x += 3) {
				const e = document.elementFromPoint(x, y);
				if (e && e.closest(".gz-card") === c) return [c.dataset.card, x, y];
			}
		return [c.dataset.card, -1, -1];
	})()`)
	code, _ = pt[0].(string)
	x, _ = pt[1].(float64)
	y, _ = pt[2].(float64)
	return code, x, y
}
