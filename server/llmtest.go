package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
)

// LLMChecker is one configured LLM endpoint as POST /llm/test sees it
// (rooms/llm.Player): Check sends a tiny prompt and returns the latency.
// Its error must not carry the endpoint's key.
type LLMChecker interface {
	Check(ctx context.Context) (time.Duration, error)
}

// LLMTestConfig configures POST /llm/test, the operator's connectivity
// check of the configured LLM endpoints.
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

// llmTestResult is the body of POST /llm/test.
type llmTestResult struct {
	Endpoint  string `json:"endpoint"`
	OK        bool   `json:"ok"`
	LatencyMs int64  `json:"latencyMs"`
	Error     string `json:"error,omitempty"`
}

// llmTest checks one endpoint: {"endpoint": "llm"} in the body (or
// ?endpoint=; default "llm"). Operator only: 403 unless operator; 404 for
// an unknown endpoint; 200 with ok true, or 502 with the endpoint's error.
func (s *Server) llmTest(c echo.Context) error {
	if !s.isOperator(c.Request()) {
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
	d, err := ck.Check(ctx)
	res := llmTestResult{Endpoint: name, OK: err == nil, LatencyMs: d.Milliseconds()}
	status := http.StatusOK
	if err != nil {
		res.Error, status = err.Error(), http.StatusBadGateway
	}
	s.log.Info("llm test", "endpoint", name, "ok", res.OK, "latency_ms", res.LatencyMs, "err", res.Error)
	return c.JSON(status, res)
}

// isOperator: the request carries the operator token, or comes straight
// from loopback. A request a proxy forwarded (X-Forwarded-For, Forwarded,
// X-Real-IP) is not loopback even when the proxy runs on this host.
func (s *Server) isOperator(r *http.Request) bool {
	if tok := s.cfg.LLMTest.Token; tok != "" {
		if got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			a, b := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(tok))
			if subtle.ConstantTimeCompare(a[:], b[:]) == 1 {
				return true
			}
		}
	}
	for _, h := range []string{"X-Forwarded-For", "Forwarded", "X-Real-IP"} {
		if r.Header.Get(h) != "" {
			return false
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func forbidden(msg string) error {
	return &rooms.Error{Code: protocol.CodeForbidden, Message: msg}
}

func notFound(format string, a ...any) error {
	return &rooms.Error{Code: protocol.CodeNotFound, Message: fmt.Sprintf(format, a...)}
}
