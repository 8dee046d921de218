package server

import (
	"context"
	"errors"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/llm"
)

// Players' own LLM endpoints (docs/llm.md, "Your own endpoint"): with
// Config.Own set, a create request may carry {"llm": {name, baseURL,
// model, key}} for the seats it gives the level llm-own, and POST /llm/try
// tests such a configuration with one real decision. The key goes to
// llm.Own's memory and nowhere else: no response, error or log line here
// holds it, nor the URL (an error names the field, never its value).

// errNoOwn is the answer when the server does not allow own endpoints.
const errNoOwn = "llm: this server does not let players bring their own LLM (the operator starts it with -llm-own)"

// ownConfig turns the wire form into llm.OwnConfig.
func ownConfig(o protocol.OwnLLM) llm.OwnConfig {
	return llm.OwnConfig{Name: o.Name, BaseURL: strings.TrimSpace(o.BaseURL), Model: strings.TrimSpace(o.Model), Key: llm.Key(strings.TrimSpace(o.Key))}
}

// ownEndpoint readies a create request's own endpoint: nil for none;
// bad_request when the server allows none or the configuration is bad.
func (s *Server) ownEndpoint(c echo.Context, o *protocol.OwnLLM) (rooms.OwnBinding, error) {
	if o == nil {
		return nil, nil
	}
	if s.cfg.Own == nil {
		return nil, badRequest(errNoOwn)
	}
	if !s.cfg.Own.Plays(c.Param("name")) {
		return nil, badRequest("llm: only carcassonne can seat your own LLM")
	}
	b, err := s.cfg.Own.Prepare(ownConfig(*o), clientKey(c.RealIP()))
	if errors.Is(err, llm.ErrTooManyOwn) {
		return nil, &rooms.Error{Code: protocol.CodeRateLimited, Message: err.Error()}
	}
	if err != nil {
		return nil, badRequest("%s", err.Error()) // names the field, never its value
	}
	return b, nil
}

// tryThrottle is POST /llm/try's limit per client address: each try makes
// a real request (which the player pays for) from this server.
func tryThrottle(t Throttle) Throttle {
	if t.Rate == 0 {
		t.Rate = 1.0 / 6
	}
	if t.Burst <= 0 {
		t.Burst = 3
	}
	return t
}

// llmTry tests a player's own endpoint: the configuration in the body
// (protocol.OwnLLM), one real decision on the sample position POST
// /llm/test uses. 403 when the server allows no own endpoints, 429 past
// the per-address limit, 400 for a bad configuration, 200 with ok true,
// or 502 with what failed.
func (s *Server) llmTry(c echo.Context) error {
	if s.cfg.Own == nil {
		return s.fail(c, forbidden(errNoOwn))
	}
	client := clientKey(c.RealIP())
	if !s.tryLimiter.allow(client) {
		return s.fail(c, &rooms.Error{Code: protocol.CodeRateLimited, Message: "too many connection tests from your address; wait a few seconds and try again"})
	}
	var body protocol.OwnLLM
	if err := bind(c, &body); err != nil {
		return s.fail(c, badRequest("bad body: want {\"name\", \"baseURL\", \"model\", \"key\"}"))
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), llmTestTimeout)
	defer cancel()
	r, err := s.cfg.Own.Try(ctx, ownConfig(body), client)
	if bad := (*llm.ConfigError)(nil); errors.As(err, &bad) {
		return s.fail(c, badRequest("%s", bad.Error()))
	}
	// detail has the URL, host and key replaced (llm.Own).
	res, status, detail := newCheckResult(r, err, ownFailure)
	var tokens int64
	if r.Usage != nil {
		tokens = r.Usage.Total
	}
	s.log.Info("llm try", "client", c.RealIP(), "ok", res.OK, "latency_ms", res.LatencyMs,
		"requests", r.Requests, "total_tokens", tokens, "err", detail)
	return c.JSON(status, res)
}

// ownFailure is what the player learns of a failed try: checkFailure's
// kinds, and the Guard's refusal in plain words.
func ownFailure(err error) string {
	if strings.Contains(err.Error(), "address not allowed") {
		return "your endpoint: its address is not allowed (this server reaches only public addresses, not loopback, private or link-local ones)"
	}
	if errors.Is(err, rooms.ErrEngineBusy) {
		return "your endpoint: busy: your address already has requests in flight; try again in a moment"
	}
	return checkFailure("your endpoint", err)
}
