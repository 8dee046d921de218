package gongzhu_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
	"github.com/chaguan/chaguan/games/gongzhu"
	"github.com/chaguan/chaguan/server/servertest"
)

// TestGongzhuRoundInBrowser: a person and three normal bots play one whole
// 4-seat round; the person clicks a raised card each turn. When the round
// ends, the scoreboard and round result on the page must show what the
// server computed, read back from the server's own store. Bots wait 150 ms
// per card, as people would see them, so the felt's animations run between
// real states.
func TestGongzhuRoundInBrowser(t *testing.T) {
	t.Parallel() // each has its own server and pages; they wait mostly on the page's animations
	srv := browsertest.StartGongzhuServer(t, 150*time.Millisecond)
	id := browsertest.CreateGongzhu(t, srv.URL, 4)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	browsertest.SitGongzhu(ann, srv.URL, id, "Ann", "en")

	for i := 0; i < 13; i++ {
		// At my turn the felt shows the trick in progress, its winning card marked.
		ann.WaitJS(fmt.Sprintf("trick %d on the felt", i+1), browsertest.GongzhuMyTurn+` && (() => {
			const tr = `+browsertest.GongzhuG+`.trick;
			const shown = [...document.querySelectorAll(".gz-trick-card")];
			if (shown.length !== tr.plays.length) return false;
			const ok = tr.plays.every(p => shown.some(e => e.dataset.card === p.card && e.dataset.seat === String(p.seat)));
			// The seat on top: the highest card of the led suit.
			const rank = (c) => "23456789TJQKA".indexOf(c[0]);
			const top = tr.plays.filter(p => p.card[1] === tr.plays[0].card[1]).reduce((a, p) => (!a || rank(p.card) > rank(a.card) ? p : a), null);
			const win = document.querySelector(".gz-trick-card.winning");
			return ok && (tr.plays.length < 2 ? !win : !!win && win.dataset.seat === String(top.seat));
		})()`)
		browsertest.PlayCard(ann, i+1)
	}
	ann.WaitJS("round 1 over", browsertest.GongzhuG+`.round === 2 && !!`+browsertest.GongzhuG+`.lastRound`)
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
	order := browsertest.Eval[[]string](ann, `[...document.querySelectorAll("[data-scoreboard=gongzhu] tr[data-row]")].map(r => r.dataset.row)`)
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
	if !browsertest.Eval[bool](ann, `document.querySelector('[data-scoreboard=gongzhu] tr[data-row="0"]').classList.contains("me")`) {
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
	if browsertest.Eval[bool](sam, `!!document.querySelector("[data-hand=gongzhu]") || Object.keys(`+browsertest.GongzhuG+`.players).length > 0`) {
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

// gzShotAt takes a w×h screenshot of p with the element sel near the top.
func gzShotAt(p *browsertest.Page, file string, w, h int64, sel string) {
	p.T().Helper()
	ctx, cancel := context.WithTimeout(p.Context(), 15*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h)); err != nil {
		p.T().Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	_ = chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.querySelector(`+browsertest.JSString(sel)+`).getBoundingClientRect().top + window.scrollY - 64)`))
	time.Sleep(200 * time.Millisecond)
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.T().Fatal(err)
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		p.T().Fatal(err)
	}
}
