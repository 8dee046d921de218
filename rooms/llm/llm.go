// Package llm plays Carcassonne through a large language model: a
// rooms.Engine that asks an OpenAI-compatible chat-completions endpoint
// (github.com/openai/openai-go) to choose among the numbered legal options
// of the seat's view, the only place Chaguan talks to an LLM.
//
// The Engine decides from the seat's view alone: it sends a board summary,
// the drawn tile and the numbered legal options (placements in the tile
// phase; meeple options and "no meeple" in the meeple phase) and asks for
// {"option": N} with an optional one-line "reason" (shown to every player
// in the move's log entry: MoveReason): as structured output (a JSON
// schema whose option is one of the listed numbers) where the endpoint has
// it, else a JSON object, else plain text (format.go). It reads the answer as models write it (a code
// fence, prose or a <think> block around it, a bare number, a numeric
// string: answer.go) and refuses anything else with the reason. A refused
// answer, an unlisted option, an HTTP error or a timeout is an error, and
// the room plays the level's fallback ("normal") instead.
//
// The API key is a Key: it prints as "[redacted]", and every error Move or
// Check returns has the key's text replaced, so it cannot reach a log line,
// a view, /metrics or a stored record.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/chaguan/chaguan/rooms"
)

// Game is the only game the Engine plays.
const Game = "carcassonne"

// DefaultTimeout bounds one decision when an Endpoint sets none: a slow
// model on a long prompt takes several seconds.
const DefaultTimeout = 20 * time.Second

// DefaultMaxTokens is the max_tokens of every request when an Endpoint
// sets none: an answer is a few tokens, a sentence of prose around it a
// few dozen; a model that reasons in its content needs more (max_tokens=).
const DefaultMaxTokens = 1024

// MaxMaxTokens is the largest max_tokens a -llm flag may set.
const MaxMaxTokens = 1 << 17

// DefaultTemperature is the temperature of every request when an Endpoint
// sets none: low, for the model's best choice rather than a varied one.
const DefaultTemperature = 0.2

// MaxTemperature is the largest temperature a -llm flag may set (the
// OpenAI API's range is 0 to 2).
const MaxTemperature = 2.0

// Errors of Move and Check; the returned errors wrap them.
var (
	// ErrMalformed: the answer names no option: empty, null, or with no
	// {"option": N} and no bare number in it (parseAnswer).
	ErrMalformed = errors.New("llm: malformed answer")
	// ErrNoOption: the answer names no listed option.
	ErrNoOption = errors.New("llm: answer is not a listed option")
	// ErrEndpoint: the request failed (HTTP status, network, no choice).
	ErrEndpoint = errors.New("llm: endpoint request failed")
	// ErrView: the request is not a Carcassonne view of the seat's turn.
	ErrView = errors.New("llm: no decision to make in this view")
)

// Key is an API key. It never prints: String, GoString, Format, LogValue
// and MarshalJSON all give "[redacted]".
type Key string

const redacted = "[redacted]"

func (Key) String() string               { return redacted }
func (Key) GoString() string             { return redacted }
func (Key) Format(f fmt.State, _ rune)   { _, _ = f.Write([]byte(redacted)) }
func (Key) LogValue() slog.Value         { return slog.StringValue(redacted) }
func (Key) MarshalJSON() ([]byte, error) { return json.Marshal(redacted) }
func (k Key) scrub(s string) string      { return scrub(s, string(k)) }
func scrub(s, secret string) string {
	if len(secret) < 4 { // too short to be a key; replacing it would garble text
		return s
	}
	return strings.ReplaceAll(s, secret, redacted)
}

// Endpoint is one operator-configured OpenAI-compatible endpoint.
type Endpoint struct {
	// Name tells endpoints apart; the bot level is Level(Name).
	Name    string
	BaseURL string // e.g. https://api.openai.com/v1 (requests go to BaseURL/chat/completions)
	Model   string
	// KeyEnv names the environment variable holding the API key; "" for an
	// endpoint that needs none. The key itself is never a flag value.
	KeyEnv  string
	Timeout time.Duration // one decision; default DefaultTimeout
	// Max bounds the requests in flight to the endpoint at once, across
	// all rooms (default DefaultMax); a decision that finds them all taken
	// waits for one until its deadline, then fails with ErrBusy.
	Max int
	// MaxTokens is sent as max_tokens with every request (default
	// DefaultMaxTokens).
	MaxTokens int
	// Temperature is sent as temperature with every request, 0 to
	// MaxTemperature; nil for DefaultTemperature.
	Temperature *float64
}

