package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games/carcassonne"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
)

// TestAnswerFormats drives the answers real models write, and the ways a
// request fails, through the real client (Move over HTTP to a stub
// OpenAI-compatible server): a choice inside a code fence, after prose,
// after a <think> block or beside reasoning_content, a bare number or a
// numeric string is used, the last one when there are several; anything
// else is an error wrapping the sentinel named, whose text (what the room
// logs when it plays the fallback, counted with the reason "error") says
// why.
func TestAnswerFormats(t *testing.T) {
	tileView, meepleView, _, _ := views(t)
	tileOpts, err := buildPrompt(tileView, 0)
	if err != nil {
		t.Fatal(err)
	}
	last := tileOpts.first + len(tileOpts.options) - 1
	if last < 2 {
		t.Fatalf("the tile view lists %d options, want 2 or more", len(tileOpts.options))
	}
	html := reply{status: http.StatusBadGateway, contentType: "text/html", content: "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>"}
	for _, c := range []struct {
		name string
		view json.RawMessage // default tileView
		a    reply
		want int    // the option used; -1 when the answer is refused
		err  error  // the sentinel of the refusal
		why  string // in the refusal's text
	}{
		// Used.
		{name: "exact JSON", a: reply{content: `{"option": 2}`}, want: 2},
		{name: "json code fence", a: reply{content: "```json\n{\"option\": 2}\n```"}, want: 2},
		{name: "plain code fence", a: reply{content: "```\n{\"option\":2}\n```\n"}, want: 2},
		{name: "after a sentence of prose", a: reply{content: "Placing it next to the city keeps my options open. {\"option\": 2}"}, want: 2},
		{name: "prose and a fence", a: reply{content: "I choose the second placement:\n```json\n{ \"option\" : 2 }\n```\nGood luck!"}, want: 2},
		{name: "after a think block", a: reply{content: "<think>Option 1 closes the road, {\"option\": 1} scores 2.\nBut the city is better.</think>\n\n{\"option\": 2}"}, want: 2},
		{name: "reasoning_content is not parsed", a: reply{reasoning: `I pick {"option": 1}.`, content: `{"option": 2}`}, want: 2},
		{name: "bare number", a: reply{content: "2"}, want: 2},
		{name: "bare number with a full stop", a: reply{content: " 2.\n"}, want: 2},
		{name: "bare number after prose", a: reply{content: "The second option extends my road.\n\n**2**"}, want: 2},
		{name: "numeric string", a: reply{content: `{"option":"2"}`}, want: 2},
		{name: "extra keys", a: reply{content: `{"option": 1, "why": "it scores"}`}, want: 1},
		{name: "the last choice wins", a: reply{content: `First {"option": 1}; on reflection {"option": 2}.`}, want: 2},
		{name: "the last well-formed choice wins", a: reply{content: `{"option": 2} or maybe {"option": 1.5}`}, want: 2},
		{name: "meeple phase, no meeple", view: meepleView, a: reply{content: "```json\n{\"option\": 0}\n```"}, want: 0},

		// Refused.
		{name: "no number at all", a: reply{content: "I would place it north of the start tile."}, want: -1, err: ErrMalformed, why: `no {"option": N} and no bare number`},
		{name: "fraction", a: reply{content: `{"option": 1.5}`}, want: -1, err: ErrMalformed, why: "option is not a whole number"},
		{name: "word", a: reply{content: `{"option": "two"}`}, want: -1, err: ErrMalformed, why: "option is not a whole number"},
		{name: "a number in prose", a: reply{content: "Option 2 is best."}, want: -1, err: ErrMalformed, why: "no bare number"},
		{name: "unlisted number", a: reply{content: `{"option": 9999}`}, want: -1, err: ErrNoOption, why: "option 9999 is not listed"},
		{name: "unlisted bare number", a: reply{content: "0"}, want: -1, err: ErrNoOption, why: "option 0 is not listed (1 to"},
		{name: "unlisted in a fence", view: meepleView, a: reply{content: "```json\n{\"option\": -1}\n```"}, want: -1, err: ErrNoOption, why: "option -1 is not listed (0 to"},
		{name: "only a think block", a: reply{content: "<think>I pick {\"option\": 2}</think>"}, want: -1, err: ErrMalformed, why: "only reasoning"},
		{name: "think block cut off", a: reply{content: "<think>Let me count the fields: {\"option\": 2} would"}, want: -1, err: ErrMalformed, why: "only reasoning"},
		{name: "cut off at max_tokens", a: reply{content: "<think>The road east", finish: "length"}, want: -1, err: ErrMalformed, why: "only reasoning (<think>…</think>), no choice after it (cut off at max_tokens)"},
		{name: "empty content", a: reply{content: ""}, want: -1, err: ErrMalformed, why: "the answer is empty"},
		{name: "white space", a: reply{content: " \n\t"}, want: -1, err: ErrMalformed, why: "the answer is empty"},
		{name: "null content", a: reply{null: true}, want: -1, err: ErrMalformed, why: "no content (null)"},
		{name: "null content beside reasoning", a: reply{null: true, reasoning: `{"option": 2}`}, want: -1, err: ErrMalformed, why: "no content (null), only reasoning"},
		{name: "the model refuses", a: reply{null: true, refusal: "I cannot help with that."}, want: -1, err: ErrMalformed, why: `the model refused: "I cannot help with that."`},
		{name: "HTTP 500", a: reply{status: 500, content: `{"error": {"message": "the model crashed", "type": "server_error"}}`}, want: -1, err: ErrEndpoint, why: `500 Internal Server Error: "the model crashed"`},
		{name: "HTTP 429 with Retry-After", a: reply{status: 429, header: http.Header{"Retry-After": {"7"}}, content: `{"error": {"message": "rate limit reached", "type": "rate_limit"}}`}, want: -1, err: ErrEndpoint, why: "429 Too Many Requests: \"rate limit reached\" (retry after 7s)"},
		{name: "HTTP 401", a: reply{status: 401, content: `{"error": {"message": "invalid api key", "type": "auth"}}`}, want: -1, err: ErrEndpoint, why: "401 Unauthorized"},
		{name: "HTTP 502 with an HTML body", a: html, want: -1, err: ErrEndpoint, why: "502 Bad Gateway"},
	} {
		t.Run(c.name, func(t *testing.T) {
			view := c.view
			if view == nil {
				view = tileView
			}
			pr, err := buildPrompt(view, 0)
			if err != nil {
				t.Fatal(err)
			}
			f := newFake(t, always(c.a))
			name, args, err := f.player(t, 5*time.Second).Move(context.Background(), rooms.EngineRequest{Game: "carcassonne", View: view})
			if c.want >= 0 {
				o, _ := pr.option(c.want)
				if err != nil || name != o.name || string(args) != string(o.args) {
					t.Fatalf("Move = %s %s, %v; want option %d: %s %s", name, args, err, c.want, o.name, o.args)
				}
				return
			}
			if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.why) {
				t.Fatalf("Move = %s %s, %v; want an error wrapping %v saying %q", name, args, err, c.err, c.why)
			}
			if errors.Is(err, rooms.ErrEngineBusy) || errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%v would count as busy or timeout, not error", err)
			}
			mustNotLeak(t, "the error", err.Error())
			if errors.Is(err, ErrEndpoint) {
				if n := f.requests(); n != 1 {
					t.Errorf("%d requests, want 1 (no retry)", n)
				}
			}
			t.Logf("fallback reason %s: %v", rooms.FallbackError, err)
		})
	}
}

