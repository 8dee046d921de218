// Package server is Chaguan's edge: the lobby REST API (boardgame.io's
// routes plus extensions), the WebSocket protocol, /healthz, /metrics and
// the embedded web client, all on one Echo instance. Handlers stay thin:
// bind, validate, call rooms, map the error.
package server

import (
	"context"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/llm"
)

// Config wires a Server.
type Config struct {
	Rooms *rooms.Manager
	// Assets is the web client's file tree (index.html at its root); nil
	// serves no web client.
	Assets fs.FS
	// AllowedOrigins lists extra origins (scheme://host:port) that may open
	// WebSockets; the server's own origin is always allowed.
	AllowedOrigins []string
	Logger         *slog.Logger
	// Registry is served at /metrics; nil makes a fresh one.
	Registry *prometheus.Registry
	// Metrics must be the same value handed to rooms.Config.Metrics, so
	// rooms and server report into one registry; nil makes one on Registry.
	Metrics *Metrics
	// Pprof mounts net/http/pprof under /debug/pprof, and POST /debug/gc,
	// which runs a garbage collection.
	Pprof bool
	// WS tunes the WebSocket timings; zero values take the defaults.
	WS WSConfig
	// LLMTest configures POST /llm/test (llmtest.go).
	LLMTest LLMTestConfig
	// Own, when set, lets a create request bring the player's own LLM
	// endpoint for the level llm-own, and serves POST /llm/try (ownllm.go);
	// it must be the rooms.Config.Own of Rooms. Nil allows neither.
	Own *llm.Own
	// TryThrottle limits POST /llm/try per client address (default one
	// every 6 s, 3 at once).
	TryThrottle Throttle
	// Throttle limits creates and joins per client address (throttle.go).
	Throttle Throttle
	// TrustedProxies are the address ranges of the reverse proxies in
	// front of the server (-trusted-proxies). A request whose TCP peer is
	// inside one has its client read from X-Forwarded-For; otherwise the
	// client is the peer, whatever the headers say. Empty trusts none
	// (clientip.go).
	TrustedProxies []*net.IPNet
}

// Server is the HTTP handler. Create it with New.
type Server struct {
	cfg     Config
	echo    *echo.Echo
	metrics *Metrics
	log     *slog.Logger

	mu       sync.Mutex
	conns    map[*conn]struct{} // live WebSockets, for draining; guarded by mu
	perIP    map[string]int     // live and upgrading WebSockets per client key; guarded by mu
	admitted int                // live and upgrading WebSockets; guarded by mu
	closing  bool               // guarded by mu
	stopPing chan struct{}      // closed by Shutdown
	workers  *workers           // goroutines for connections' writes and reads
	limiter  *clientLimiter     // creates and joins per client address
	// tryLimiter bounds POST /llm/try per client address (ownllm.go).
	tryLimiter *clientLimiter
}

// New builds the server and its routes.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Registry == nil {
		cfg.Registry = prometheus.NewRegistry()
	}
	cfg.WS = cfg.WS.withDefaults()
	s := &Server{cfg: cfg, echo: echo.New(), log: cfg.Logger, conns: map[*conn]struct{}{}, perIP: map[string]int{}, stopPing: make(chan struct{})}
	s.workers = newWorkers(s.stopPing, s.log)
	s.limiter = newClientLimiter(cfg.Throttle)
	s.tryLimiter = newClientLimiter(tryThrottle(cfg.TryThrottle))
	if cfg.Metrics == nil {
		cfg.Metrics = NewMetrics(cfg.Registry)
	}
	s.metrics = cfg.Metrics
	e := s.echo
	e.HideBanner, e.HidePort = true, true
	e.IPExtractor = ipExtractor(cfg.TrustedProxies) // c.RealIP() is the client address everywhere
	e.HTTPErrorHandler = s.httpError
	e.Use(s.recoverMiddleware)
	e.Use(bodyLimit(64 << 10))
	s.routes()
	go s.pingLoop(s.stopPing)
	return s
}

