package llm

// The endpoint as a service: a circuit breaker and the Retry-After wait,
// both asked by complete before it sends anything, and what POST
// /llm/test learns from one real decision (Check).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"

	"github.com/chaguan/chaguan/games/carcassonne"
	"github.com/chaguan/chaguan/rooms"
)

// The circuit breaker of an endpoint (one per Engine, shared by every
// room that seats its level).
const (
	// BreakerFailures endpoint failures in a row open the circuit.
	BreakerFailures = 5
	// BreakerCoolDown is how long an open circuit sends nothing before
	// one probe request goes through; it doubles each time the probe
	// fails, up to BreakerMaxCoolDown, and starts again from here once a
	// probe succeeds.
	BreakerCoolDown    = 30 * time.Second
	BreakerMaxCoolDown = 5 * time.Minute
	// MaxRetryAfter bounds the wait an endpoint's Retry-After may ask
	// for: a longer one (or a date further away) is cut to it.
	MaxRetryAfter = 10 * time.Minute
)

// Errors of a decision that sent nothing because the endpoint is
// unavailable; the returned *UnavailableError wraps one of them.
var (
	// ErrCircuitOpen: the endpoint failed BreakerFailures times in a row
	// and its cool-down has not ended, or a probe request is in flight.
	ErrCircuitOpen = errors.New("llm: circuit open")
	// ErrRetryAfter: the endpoint answered 429 or 503 with a Retry-After
	// that has not passed yet.
	ErrRetryAfter = errors.New("llm: waiting as the endpoint asked (Retry-After)")
)

// UnavailableError is the error of a decision that sent nothing to the
// endpoint: its circuit is open, or it asked to wait (Retry-After). It
// fails at once, so the room plays its fallback at once. Its text
// carries the endpoint's last failure with the key replaced.
type UnavailableError struct {
	Level string
	// RetryAfter: waiting for the endpoint's Retry-After (wraps
	// ErrRetryAfter); else the circuit is open (wraps ErrCircuitOpen).
	RetryAfter bool
	// Left is the time until the wait ends or the next probe may go;
	// 0 while a probe request is in flight.
	Left time.Duration
	// Until is when the Retry-After wait ends (RetryAfter only).
	Until time.Time
	// Failures is how many endpoint failures in a row opened the circuit.
	Failures int
	// Cause is the endpoint's last failure, as the decision that got it
	// reported it (no key).
	Cause string
}

func (e *UnavailableError) Error() string {
	switch {
	case e.RetryAfter:
		return fmt.Sprintf("%s: the endpoint asked to wait (Retry-After): nothing sent until %s (%s left); it answered: %s",
			e.Level, e.Until.UTC().Format(time.RFC1123), roundLeft(e.Left), e.Cause)
	case e.Left == 0:
		return fmt.Sprintf("%s: circuit half-open after %d endpoint failures in a row: nothing sent while a probe request is in flight; last failure: %s",
			e.Level, e.Failures, e.Cause)
	}
	return fmt.Sprintf("%s: circuit open after %d endpoint failures in a row: nothing sent, next probe in %s; last failure: %s",
		e.Level, e.Failures, roundLeft(e.Left), e.Cause)
}

func (e *UnavailableError) Unwrap() error {
	if e.RetryAfter {
		return ErrRetryAfter
	}
	return ErrCircuitOpen
}

// roundLeft shows a wait in whole seconds, or milliseconds under one.
func roundLeft(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(time.Second)
	}
	return d.Round(time.Millisecond)
}

// circuit is the state of a breaker.
type circuit int

const (
	circuitClosed   circuit = iota // requests go through
	circuitOpen                    // nothing is sent until the cool-down ends
	circuitHalfOpen                // one probe request is let through
)

func (c circuit) String() string {
	switch c {
	case circuitOpen:
		return "open"
	case circuitHalfOpen:
		return "half-open"
	}
	return "closed"
}

// outcome is what one request taught the breaker about the endpoint.
type outcome int

const (
	// outcomeNone: nothing (no slot, the decision was cancelled, a panic).
	outcomeNone outcome = iota
	// outcomeUp: the endpoint answered: a 200, whatever the model wrote
	// (a malformed answer is the model's, not the endpoint's, and failing
	// fast would not fix it), or a 4xx other than 408 and 429 (a bad key,
	// an unknown model: the endpoint is up and answers at once).
	outcomeUp
	// outcomeDown: a 5xx, 408 or 429, a network error, a timeout or a
	// response that is not a completion.
	outcomeDown
)

// endpointOutcome classifies the result of one chat completion request
// sent with ctx.
func endpointOutcome(ctx context.Context, err error) outcome {
	if err == nil {
		return outcomeUp
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return outcomeNone // the server stopping says nothing of the endpoint
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		if s := apiErr.StatusCode; s >= 500 || s == 429 || s == 408 {
			return outcomeDown
		}
		return outcomeUp
	}
	return outcomeDown
}

