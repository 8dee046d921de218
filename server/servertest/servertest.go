// Package servertest starts a real Chaguan server on a loopback listener
// for tests: the same handler, rooms and web client as `go run .`, with
// the in-memory store (or one the test passes) and bots that move at once.
package servertest

import (
	"context"
	"log/slog"
	"net"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/web"
	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/llm"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/server"
)

// Options tunes a test server; the zero value is a sensible default.
type Options struct {
	Store    rooms.Store     // default: a fresh memstore (closed at cleanup)
	Games    *games.Registry // default: every game
	BotDelay time.Duration   // default 0 (bots move at once)
	Grace    time.Duration   // default 60 s
	// IdleUnload is how long an unwatched room stays loaded; default 30 s.
	IdleUnload time.Duration
	// WS tunes the WebSockets. Its connection caps (MaxConns,
	// MaxConnsPerIP) are off unless a test sets them: every test client
	// comes from one loopback address.
	WS    server.WSConfig
	Pprof bool // serve /debug/pprof
	// Throttle limits creates and joins per client; the zero value turns
	// it off (tests create many matches from one address).
	Throttle server.Throttle
	// TrustedProxies are the ranges whose X-Forwarded-For names the client
	// (server.Config.TrustedProxies); nil trusts none.
	TrustedProxies []*net.IPNet
	// MaxRooms caps live rooms (rooms.Config.MaxRooms); 0 for the default.
	MaxRooms int
	// Players are extra bot levels (rooms.Config.Players), e.g. an LLM's.
	Players map[string]map[string]rooms.EngineLevel
	// Replays caps the replays built at once (rooms.Config.Replays); nil
	// for the default.
	Replays *rooms.ReplayGate
	// Own lets players bring their own LLM endpoint (rooms.Config.Own and
	// server.Config.Own); nil allows none.
	Own *llm.Own
	// TryThrottle limits POST /llm/try (server.Config.TryThrottle).
	TryThrottle server.Throttle
	// Logger receives the rooms' and the server's log; nil discards it.
	Logger *slog.Logger
}

// Server is a running test server.
type Server struct {
	URL     string // http://127.0.0.1:port
	Rooms   *rooms.Manager
	Store   rooms.Store
	Handler *server.Server
}

// Start serves until the test ends.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	if o.Store == nil {
		st := memstore.New(memstore.Options{})
		t.Cleanup(func() { _ = st.Close() })
		o.Store = st
	}
	if o.Games == nil {
		o.Games = all.Registry()
	}
	delay := o.BotDelay
	if delay == 0 {
		delay = rooms.ZeroBotDelay
	}
	metrics := server.NewMetricsFor()
	if o.Throttle == (server.Throttle{}) {
		o.Throttle.Rate = -1
	}
	o.WS.MaxConns = capOrOff(o.WS.MaxConns)
	o.WS.MaxConnsPerIP = capOrOff(o.WS.MaxConnsPerIP)
	rcfg := rooms.Config{Store: o.Store, Games: o.Games, BotDelay: delay, Grace: o.Grace, IdleUnload: o.IdleUnload, MaxRooms: o.MaxRooms, Metrics: metrics.Metrics, Engines: o.Players, Replays: o.Replays, Logger: o.Logger}
	if o.Own != nil {
		rcfg.Own = o.Own
	}
	mgr := rooms.New(rcfg)
	h := server.New(server.Config{Rooms: mgr, Assets: web.Assets(), Registry: metrics.Registry, Metrics: metrics.Metrics, WS: o.WS, Pprof: o.Pprof, Throttle: o.Throttle, TrustedProxies: o.TrustedProxies,
		Own: o.Own, TryThrottle: o.TryThrottle, Logger: o.Logger})
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		h.Shutdown(ctx)
		ts.Close()
		mgr.Close()
	})
	return &Server{URL: ts.URL, Rooms: mgr, Store: o.Store, Handler: h}
}

// capOrOff turns an unset (zero) connection cap off.
func capOrOff(n int) int {
	if n == 0 {
		return -1
	}
	return n
}