// Level is the bot level of the endpoint named name: "llm" for "" or
// "llm", else "llm-<name>".
func Level(name string) string {
	if name == "" || name == "llm" {
		return "llm"
	}
	return "llm-" + name
}

// Engine is one endpoint as a rooms.Engine for Carcassonne. Its methods are
// safe for concurrent use: each call is one independent HTTP request.
type Engine struct {
	ep    Endpoint
	key   Key
	chat  openai.ChatCompletionService
	slots *slots // Endpoint.Max request slots, shared by every room
	// format is the structured output the endpoint accepts, learnt from
	// its HTTP 400 answers and shared by every room.
	format *formatMemory
	// breaker is the endpoint's circuit breaker and Retry-After wait,
	// shared by every room (breaker.go).
	breaker *breaker
	// memory holds the meeple part of each seat's tile-phase choice until
	// its meeple phase (decide.go).
	memory *turnMemory
}

var _ rooms.ReasonEngine = (*Engine)(nil)

// String describes the Engine without its key; Format and LogValue use it
// too, so no verb (%+v, %#v) prints the key field.
func (p Engine) String() string {
	return fmt.Sprintf("llm.Engine{level: %s, model: %s, base: %s}", p.Level(), p.ep.Model, p.ep.BaseURL)
}
func (p Engine) GoString() string           { return p.String() }
func (p Engine) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, p.String()) }
func (p Engine) LogValue() slog.Value       { return slog.StringValue(p.String()) }

// New returns the Engine for ep with its key (read by the caller from
// ep.KeyEnv). client may be nil (a plain http.Client; the request's
// context bounds it).
func New(ep Endpoint, key Key, client *http.Client) (*Engine, error) {
	if ep.BaseURL == "" || ep.Model == "" {
		return nil, fmt.Errorf("llm endpoint %q: a base URL and a model are required", ep.Name)
	}
	if ep.Timeout <= 0 {
		ep.Timeout = DefaultTimeout
	}
	if ep.Max <= 0 {
		ep.Max = DefaultMax
	}
	if ep.MaxTokens <= 0 {
		ep.MaxTokens = DefaultMaxTokens
	}
	temp := DefaultTemperature
	if ep.Temperature != nil {
		temp = *ep.Temperature
	}
	ep.Temperature = &temp // the Engine's own copy
	if client == nil {
		client = &http.Client{}
	}
	opts := []option.RequestOption{
		option.WithBaseURL(ep.BaseURL),
		option.WithHTTPClient(client),
		// One attempt: the room falls back at once, and retries would eat
		// the decision's deadline.
		option.WithMaxRetries(0),
	}
	if key != "" {
		opts = append(opts, option.WithAPIKey(string(key)))
	}
	// NewChatCompletionService, not openai.NewClient: the client would
	// read OPENAI_API_KEY, OPENAI_BASE_URL and the like from the process's
	// environment, and only the operator's Endpoint may configure this.
	return &Engine{ep: ep, key: key, chat: openai.NewChatCompletionService(opts...), slots: newSlots(ep.Max), format: &formatMemory{}, breaker: newBreaker(Level(ep.Name)), memory: newTurnMemory()}, nil
}

// Endpoint returns the Engine's endpoint (its key is not in it).
func (p *Engine) Endpoint() Endpoint { return p.ep }

// Level returns the Engine's bot level, Level(Endpoint().Name).
func (p Engine) Level() string { return Level(p.ep.Name) }

// EngineLevel registers p as a Carcassonne bot level falling back to
// "normal" after p's timeout.
func (p *Engine) PlayerLevel() rooms.EngineLevel {
	return rooms.EngineLevel{Engine: p, Fallback: "normal", Timeout: p.ep.Timeout}
}