func (s *Server) routes() {
	e := s.echo
	e.GET("/healthz", func(c echo.Context) error { return c.String(http.StatusOK, "ok") })
	e.GET("/metrics", echo.WrapHandler(promhttp.HandlerFor(s.cfg.Registry, promhttp.HandlerOpts{})))
	e.GET("/games", s.listGames)
	e.GET("/catalog", s.catalog)
	e.GET("/games/:name", s.listMatches)
	e.GET("/games/:name/:id", s.getMatch)
	e.POST("/games/:name/create", s.create, s.throttled)
	e.POST("/games/:name/:id/join", s.join, s.throttled)
	e.POST("/games/:name/:id/update", s.update)
	e.POST("/games/:name/:id/leave", s.leave)
	e.POST("/games/:name/:id/playAgain", s.playAgain)
	e.POST("/games/:name/:id/bot", s.addBot)
	e.GET("/games/:name/:id/ws", s.websocket)
	e.GET("/games/:name/:id/sgf", s.exportSGF)
	e.GET("/games/:name/:id/replay", s.replay)
	e.POST("/llm/test", s.llmTest)
	e.POST("/llm/try", s.llmTry)
	if s.cfg.Pprof {
		e.GET("/debug/pprof/*", echo.WrapHandler(http.HandlerFunc(pprof.Index)))
		e.GET("/debug/pprof/profile", echo.WrapHandler(http.HandlerFunc(pprof.Profile)))
		e.GET("/debug/pprof/trace", echo.WrapHandler(http.HandlerFunc(pprof.Trace)))
		// A collection on demand, for measuring what is live (the load
		// generator's idle figures); pprof's heap?gc=1 would allocate a
		// profile right after it.
		e.POST("/debug/gc", func(c echo.Context) error {
			runtime.GC()
			return c.NoContent(http.StatusNoContent)
		})
	}
	if s.cfg.Assets != nil {
		s.webRoutes()
	}
}

// ServeHTTP makes Server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// Shutdown stops accepting WebSocket work and closes every live connection
// with a "going away" close frame, waiting up to ctx for their writers. The
// caller shuts the http.Server down too.
func (s *Server) Shutdown(ctx context.Context) {
	s.mu.Lock()
	if !s.closing {
		close(s.stopPing)
	}
	s.closing = true
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.goingAway()
	}
	for _, c := range conns {
		select {
		case <-c.done:
		case <-ctx.Done():
			return
		}
	}
}

// checkOrigin allows requests without an Origin (non-browser clients), the
// server's own origin, and the configured allow-list.
func (s *Server) checkOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	for _, o := range s.cfg.AllowedOrigins {
		if strings.EqualFold(strings.TrimRight(o, "/"), origin) {
			return true
		}
	}
	return false
}

// WSConfig holds the WebSocket timings. Their relations: PingEvery <
// PongWait so a live peer always answers in time; WriteWait bounds one
// write; HelloWait bounds the first message (docs/protocol.md: 10 s).
type WSConfig struct {
	WriteWait  time.Duration // default 10 s
	PongWait   time.Duration // default 60 s
	PingEvery  time.Duration // default PongWait * 9 / 10
	HelloWait  time.Duration // default 10 s
	SendBuffer int           // queued frames per connection; default 32
	// Rate and Burst bound client messages per second per connection.
	Rate  float64 // default 20
	Burst int     // default 20: with SendBuffer/4 for refusals, a burst never overflows the queue
	// MaxConns caps the live WebSockets of the process and MaxConnsPerIP
	// those of one client address (an IPv4 address or an IPv6 /64, as the
	// lobby throttle counts); upgrades past either are refused with 503
	// unavailable (ws.go: admit). Zero takes the default (10000, 200); a
	// negative value turns the cap off.
	MaxConns      int
	MaxConnsPerIP int
}

func (w WSConfig) withDefaults() WSConfig {
	if w.WriteWait == 0 {
		w.WriteWait = 10 * time.Second
	}
	if w.PongWait == 0 {
		w.PongWait = 60 * time.Second
	}
	if w.PingEvery == 0 {
		w.PingEvery = w.PongWait * 9 / 10
	}
	if w.HelloWait == 0 {
		w.HelloWait = 10 * time.Second
	}
	if w.SendBuffer == 0 {
		w.SendBuffer = 32
	}
	if w.Rate == 0 {
		w.Rate = 20
	}
	if w.Burst == 0 {
		w.Burst = 20
	}
	if w.MaxConns == 0 {
		w.MaxConns = 10000
	}
	if w.MaxConnsPerIP == 0 {
		w.MaxConnsPerIP = 200
	}
	return w
}