// TestParseAnswerBounded: an answer full of braces is parsed in linear
// time (at most maxObjects tries), and a choice at its end is still found.
func TestParseAnswerBounded(t *testing.T) {
	long := strings.Repeat(`{"a":"`, 20000) + "\n" + `{"option": 3}`
	if n, err := parseAnswer(long); err != nil || n != 3 {
		t.Errorf("parseAnswer(long) = %d, %v; want 3", n, err)
	}
	if _, err := parseAnswer(strings.Repeat(`{"a":"`, 20000)); !errors.Is(err, ErrMalformed) {
		t.Errorf("no choice: %v, want ErrMalformed", err)
	}
}

// TestAnswerReason: the answer's optional "reason" comes back with the
// move (MoveReason), through the real client: one line, at most
// protocol.MaxBotReason characters, control and invisible characters
// gone, the key's text replaced even when invisible characters split it;
// a reason that is absent, null or not a string is none, and never costs
// the option. A meeple step answered from the turn's memory has none.
func TestAnswerReason(t *testing.T) {
	tileView, _, tileState, _ := views(t)
	pr, err := buildPrompt(tileView, 0)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("The city grows and the road closes. ", 10)
	split := string(testKey[:6]) + "\u200b" + string(testKey[6:])
	for _, c := range []struct {
		name, content, want string
	}{
		{"a reason", `{"option": 2, "reason": "Extends my city c2 toward the open spot."}`, "Extends my city c2 toward the open spot."},
		{"reason first, braces in it", "```json\n{\"reason\": \"joins {c2} and {r7}\", \"option\": 2}\n```", "joins {c2} and {r7}"},
		{"none", `{"option": 2}`, ""},
		{"null", `{"option": 2, "reason": null}`, ""},
		{"not a string", `{"option": 2, "reason": {"why": "points"}}`, ""},
		{"a number", `{"option": 2, "reason": 7}`, ""},
		{"bare number", "2", ""},
		{"lines, tabs and controls", "{\"option\": 2, \"reason\": \"  Close the road.\\n\\nThen\\tthe\\u0007 city \\u202eevil\\u202c.  \"}", "Close the road. Then the city evil."},
		{"too long", `{"option": 2, "reason": "` + long + `"}`, string([]rune(strings.TrimSpace(long))[:119]) + "…"},
		{"the key", `{"option": 2, "reason": "my key is ` + string(testKey) + `"}`, "my key is [redacted]"},
		{"the key split by a zero-width space", `{"option": 2, "reason": "key ` + split + `"}`, "key [redacted]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, always(reply{content: c.content}))
			mv, err := f.player(t, 5*time.Second).MoveReason(context.Background(), rooms.EngineRequest{Game: "carcassonne", View: tileView})
			o, _ := pr.option(2)
			if err != nil || mv.Name != o.name || string(mv.Args) != string(o.args) {
				t.Fatalf("MoveReason = %+v, %v; want option 2: %s %s", mv, err, o.name, o.args)
			}
			if mv.Reason != c.want {
				t.Errorf("reason %q, want %q", mv.Reason, c.want)
			}
			if n := len([]rune(mv.Reason)); n > protocol.MaxBotReason {
				t.Errorf("reason of %d characters, want at most %d", n, protocol.MaxBotReason)
			}
			mustNotLeak(t, "the reason", mv.Reason)
		})
	}

	// The meeple step of the same turn comes from memory: no request, no
	// reason (the placement's entry carries the turn's).
	n := -1
	for i, o := range pr.options {
		if o.meeple != "" {
			n = pr.first + i
			break
		}
	}
	if n < 0 {
		t.Fatal("no tile-phase option places a meeple")
	}
	f := newFake(t, always(reply{content: fmt.Sprintf(`{"option": %d, "reason": "Claim the city."}`, n)}))
	p := f.player(t, 5*time.Second)
	req := rooms.EngineRequest{Game: "carcassonne", MatchID: "m1", View: tileView}
	mv, err := p.MoveReason(context.Background(), req)
	if err != nil || mv.Reason != "Claim the city." {
		t.Fatalf("tile step: %+v, %v; want the reason", mv, err)
	}
	next, err := carcassonne.Rules{}.Apply(tileState, 0, mv.Name, mv.Args)
	if err != nil || next.Phase != carcassonne.PhaseMeeple {
		t.Fatalf("the placement gives %v (phase %q), want the meeple step", err, next.Phase)
	}
	req.View = marshal(t, carcassonne.Rules{}.View(next, 0))
	mv, err = p.MoveReason(context.Background(), req)
	if err != nil || mv.Name != carcassonne.MovePlaceMeeple || mv.Reason != "" || f.requests() != 1 {
		t.Errorf("meeple step: %+v, %v after %d requests; want the remembered meeple, no reason, one request", mv, err, f.requests())
	}
}