// Move implements rooms.Engine for "carcassonne": one decision per turn
// (decide.go). In the tile phase one chat completion chooses a whole turn
// among the numbered options (a placement with a meeple spot or none);
// the placement is played and the meeple part remembered for the meeple
// phase of the same turn, match and seat, which is answered from memory
// without a request (or, when nothing is remembered, by a request listing
// the meeple options alone). An answer that names no listed option is
// refused and asked once more with the reason. It returns an error
// wrapping ErrView when seat has nothing to decide, ErrBusy when no
// request slot freed up in time, ErrEndpoint when a request fails,
// ErrMalformed (with the reason) or ErrNoOption when the second answer
// names no listed option either, or ctx's error. No error carries the key.
func (p *Engine) Move(ctx context.Context, req rooms.EngineRequest) (string, json.RawMessage, error) {
	mv, err := p.MoveReason(ctx, req)
	return mv.Name, mv.Args, err
}

// MoveReason implements rooms.ReasonEngine: Move, and the model's own
// short reason when its answer gave one ({"option": N, "reason": "…"}):
// one line of at most protocol.MaxBotReason characters, the key's text
// replaced; "" when it gave none or the meeple step came from memory.
func (p *Engine) MoveReason(ctx context.Context, req rooms.EngineRequest) (rooms.EngineMove, error) {
	if req.Game != Game {
		return rooms.EngineMove{}, fmt.Errorf("%w: game %q", ErrView, req.Game)
	}
	return p.decide(ctx, req)
}

// Check makes one real decision, the way a room asks for one: Move on a
// sample position (a two-seat game a few turns in, the tile phase of the
// seat to move), within the endpoint's timeout, through its request
// slots, circuit breaker and Retry-After wait. It reports the latency,
// the option the answer named and the move, the tokens used and the
// circuit's state; the error is Move's (no key). It is what POST
// /llm/test runs.
func (p *Engine) Check(ctx context.Context) (CheckResult, error) {
	req, err := sample()
	if err != nil {
		return CheckResult{Circuit: p.Circuit()}, err
	}
	ctx, cancel := context.WithTimeout(ctx, p.ep.Timeout)
	defer cancel()
	rec := &recorder{}
	ctx = context.WithValue(ctx, recorderKey{}, rec)
	t0 := time.Now()
	name, args, err := p.Move(ctx, req)
	res := CheckResult{Latency: time.Since(t0)}
	rec.fill(&res, req)
	if err == nil {
		res.Move, res.Args = name, args
	}
	res.Circuit = p.Circuit()
	return res, err
}

// complete sends one system and one user message, once one of the
// endpoint's request slots is free, and returns the first choice. It asks
// for the answer in the format the endpoint is known to accept (numbers
// are the listed options, for the JSON schema); when the endpoint answers
// HTTP 400 to a response_format, it asks again at once without it (json_schema,
// then json_object, then plain text) and remembers the one accepted.
//
// Before anything else it asks the endpoint's circuit breaker: while the
// circuit is open, or a Retry-After the endpoint sent has not passed, it
// sends nothing and returns an *UnavailableError at once (breaker.go).
// What the request teaches about the endpoint goes back to the breaker.
//
// more continues the conversation after the user message, alternately an
// assistant's answer and a user's reply (a refused answer and why: see
// Engine.ask).
func (p *Engine) complete(ctx context.Context, system, user string, numbers []int, more ...string) (answer, error) {
	t, err := p.breaker.allow()
	if err != nil {
		return answer{}, err
	}
	verdict, failure := outcomeNone, ""
	defer func() { p.breaker.done(t, verdict, failure) }()
	if err := p.slots.acquire(ctx); err != nil {
		return answer{}, err
	}
	defer p.slots.release()
	rec := recorderFrom(ctx)
	f := p.format.load()
	for {
		params := openai.ChatCompletionNewParams{
			Model:       p.ep.Model,
			Messages:    conversation(system, user, more),
			MaxTokens:   openai.Int(int64(p.ep.MaxTokens)),
			Temperature: openai.Float(*p.ep.Temperature),
		}
		if rf, ok := responseFormat(f, numbers); ok {
			params.ResponseFormat = rf
		}
		resp, err := p.chat.New(ctx, params)
		rec.sent()
		var apiErr *openai.Error
		if err != nil && f < formatText && ctx.Err() == nil && errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusBadRequest {
			p.format.refused(f)
			f++
			continue
		}
		verdict = endpointOutcome(ctx, err)
		if err != nil {
			rerr := p.requestError(ctx, err, f)
			failure = strings.TrimPrefix(rerr.msg, p.Level()+": ")
			return answer{}, rerr
		}
		if len(resp.Choices) == 0 {
			return answer{}, fmt.Errorf("%w: the response has no choice", ErrEndpoint)
		}
		c := resp.Choices[0]
		m := c.Message
		_, reasoning := m.JSON.ExtraFields["reasoning_content"]
		// The key's text goes before any parsing or quoting: an error
		// quotes only the start of an answer, and a cut key would not
		// match any more.
		a := answer{
			content:   p.key.scrub(m.Content),
			null:      !m.JSON.Content.Valid(),
			refusal:   p.key.scrub(m.Refusal),
			reasoning: reasoning,
			cutOff:    c.FinishReason == "length",
		}
		rec.got(resp.Usage, a)
		return a, nil
	}
}

