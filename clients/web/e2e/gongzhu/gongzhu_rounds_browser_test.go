package gongzhu_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chaguan/chaguan/games/gongzhu"
)

// TestGongzhuRoundHistory: after two finished rounds with bots playing at
// once, the round-by-round 榜 built from the view shows both rounds, the
// same for the player and for a spectator who connects only after them:
// each seat's and team's round score, the seat that took the pig, the
// sheep, the transformer and all hearts, and the totals, all as the
// server's stored state has them. Nothing is kept in sessionStorage any
// more. With CHAGUAN_SHOTS=dir it also takes desktop and phone screenshots
// of the 榜 in English and Chinese.
func TestGongzhuRoundHistory(t *testing.T) {
	t.Parallel() // each has its own server and pages; they wait mostly on the page's animations
	srv := browsertest.StartGongzhuServer(t, 0)
	id := browsertest.CreateGongzhu(t, srv.URL, 4)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	browsertest.SitGongzhu(ann, srv.URL, id, "Ann", "en")
	for i := 0; i < 30 && !browsertest.Eval[bool](ann, browsertest.GongzhuG+`.round >= 3`); i++ {
		browsertest.PlayCard(ann, i+1)
	}
	ann.WaitJS("round 3 dealt", browsertest.GongzhuG+`.round === 3 && `+browsertest.GongzhuG+`.history.length === 2`)

	s := gzStoredState(t, srv, id)
	if len(s.History) != 2 || s.History[0].Round != 1 || s.History[1].Round != 2 {
		t.Fatalf("server history %+v, want rounds 1 and 2", s.History)
	}
	checkRoundsTable(ann, s, "Round by round")
	if browsertest.Eval[bool](ann, `Object.keys(sessionStorage).some((k) => k.includes("gongzhu"))`) {
		ann.Fail("the page still keeps Gong Zhu rounds in sessionStorage")
	}

	sam := b.NewPage("spectator")
	sam.Open(fmt.Sprintf("%s/m/gongzhu/%s?lang=zh", srv.URL, id))
	sam.WaitJS("the spectator's table", `!!window.__chaguan && window.__chaguan.you === "" && !!document.querySelector("[data-table=gongzhu] [data-seat]")`)
	checkRoundsTable(sam, s, "每局得分")

	if dir := os.Getenv("CHAGUAN_SHOTS"); dir != "" {
		for _, p := range []struct {
			page *browsertest.Page
			name string
		}{{ann, "en_player"}, {sam, "zh_spectator"}} {
			gzShotAt(p.page, filepath.Join(dir, "gz_rounds_"+p.name+"_desk.png"), 1280, 800, "[data-rounds=gongzhu]")
			gzShotAt(p.page, filepath.Join(dir, "gz_rounds_"+p.name+"_phone.png"), 390, 844, "[data-rounds=gongzhu]")
		}
	}
	ann.NoJSErrors()
	sam.NoJSErrors()
}

// checkRoundsTable waits for the round-by-round 榜 on p to show s's two
// rounds under title, then checks every figure and mark against s.
func checkRoundsTable(p *browsertest.Page, s gongzhu.State, title string) {
	p.T().Helper()
	p.WaitJS("both rounds in the 榜", `document.querySelectorAll("[data-rounds=gongzhu] tbody tr[data-round-row]").length === 2 && !!document.querySelector('[data-round-row="1"]') && !!document.querySelector('[data-round-row="2"]')`)
	p.WaitText("[data-rounds=gongzhu] h3", title)
	if text := p.Text("[data-rounds=gongzhu]"); strings.Contains(text, "null") || strings.Contains(text, "undefined") {
		p.Fail("the round-by-round 榜 shows %q", text)
	}
	for _, e := range s.History {
		row := fmt.Sprintf(`[data-rounds=gongzhu] [data-round-row="%d"]`, e.Round)
		for seat, score := range e.Scores {
			if got := p.Text(fmt.Sprintf(`%s [data-round-seat="%d"]`, row, seat)); got != signedScore(score) {
				p.Fail("round %d seat %d shows %q, server has %d", e.Round, seat, got, score)
			}
		}
		for team := 0; team < 2; team++ {
			want := signedScore(e.Scores[team] + e.Scores[team+2])
			if got := p.Text(fmt.Sprintf(`%s [data-round-team="%d"]`, row, team)); got != want {
				p.Fail("round %d team %d shows %q, want %s", e.Round, team, got, want)
			}
		}
		for mark, seat := range map[string]int{"pig": e.Pig, "sheep": e.Sheep, "transformer": e.Transformer, "allHearts": e.AllHearts} {
			got := browsertest.Eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll('%s [data-mark="%s"]')].map((m) => m.closest("td").dataset.roundSeat)`, row, mark))
			want := []string{}
			if seat >= 0 {
				want = []string{fmt.Sprint(seat)}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				p.Fail("round %d: the %s mark is on seats %v, server says seat %d", e.Round, mark, got, seat)
			}
		}
	}
	for seat, total := range s.Totals {
		if got := p.Text(fmt.Sprintf(`[data-rounds=gongzhu] [data-rounds-total="%d"]`, seat)); got != signedScore(total) {
			p.Fail("rounds total of seat %d shows %q, server has %d", seat, got, total)
		}
	}
	for team := 0; team < 2; team++ {
		want := signedScore(s.Totals[team] + s.Totals[team+2])
		if got := p.Text(fmt.Sprintf(`[data-rounds=gongzhu] [data-rounds-team-total="%d"]`, team)); got != want {
			p.Fail("rounds total of team %d shows %q, want %s", team, got, want)
		}
	}
}
