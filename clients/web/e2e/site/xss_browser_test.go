package site_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/clients/web/browsertest"
)

// xssName is a player name, and xssChat a chat line, that would run script
// if the page put them into innerHTML.
const (
	xssName = `<img src=x onerror="window.__xss=1">`
	xssChat = `<img src=x onerror="window.__xss=2"><script>window.__xss=3</script>`
)

// sitAt opens a match's invite link on p and takes seat as name.
func sitAt(p *browsertest.Page, base, game, id, seat, name string) {
	p.T().Helper()
	p.Open(base + "/m/" + game + "/" + id + "?lang=en")
	p.Type(`[data-field="name"]`, name)
	p.Click(fmt.Sprintf(`[data-action="sit"][data-seat=%q]`, seat))
	p.WaitJS("seated in "+game, fmt.Sprintf(`window.__chaguan && window.__chaguan.you === %q`, seat))
}

// literalIn is a JS expression: some element matching sel shows text as
// text.
func literalIn(sel, text string) string {
	return fmt.Sprintf(`[...document.querySelectorAll(%s)].some((e) => e.textContent.includes(%s))`, browsertest.JSString(sel), browsertest.JSString(text))
}

// checkNoInjection fails unless the page ran none of the hostile markup:
// window.__xss unset, no element the markup would have made, and no
// uncaught error.
func checkNoInjection(p *browsertest.Page, where string) {
	p.T().Helper()
	got := browsertest.Eval[string](p, `JSON.stringify({xss: typeof window.__xss,
		imgs: document.querySelectorAll('img[src="x"], img[onerror]').length,
		scripts: [...document.scripts].filter((s) => s.textContent.includes("__xss")).length})`)
	if got != `{"xss":"undefined","imgs":0,"scripts":0}` {
		p.Fail("%s: hostile markup ran or became elements: %s", where, got)
	}
	p.NoJSErrors()
}

// TestHostileNamesShownAsText: a player named like an <img onerror> tag,
// and chat holding markup, show literally everywhere the web client shows
// them: the seats, the games' own name displays (gomoku, gongzhu), chat,
// the lobby's match list and "my matches", in English and Chinese; no
// script runs.
func TestHostileNamesShownAsText(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	evil, ann := b.NewPage("evil"), b.NewPage("ann")

	// Gomoku: the seats, the plugin's players and chat.
	gomoku := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2})
	sitAt(evil, base, "gomoku", gomoku, "0", xssName)
	sitAt(ann, base, "gomoku", gomoku, "1", "Ann")
	ann.WaitJS("the match started", `window.__chaguan.state.ctx.started`)
	ann.WaitJS("the name in the seats", literalIn(".seat .seat-name", xssName))
	ann.WaitJS("the name in gomoku's players", literalIn(".gomoku-pname", xssName))
	evil.Type(`[data-chat="input"]`, xssChat)
	evil.Click(`[data-chat="send"]`)
	ann.WaitJS("the chat text", literalIn(".chat-lines .chat-text", xssChat))
	ann.WaitJS("the chat name", literalIn(".chat-lines .chat-name", xssName))
	checkNoInjection(ann, "gomoku room")
	checkNoInjection(evil, "gomoku room (the sender)")

	// Gong Zhu: the table's name badges, seen by another player.
	gongzhu := browsertest.CreateMatch(t, base, "gongzhu", map[string]any{"numPlayers": 4, "bots": map[string]string{"2": "normal", "3": "normal"}, "botDelayMs": 3000})
	sitAt(evil, base, "gongzhu", gongzhu, "0", xssName)
	sitAt(ann, base, "gongzhu", gongzhu, "1", "Ann")
	ann.WaitJS("the name on the gongzhu table", literalIn(".gz-name", xssName))
	checkNoInjection(ann, "gongzhu room")

	// The lobby: the match list (a waiting match) and "my matches".
	waiting := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2})
	sitAt(evil, base, "gomoku", waiting, "0", xssName)
	for _, lang := range []string{"en", "zh"} {
		ann.Open(base + "/?lang=" + lang)
		ann.WaitJS("the name in the match list", literalIn(fmt.Sprintf(`.match-row[data-match=%q] .seat-chip`, waiting), xssName))
		ann.WaitJS("the opponent in my matches", literalIn(fmt.Sprintf(`.my-matches [data-match=%q]`, gomoku), xssName))
		checkNoInjection(ann, "lobby ("+lang+")")
	}
	evil.Open(base + "/?lang=zh")
	evil.WaitJS("my matches", fmt.Sprintf(`!!document.querySelector(%s)`, browsertest.JSString(fmt.Sprintf(`.my-matches [data-match=%q]`, gongzhu))))
	checkNoInjection(evil, "lobby (the named player)")
	if os.Getenv("CHAGUAN_SCREENSHOTS") != "" {
		shootHostile(b, ann, base, gomoku)
	}
	if strings.Contains(browsertest.Eval[string](ann, `document.documentElement.outerHTML`), `<img src="x"`) {
		ann.Fail("the page's HTML holds the markup as an element")
	}
}

// shootHostile saves screenshots of the gomoku room and the lobby at desk
// and phone sizes (only with $CHAGUAN_SCREENSHOTS set), to look at how a
// long hostile name lays out.
func shootHostile(b *browsertest.Browser, p *browsertest.Page, base, gomoku string) {
	for _, size := range []struct {
		name string
		w, h int64
	}{{"desk", 1280, 800}, {"phone", 390, 844}} {
		browsertest.SizePage(p, size.w, size.h, size.name == "phone")
		p.Open(base + "/m/gomoku/" + gomoku + "?lang=zh")
		p.WaitJS("the room", literalIn(".gomoku-pname", xssName))
		p.SetName("xss-room-" + size.name)
		b.Screenshots()
		p.Open(base + "/?lang=en")
		p.WaitJS("the lobby", `!!document.querySelector(".my-matches [data-match]")`)
		p.SetName("xss-lobby-" + size.name)
		b.Screenshots()
	}
}