// requestError turns the SDK's error into one that carries its text with
// the key replaced, and nothing else of it (its request holds the key in
// a header): it wraps ErrEndpoint, and ctx's error when ctx is done.
//
// An HTTP error names the status (as the SDK words it, "OpenAI API error:
// 429 Too Many Requests"), the endpoint's message, the Retry-After it
// asked for, and for a 400 the response_format refused last. A 429 or 503
// with a Retry-After makes the breaker hold every request until then.
func (p *Engine) requestError(ctx context.Context, err error, f format) *safeError {
	msg := err.Error()
	var apiErr *openai.Error
	var until time.Time
	if errors.As(err, &apiErr) {
		if m := strings.TrimSpace(apiErr.Message); m != "" {
			msg += ": " + quote(p.key.scrub(m)) // scrubbed before quote cuts it
		}
		if apiErr.Response != nil {
			var ra string
			if until, ra = retryAfter(apiErr.Response.Header.Get("Retry-After"), p.breaker.now()); ra != "" {
				msg += " (retry after " + ra + ")"
			}
		}
		if apiErr.StatusCode == http.StatusBadRequest {
			msg += " (sent with response_format: " + f.String() + ")"
		}
	}
	msg = p.key.scrub(msg)
	if apiErr != nil && (apiErr.StatusCode == http.StatusTooManyRequests || apiErr.StatusCode == http.StatusServiceUnavailable) && !until.IsZero() {
		p.breaker.hold(until, msg)
	}
	if cerr := ctx.Err(); cerr != nil {
		return &safeError{msg: fmt.Sprintf("%s: %s", p.Level(), msg), is: []error{ErrEndpoint, cerr}}
	}
	return &safeError{msg: fmt.Sprintf("%s: %s", p.Level(), msg), is: []error{ErrEndpoint}}
}

// retryAfter reads a Retry-After header, seconds or an HTTP date, as the
// time it names (now plus the seconds) and the text an error shows ("7s",
// or the date); zero and "" when it is absent or neither.
func retryAfter(h string, now time.Time) (time.Time, string) {
	h = strings.TrimSpace(h)
	if n, err := strconv.Atoi(h); err == nil && n >= 0 {
		if n > int(math.MaxInt64/time.Second) { // past what a Duration holds
			return now.Add(math.MaxInt64), h + "s"
		}
		d := time.Duration(n) * time.Second
		return now.Add(d), d.String()
	}
	if t, err := http.ParseTime(h); err == nil {
		return t, t.UTC().Format(time.RFC1123)
	}
	return time.Time{}, ""
}

// safe replaces the key in err's text, keeping its sentinel.
func (p *Engine) safe(err error) error {
	var is []error
	for _, s := range []error{ErrMalformed, ErrNoOption, ErrEndpoint} {
		if errors.Is(err, s) {
			is = append(is, s)
		}
	}
	return &safeError{msg: p.key.scrub(err.Error()), is: is}
}

// safeError is an error whose text is already scrubbed and which wraps
// only sentinels, never a value that could hold the key.
type safeError struct {
	msg string
	is  []error
}

func (e *safeError) Error() string   { return e.msg }
func (e *safeError) Unwrap() []error { return e.is }
