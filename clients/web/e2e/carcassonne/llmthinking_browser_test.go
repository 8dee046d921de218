package carcassonne_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/server/servertest"
)

// thinkSecs is a JS expression: the seconds the element sel (a thinking
// mark) counts, or -1 when it shows none.
func thinkSecs(sel string) string {
	return fmt.Sprintf(`(() => { const e = document.querySelector(%s); const m = e && /^(\d+) (s|秒)$/.exec(e.textContent.trim()); return m ? Number(m[1]) : -1; })()`,
		browsertest.JSString(sel+" [data-think-secs]"))
}

// TestLLMThinkingAndFallback: a person plays Carcassonne against the LLM
// level of an endpoint the test holds. While the LLM decides, the status
// line and its seat in the side panel say "thinking… N s" ("思考中… N 秒"),
// counting up, for the player and for spectators (a laptop and a phone, in
// English and Chinese). Its answer's reason is shown under its placement
// in the log. On its next turn the endpoint does not answer within the
// level's limit: the normal bot plays, and the log marks that move
// "played by the normal bot: the LLM did not answer in time" ("由普通机器人
// 代下：大模型没有及时回答").
func TestLLMThinkingAndFallback(t *testing.T) {
	t.Parallel() // its own server and pages
	const reason = "Extends my road toward the open city; I keep my meeples for later."
	f := browsertest.NewFakeChat(t)
	f.SetReason(reason)
	base := browsertest.StartLLMServerTimeout(t, f, 6*time.Second)
	b := browsertest.Start(t)
	id := browsertest.CreateMatch(t, base, "carcassonne", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "llm-test"}})
	ann := b.NewPage("desk-en")
	browsertest.SizePage(ann, 1280, 800, false)
	browsertest.CarcassonneSit(ann, base, id, "en", "Ann")
	pages := []*browsertest.Page{ann}
	lang := map[*browsertest.Page]string{ann: "en"}
	for _, w := range []struct {
		name, lang string
		w, h       int64
	}{{"phone-zh", "zh", 390, 844}, {"phone-en", "en", 390, 844}, {"desk-zh", "zh", 1280, 800}} {
		p := b.NewPage(w.name)
		browsertest.SizePage(p, w.w, w.h, w.w < 500)
		p.Open(fmt.Sprintf("%s/m/carcassonne/%s?lang=%s", base, id, w.lang))
		p.WaitJS("the board", `!!document.querySelector("svg[data-board=carcassonne] .cc-tile")`)
		pages = append(pages, p)
		lang[p] = w.lang
	}
	shoot := func(stage string) {
		for _, p := range pages {
			if os.Getenv("CHAGUAN_SHOTS") == "" {
				return
			}
			p.Do("to the top", browsertest.EvalVoid(`window.scrollTo(0, 0)`))
			browsertest.LookShot(p, "llm-"+stage+"-"+p.Name())
			if strings.HasPrefix(p.Name(), "phone") {
				p.Do("scroll to the log", browsertest.EvalVoid(`document.querySelector(".cc-log").scrollIntoView({block: "end"})`))
				browsertest.LookShot(p, "llm-"+stage+"-"+p.Name()+"-log")
			}
		}
	}

	// The LLM's first turn: held, it thinks, and the seconds count up.
	browsertest.CarcassonneMyTurn(ann, "my first turn")
	f.Hold()
	browsertest.CarcassonnePlayTurn(t, ann, 0, false)
	select {
	case <-f.Arrived:
	case <-time.After(60 * time.Second):
		ann.Fail("the LLM seat sent no request")
	}
	for _, p := range pages {
		p.WaitJS("the status counts the seconds", thinkSecs(".cc-status")+` >= 0`)
		p.WaitJS("the seat counts the seconds", thinkSecs(`.cc-player[data-seat="1"]`)+` >= 0`)
	}
	first := browsertest.Eval[int](ann, thinkSecs(".cc-status"))
	ann.WaitJS("the seconds count up", fmt.Sprintf(`%s > %d && %s >= 2`, thinkSecs(".cc-status"), first, thinkSecs(".cc-status")))
	for _, p := range pages {
		unit := map[string]string{"en": " s", "zh": " 秒"}[lang[p]]
		word := map[string]string{"en": "thinking", "zh": "思考中"}[lang[p]]
		p.WaitJS("the seconds in "+lang[p], fmt.Sprintf(`(() => { const e = document.querySelector(".cc-status [data-thinking]"); return !!e && e.textContent.includes(%s) && e.querySelector("[data-think-secs]").textContent.endsWith(%s); })()`, browsertest.JSString(word), browsertest.JSString(unit)))
		if n := browsertest.Eval[int](p, `document.querySelectorAll('.cc-player[data-seat="0"] [data-think-secs]').length`); n != 0 {
			p.Fail("seat 0 shows thinking seconds on the LLM's turn")
		}
	}
	shoot("thinking")

	// It answers with its reason: shown under its placement in the log.
	f.LetGo()
	browsertest.CarcassonneMyTurn(ann, "my turn after the LLM's")
	for _, p := range pages {
		p.WaitText(`.cc-log [data-bot-reason]`, reason)
		p.WaitJS("no thinking once it moved", `!document.querySelector("[data-think-secs]")`)
		if browsertest.Eval[bool](p, `!!document.querySelector(".cc-log [data-fallback]")`) {
			p.Fail("a fallback mark after an answer in time")
		}
	}
	if got := browsertest.Eval[string](ann, `document.querySelector(".cc-log [data-bot-reason]").closest(".cc-ev").className`); !strings.Contains(got, "cc-ev-place") {
		ann.Fail("the reason is under %q, want the LLM's placement", got)
	}

	// Its next turn: the endpoint holds the request past the 6 s limit.
	f.Hold()
	browsertest.CarcassonnePlayTurn(t, ann, 1, false)
	select {
	case <-f.Arrived:
	case <-time.After(60 * time.Second):
		ann.Fail("the LLM seat sent no request on its second turn")
	}
	ann.WaitJS("thinking again", thinkSecs(".cc-status")+` >= 3`)
	shoot("thinking-again")
	want := map[string]string{"en": "played by the normal bot: the LLM did not answer in time", "zh": "由普通机器人代下：大模型没有及时回答"}
	for _, p := range pages {
		p.WaitJSFor("the fallback mark", fmt.Sprintf(`(() => { const e = document.querySelector('.cc-log [data-fallback="timeout"]'); return !!e && e.textContent.includes(%s); })()`, browsertest.JSString(want[lang[p]])), 60*time.Second)
	}
	// The meeple step (if any) may ask again: let it answer.
	f.LetGo()
	browsertest.CarcassonneMyTurn(ann, "my turn after the fallback")
	for _, p := range pages {
		p.WaitJS("the first reason still there", fmt.Sprintf(`[...document.querySelectorAll(".cc-log [data-bot-reason]")].some((e) => e.textContent.includes(%s))`, browsertest.JSString(reason)))
		p.WaitJS("no thinking", `!document.querySelector("[data-think-secs]")`)
	}
	if got := browsertest.Eval[string](ann, `document.querySelector('.cc-log [data-fallback="timeout"]').closest(".cc-ev").className`); !strings.Contains(got, "cc-ev-place") {
		ann.Fail("the fallback mark is under %q, want the LLM's placement", got)
	}
	shoot("fallback")
	for _, p := range pages {
		p.NoJSErrors()
	}
}