// breaker is an endpoint's circuit breaker and Retry-After wait. Closed,
// it counts endpoint failures in a row (a request the endpoint answered
// resets the count); BreakerFailures of them open it. Open, it lets
// nothing through until the cool-down ends; then it is half-open and lets
// exactly one probe request through: its success closes the circuit, its
// failure opens it again for twice the cool-down (at most
// BreakerMaxCoolDown). A request that ends without a verdict (outcomeNone)
// lets the next decision probe instead. Results of requests let through
// before the last change of state are ignored (generations). Apart from
// the circuit, a 429 or 503 with Retry-After holds every request until
// then. Every change of state is logged once.
type breaker struct {
	level string
	now   func() time.Time // the clock; tests set their own
	log   atomic.Pointer[slog.Logger]

	mu        sync.Mutex
	state     circuit
	gen       uint64 // bumped at every change of state
	failures  int    // endpoint failures in a row
	lastErr   string // the last failure's text, without the level
	coolDown  time.Duration
	probeAt   time.Time // open: when the probe may go
	probing   bool      // half-open: the probe is in flight
	waitUntil time.Time // Retry-After: nothing is sent before it
	waitMsg   string    // the answer that asked for the wait
}

func newBreaker(level string) *breaker {
	return &breaker{level: level, now: time.Now}
}

// ticket is one request let through: the generation it belongs to, and
// whether it is the half-open probe.
type ticket struct {
	gen   uint64
	probe bool
}

// allow lets a request through or says why not with an
// *UnavailableError; each ticket it gives must be handed back to done.
func (b *breaker) allow() (ticket, error) {
	var logState func()
	defer func() {
		if logState != nil {
			logState()
		}
	}()
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	if now.Before(b.waitUntil) {
		return ticket{}, &UnavailableError{Level: b.level, RetryAfter: true, Left: b.waitUntil.Sub(now), Until: b.waitUntil, Cause: b.waitMsg}
	}
	switch b.state {
	case circuitOpen:
		if now.Before(b.probeAt) {
			return ticket{}, &UnavailableError{Level: b.level, Left: b.probeAt.Sub(now), Failures: b.failures, Cause: b.lastErr}
		}
		b.state, b.probing = circuitHalfOpen, true
		b.gen++
		logState = b.logger(slog.LevelInfo, "llm endpoint circuit half-open: one probe request goes through", "failures", b.failures)
		return ticket{gen: b.gen, probe: true}, nil
	case circuitHalfOpen:
		if b.probing {
			return ticket{}, &UnavailableError{Level: b.level, Failures: b.failures, Cause: b.lastErr}
		}
		b.probing = true
		return ticket{gen: b.gen, probe: true}, nil
	}
	return ticket{gen: b.gen}, nil
}

// done hands back a ticket with what its request taught (msg: the
// failure's text, for outcomeDown).
func (b *breaker) done(t ticket, o outcome, msg string) {
	var logState func()
	defer func() {
		if logState != nil {
			logState()
		}
	}()
	b.mu.Lock()
	defer b.mu.Unlock()
	if t.gen != b.gen {
		return // let through before the last change of state
	}
	if o == outcomeNone {
		if t.probe && b.state == circuitHalfOpen {
			b.probing = false // the next decision probes
		}
		return
	}
	if o == outcomeUp {
		b.failures = 0
		if b.state != circuitClosed {
			b.state, b.probing, b.coolDown = circuitClosed, false, 0
			b.gen++
			logState = b.logger(slog.LevelInfo, "llm endpoint circuit closed: the probe request succeeded")
		}
		return
	}
	b.failures++
	b.lastErr = msg
	switch {
	case b.state == circuitHalfOpen:
		b.coolDown = min(2*b.coolDown, BreakerMaxCoolDown)
		b.trip()
		logState = b.logger(slog.LevelWarn, "llm endpoint circuit open again: the probe request failed; decisions fall back at once",
			"failures", b.failures, "cool_down", b.coolDown, "err", msg)
	case b.failures >= BreakerFailures:
		b.coolDown = BreakerCoolDown
		b.trip()
		logState = b.logger(slog.LevelWarn, "llm endpoint circuit open: decisions fall back at once",
			"failures", b.failures, "cool_down", b.coolDown, "err", msg)
	}
}

// trip opens the circuit for the cool-down; b.mu is held.
func (b *breaker) trip() {
	b.state, b.probing = circuitOpen, false
	b.probeAt = b.now().Add(b.coolDown)
	b.gen++
}

// hold sends nothing until until (at most MaxRetryAfter from now): the
// endpoint's Retry-After, msg its answer.
func (b *breaker) hold(until time.Time, msg string) {
	var logState func()
	defer func() {
		if logState != nil {
			logState()
		}
	}()
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	until = minTime(until, now.Add(MaxRetryAfter))
	if !until.After(b.waitUntil) || !until.After(now) {
		return
	}
	if !now.Before(b.waitUntil) { // a new wait, not a longer one
		logState = b.logger(slog.LevelWarn, "llm endpoint asked to wait (Retry-After): decisions fall back at once until then",
			"until", until.UTC().Format(time.RFC3339), "wait", until.Sub(now).Round(time.Second), "err", msg)
	}
	b.waitUntil, b.waitMsg = until, msg
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// logger returns the log call of a change of state, made after b.mu is
// released; the texts in args are already free of the key.
func (b *breaker) logger(lvl slog.Level, msg string, args ...any) func() {
	l := b.log.Load()
	if l == nil {
		l = slog.Default()
	}
	args = append([]any{"level", b.level}, args...)
	return func() { l.Log(context.Background(), lvl, msg, args...) }
}

// circuit reports the breaker's state: closed, open or half-open (open
// once its cool-down ended, until a decision probes).
func (b *breaker) circuit() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state.String()
}

