package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/llm"
)

// LLMChecker is one configured LLM endpoint as POST /llm/test sees it
// (rooms/llm.Engine): Check makes one real decision on a sample position
// and reports the latency, the option chosen, the tokens used and the
// circuit's state. Its error must not carry the endpoint's key; its text
// goes to the server log, and the caller gets only its kind
// (checkFailure).
type LLMChecker interface {
	Check(ctx context.Context) (llm.CheckResult, error)
}

// LLMTestConfig configures POST /llm/test, the operator's check of the
// configured LLM endpoints: one real decision each.
type LLMTestConfig struct {
	// Endpoints by name: the bot level ("llm", "llm-deepseek") and the
	// endpoint's own name both find it.
	Endpoints map[string]LLMChecker
	// Token, when set, lets a request with "Authorization: Bearer <Token>"
	// in from anywhere; without it only loopback may call.
	Token string
}

// llmTestTimeout bounds one check; the checker's own timeout is usually
// shorter.
const llmTestTimeout = 30 * time.Second

// checkResult is the body of POST /llm/test (an operator's endpoint, by
// name) and of POST /llm/try (a player's own, without its name and
// circuit). Error never holds the endpoint's URL, host or key
// (checkFailure, ownFailure); nothing else comes from the endpoint's text
// (Choice is the prompt's line for the option).
type checkResult struct {
	Endpoint  string `json:"endpoint,omitempty"`
	OK        bool   `json:"ok"`
	LatencyMs int64  `json:"latencyMs"`
	// Option is the number the answer named (listed or not), Choice that
	// option as the prompt listed it, Move the move it stands for.
	Option *int       `json:"option,omitempty"`
	Choice string     `json:"choice,omitempty"`
	Move   *checkMove `json:"move,omitempty"`
	// Usage is the tokens the endpoint reported, summed over the
	// decision's completions; absent when it reported none.
	Usage *llm.Usage `json:"usage,omitempty"`
	// Requests is how many chat completion requests the decision sent
	// (0 when the circuit or a Retry-After held it).
	Requests int    `json:"requests"`
	Circuit  string `json:"circuit,omitempty"` // closed, open or half-open, after the decision
	Error    string `json:"error,omitempty"`
}

// checkMove is the move of a successful decision.
type checkMove struct {
	Type string          `json:"type"`
	Args json.RawMessage `json:"args"`
}

// newCheckResult is the body for a check's result; err is the check's
// error, told by failure (which says it without URL, host or key). It
// returns the body, its HTTP status and the error's own text for the log.
func newCheckResult(r llm.CheckResult, err error, failure func(error) string) (res checkResult, status int, detail string) {
	res = checkResult{OK: err == nil, LatencyMs: r.Latency.Milliseconds(),
		Option: r.Option, Choice: r.Choice, Usage: r.Usage, Requests: r.Requests}
	if err == nil && r.Move != "" {
		res.Move = &checkMove{Type: r.Move, Args: r.Args}
	}
	if err != nil {
		res.Error = failure(err)
		return res, http.StatusBadGateway, err.Error()
	}
	return res, http.StatusOK, ""
}

// llmTest checks one endpoint: {"endpoint": "llm"} in the body (or
// ?endpoint=; default "llm"). Operator only: 403 unless operator; 404 for
// an unknown endpoint; 200 with ok true, or 502 with what failed.
func (s *Server) llmTest(c echo.Context) error {
	if !s.isOperator(c) {
		return s.fail(c, forbidden("POST /llm/test is for the operator: call it from loopback or with the operator token"))
	}
	var body struct {
		Endpoint string `json:"endpoint"`
	}
	if c.Request().ContentLength != 0 {
		if err := c.Bind(&body); err != nil {
			return s.fail(c, badRequest("bad body: want {\"endpoint\": NAME}"))
		}
	}
	name := body.Endpoint
	if name == "" {
		name = c.QueryParam("endpoint")
	}
	if name == "" {
		name = "llm"
	}
	ck, ok := s.cfg.LLMTest.Endpoints[name]
	if !ok {
		return s.fail(c, notFound("no LLM endpoint %q is configured", name))
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), llmTestTimeout)
	defer cancel()
	r, err := ck.Check(ctx)
	// detail is the checker's own text: no key, but maybe the URL, which the log may hold.
	res, status, detail := newCheckResult(r, err, func(err error) string { return checkFailure(name, err) })
	res.Endpoint, res.Circuit = name, r.Circuit
	var tokens int64
	if r.Usage != nil {
		tokens = r.Usage.Total
	}
	s.log.Info("llm test", "endpoint", name, "client", c.RealIP(), "ok", res.OK, "latency_ms", res.LatencyMs,
		"requests", r.Requests, "total_tokens", tokens, "circuit", r.Circuit, "err", detail)
	return c.JSON(status, res)
}

// apiStatus finds the HTTP status in the OpenAI SDK's error text ("OpenAI
// API error: 401 Unauthorized").
var apiStatus = regexp.MustCompile(`API error: ([1-5][0-9][0-9])\b`)