// heldPlayer is an Engine level that plays the first free point of the
// gomoku board once the test lets it go.
type heldPlayer struct {
	asked chan struct{}
	gate  chan struct{}
}

func (p *heldPlayer) Move(ctx context.Context, req rooms.EngineRequest) (string, json.RawMessage, error) {
	p.asked <- struct{}{}
	select {
	case <-p.gate:
	case <-ctx.Done():
		return "", nil, ctx.Err()
	}
	var v struct{ Board []string }
	if err := json.Unmarshal(req.View, &v); err != nil {
		return "", nil, err
	}
	for y, row := range v.Board {
		if x := strings.IndexByte(row, '.'); x >= 0 {
			return "place", games.Args(x, y), nil
		}
	}
	return "", nil, errors.New("no free point")
}

// TestThinkingInHostStatus: in a game whose plugin does not show thinking
// itself (gomoku, here with an Engine level that waits for the test), the
// host's status line says "Bot (slow) 2 is thinking… N s" ("思考中… N 秒")
// while the level decides, counting up, and stops once it has moved.
func TestThinkingInHostStatus(t *testing.T) {
	pl := &heldPlayer{asked: make(chan struct{}, 4), gate: make(chan struct{})}
	base := servertest.Start(t, servertest.Options{Players: map[string]map[string]rooms.EngineLevel{
		"gomoku": {"slow": {Engine: pl, Fallback: "normal", Timeout: time.Minute}},
	}}).URL
	t.Cleanup(func() {
		select {
		case <-pl.gate:
		default:
			close(pl.gate)
		}
	})
	b := browsertest.Start(t)
	id := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "slow"}})
	ann := b.NewPage("desk-en")
	browsertest.SizePage(ann, 1280, 800, false)
	browsertest.SitIn(ann, base, "gomoku", id, "en")
	zh := b.NewPage("phone-zh")
	browsertest.SizePage(zh, 390, 844, true)
	zh.Open(fmt.Sprintf("%s/m/gomoku/%s?lang=zh", base, id))
	browsertest.PlaceStone(ann, 0, 7, 7)
	select {
	case <-pl.asked:
	case <-time.After(60 * time.Second):
		ann.Fail("the Player level was not asked")
	}
	status := `document.querySelector(".host-status")`
	secs := thinkSecs(".host-status")
	for _, c := range []struct {
		p         *browsertest.Page
		say, unit string
	}{{ann, "is thinking…", " s"}, {zh, "思考中…", " 秒"}} {
		c.p.WaitJS("thinking in the host status", fmt.Sprintf(`(() => { const e = %s; return !e.hidden && e.textContent.includes(%s) && %s >= 0 && e.querySelector("[data-think-secs]").textContent.endsWith(%s); })()`, status, browsertest.JSString(c.say), secs, browsertest.JSString(c.unit)))
	}
	first := browsertest.Eval[int](ann, secs)
	ann.WaitJS("the seconds count up", fmt.Sprintf(`%s > %d`, secs, first))
	ann.Do("to the top", browsertest.EvalVoid(`window.scrollTo(0, 0)`))
	browsertest.LookShot(ann, "host-thinking-desk-en")
	browsertest.LookShot(zh, "host-thinking-phone-zh")
	close(pl.gate)
	for _, p := range []*browsertest.Page{ann, zh} {
		p.WaitJS("the bot's stone", browsertest.GomokuMovesIs(2))
		p.WaitJS("no thinking once it moved", `!document.querySelector("[data-think-secs]")`)
		p.NoJSErrors()
	}
}