// SetLogger sets where the Engine logs the changes of its circuit and
// Retry-After waits (slog.Default() until it is called).
func (p *Engine) SetLogger(l *slog.Logger) { p.breaker.log.Store(l) }

// Circuit reports the state of the endpoint's circuit breaker: "closed",
// "open" or "half-open".
func (p *Engine) Circuit() string { return p.breaker.circuit() }

// CheckResult is what Check learns from its one decision.
type CheckResult struct {
	Latency time.Duration
	// Option is the number the (last) answer named, listed or not; nil
	// when it named none or no answer came.
	Option *int
	// Choice is that option as the prompt listed it ("" when unlisted).
	Choice string
	// Move and Args are the move the decision made (Check succeeded).
	Move string
	Args json.RawMessage
	// Usage is the tokens of every completion of the decision, as the
	// endpoint reported them; nil when it reported none.
	Usage *Usage
	// Requests is how many chat completion requests the decision sent.
	Requests int
	// Circuit is the endpoint's circuit breaker state after the decision.
	Circuit string
}

// Usage counts tokens, summed over a decision's completions.
type Usage struct {
	Prompt     int64 `json:"promptTokens"`
	Completion int64 `json:"completionTokens"`
	Total      int64 `json:"totalTokens"`
}

// recorder collects what the completions of one decision sent and got,
// for Check; complete fills the one in its context, if any.
type recorder struct {
	mu       sync.Mutex
	requests int
	usage    *Usage
	last     *answer // the last answer
}

type recorderKey struct{}

func recorderFrom(ctx context.Context) *recorder {
	r, _ := ctx.Value(recorderKey{}).(*recorder)
	return r
}

// sent counts one request.
func (r *recorder) sent() {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.requests++
	r.mu.Unlock()
}

// got records a completion and its answer.
func (r *recorder) got(u openai.CompletionUsage, a answer) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if u.JSON.PromptTokens.Valid() || u.JSON.CompletionTokens.Valid() || u.JSON.TotalTokens.Valid() {
		if r.usage == nil {
			r.usage = &Usage{}
		}
		r.usage.Prompt += u.PromptTokens
		r.usage.Completion += u.CompletionTokens
		r.usage.Total += u.TotalTokens
	}
	r.last = &a
}

// fill copies what r saw into res: the requests, the tokens and the
// option the last answer named, described as the prompt of req lists it.
func (r *recorder) fill(res *CheckResult, req rooms.EngineRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res.Requests, res.Usage = r.requests, r.usage
	if r.last == nil {
		return
	}
	n, err := r.last.choice()
	if err != nil {
		return
	}
	res.Option = &n
	if pr, err := buildPrompt(req.View, req.Seat); err == nil {
		if o, ok := pr.option(n); ok {
			res.Choice = o.text
		}
	}
}

// The sample position of Check: a two-seat game dealt with a fixed
// shuffle, the normal bot playing both seats for sampleTurns turns, and
// then the view of the seat to place the next tile.
// sampleMatch is its match id, which no real match has (the Engine
// remembers a turn's meeple part per match and seat).
const (
	sampleDeal  = 20240601
	sampleTurns = 4
	sampleMatch = "(llm test)"
)

var sample = sync.OnceValues(buildSample)

func buildSample() (rooms.EngineRequest, error) {
	st, err := carcassonne.Game.Setup(2, nil, sampleDeal)
	if err != nil {
		return rooms.EngineRequest{}, err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var stateID int64
	for range 4 * sampleTurns { // at most two moves a turn; the loop ends well before
		b, err := st.AppendView(nil, 0)
		if err != nil {
			return rooms.EngineRequest{}, err
		}
		var v carcassonne.View
		if err := json.Unmarshal(b, &v); err != nil {
			return rooms.EngineRequest{}, err
		}
		if v.Phase == carcassonne.PhaseOver {
			break
		}
		if v.Phase == carcassonne.PhaseTile && v.Turn > sampleTurns {
			view, err := st.AppendView(nil, v.Current)
			if err != nil {
				return rooms.EngineRequest{}, err
			}
			return rooms.EngineRequest{Game: Game, MatchID: sampleMatch, Seat: v.Current, Version: stateID, View: view}, nil
		}
		name, args, err := st.Bot(carcassonne.LevelNormal, v.Current, rng)
		if err != nil {
			return rooms.EngineRequest{}, err
		}
		if st, err = st.Apply(v.Current, name, args); err != nil {
			return rooms.EngineRequest{}, err
		}
		stateID++
	}
	return rooms.EngineRequest{}, fmt.Errorf("%w: the sample game has no tile to place after %d turns", ErrView, sampleTurns)
}