// checkFailure is what the caller of POST /llm/test learns of a failed
// check: the endpoint's name and the kind of failure, with the HTTP status
// when the endpoint answered one. The checker's error text is not passed
// on: the HTTP client's errors carry the endpoint's URL and address
// (`Post "https://host/v1/chat/completions": dial tcp 10.0.0.5:443: ...`),
// a TLS error its host name, an endpoint's error body a masked key. The
// full text goes to the server log.
//
// The adapter's own refusals come first: their text quotes the model's
// answer or the endpoint's last failure, which the string matches below
// must not read.
func checkFailure(name string, err error) string {
	msg := err.Error()
	var what string
	var un *llm.UnavailableError
	switch m := apiStatus.FindStringSubmatch(msg); {
	case errors.As(err, &un) && un.RetryAfter:
		what = fmt.Sprintf("the endpoint asked to wait (Retry-After): nothing sent for %s more", roundWait(un.Left))
	case errors.As(err, &un) && un.Left > 0:
		what = fmt.Sprintf("circuit open after %d endpoint failures in a row: nothing sent, next probe in %s", un.Failures, roundWait(un.Left))
	case errors.As(err, &un):
		what = fmt.Sprintf("circuit half-open after %d endpoint failures in a row: a probe request is in flight", un.Failures)
	case errors.Is(err, llm.ErrMalformed):
		what = "the answer names no option: " + malformedReason(msg)
	case errors.Is(err, llm.ErrNoOption):
		what = "the answer is not a listed option"
	case errors.Is(err, llm.ErrView):
		what = "no sample decision to make (the server log has the details)"
	case m != nil:
		n, _ := strconv.Atoi(m[1])
		what = strings.TrimSpace(fmt.Sprintf("the endpoint answered HTTP %d %s", n, http.StatusText(n)))
	case errors.Is(err, context.DeadlineExceeded),
		strings.Contains(msg, "Client.Timeout"), strings.Contains(msg, "i/o timeout"), strings.Contains(msg, "deadline exceeded"):
		what = "timed out"
	case errors.Is(err, context.Canceled):
		what = "cancelled"
	case errors.Is(err, rooms.ErrEngineBusy):
		what = "busy: every request slot stayed taken"
	case strings.Contains(msg, "connection refused"):
		what = "connection refused"
	case strings.Contains(msg, "no such host"):
		what = "the host name does not resolve"
	case strings.Contains(msg, "tls:"), strings.Contains(msg, "x509:"):
		what = "the TLS handshake failed"
	case strings.Contains(msg, "connection reset"), strings.Contains(msg, "EOF"):
		what = "the connection was closed"
	case strings.Contains(msg, "no choice"):
		what = "the answer has no choice"
	default:
		what = "the request failed (the server log has the details)"
	}
	return name + ": " + what
}

// roundWait shows a wait in whole seconds (at least one).
func roundWait(d time.Duration) time.Duration {
	return max(d.Round(time.Second), time.Second)
}

// malformedReason names why an answer was refused, in the adapter's own
// words only (its error quotes the answer, which is not passed on).
func malformedReason(msg string) string {
	var why string
	switch {
	case strings.Contains(msg, "the model refused"):
		why = "the model refused"
	case strings.Contains(msg, "only reasoning"):
		why = "the answer is only reasoning"
	case strings.Contains(msg, "no content (null)"):
		why = "the answer has no content"
	case strings.Contains(msg, "the answer is empty"):
		why = "the answer is empty"
	case strings.Contains(msg, "not a whole number"):
		why = "option is not a whole number"
	default:
		why = `no {"option": N} and no bare number`
	}
	if strings.Contains(msg, "(cut off at max_tokens)") {
		why += " (cut off at max_tokens: raise max_tokens=)"
	}
	return why
}

// isOperator: the request carries the operator token, or its client
// address (clientip.go) is loopback. Headers grant nothing: with no
// trusted proxy the client is the TCP peer, and behind a trusted proxy it
// is the client the proxy forwarded for, who is not loopback unless the
// proxy saw loopback. A loopback peer that is not a trusted proxy but
// forwards for someone (any forwarding header, even an empty line) is an
// undeclared local proxy: refused, since every caller would look like
// loopback through it.
func (s *Server) isOperator(c echo.Context) bool {
	r := c.Request()
	if tok := s.cfg.LLMTest.Token; tok != "" {
		if got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			a, b := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(tok))
			if subtle.ConstantTimeCompare(a[:], b[:]) == 1 {
				return true
			}
		}
	}
	ip := net.ParseIP(c.RealIP())
	if ip == nil || !ip.IsLoopback() {
		return false
	}
	return s.trustedPeer(r) || !forwarded(r.Header)
}

func forbidden(msg string) error {
	return &rooms.Error{Code: protocol.CodeForbidden, Message: msg}
}

func notFound(format string, a ...any) error {
	return &rooms.Error{Code: protocol.CodeNotFound, Message: fmt.Sprintf(format, a...)}
}
