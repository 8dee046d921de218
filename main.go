// Command chaguan serves Chaguan (茶馆): the lobby API, the WebSocket
// protocol and the web client for turn-based tabletop games.
//
//	go run .                                  # :8080, in-memory store
//	go run . -redis redis://127.0.0.1:6379/0  # Redis store (or REDIS_URL)
//	go run . simulate -game gomoku -games 100 # bot-vs-bot statistics
//	go run . -gnugo off                       # no GNU Go bot level for weiqi
//	go run . -llm deepseek=https://api.deepseek.com/v1,model=deepseek-chat,key_env=DEEPSEEK_API_KEY
//	                                          # carcassonne bot level llm-deepseek (docs/llm.md)
//	go run . -llm-own                         # players may bring their own endpoint (level llm-own)
//
// Wiring and configuration live here only.
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/chaguan/chaguan/clients/web"
	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/gnugo"
	"github.com/chaguan/chaguan/rooms/llm"
	"github.com/chaguan/chaguan/server"
)

type config struct {
	addr       string
	redisURL   string
	cluster    bool // -redis names a Redis Cluster even with one address
	waitRepl   int
	waitAOF    bool
	waitFor    time.Duration
	origins    string
	pprof      bool
	logLevel   string
	grace      time.Duration
	botDelay   time.Duration
	ttl        time.Duration
	wsRate     float64
	wsBurst    int
	maxRooms   int     // live rooms per process; beyond it create answers 503
	botRate    float64 // bot moves per second in this process; 0 for no budget
	maxConns   int     // live WebSockets per process; 0 for no cap
	maxConnsIP int     // live WebSockets per client address; 0 for no cap
	lobbyRate  float64 // creates and joins per second per client address
	lobbyBurst int
	gnugo      string // GNU Go's binary, "" to look for it, "off"
	gnugoLvl   int
	http       httpTimeouts
	gc         gcSettings // what main set up (setUpGC): run the tuner, the limit set
	llm        specList   // -llm values, parsed by llmPlayers
	proxies    string     // -trusted-proxies: CIDRs whose X-Forwarded-For names the client
	own        bool       // -llm-own: players may bring their own LLM endpoint
	ownPrivate bool       // -llm-own-private: their endpoints may be private addresses
	ownPerIP   int        // -llm-own-per-ip: own-endpoint requests in flight per creator address
}

// specList collects a repeated flag's values. Set never fails: a value is
// parsed later by code whose errors do not echo it (a key pasted into a
// flag by mistake must not be printed).
type specList []string

func (l *specList) String() string     { return fmt.Sprintf("%d values", len(*l)) }
func (l *specList) Set(v string) error { *l = append(*l, v); return nil }

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "simulate" {
		if err := simulate(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "simulate:", err)
			os.Exit(2)
		}
		return
	}
	var c config
	flag.StringVar(&c.addr, "addr", envOr("ADDR", ":8080"), "listen address (env ADDR)")
	flag.StringVar(&c.redisURL, "redis", os.Getenv("REDIS_URL"), "Redis URL, e.g. redis://127.0.0.1:6379/0, or a Redis Cluster's, redis://host1:port1?addr=host2:port2&addr=host3:port3 (more than one address means a cluster); empty for the in-memory store (env REDIS_URL)")
	flag.BoolVar(&c.cluster, "redis-cluster", os.Getenv("REDIS_CLUSTER") != "", "-redis names a Redis Cluster even with one address (env REDIS_CLUSTER)")
	flag.IntVar(&c.waitRepl, "redis-wait-replicas", envInt("REDIS_WAIT_REPLICAS"), "acknowledge a move (or a create) only once this many Redis replicas have it (WAIT): a failover then keeps it; 0 for no wait (env REDIS_WAIT_REPLICAS)")
	flag.BoolVar(&c.waitAOF, "redis-wait-aof", os.Getenv("REDIS_WAIT_AOF") != "", "also wait until the write is fsynced to the append-only file of the master and of -redis-wait-replicas replicas (WAITAOF; Redis 7.2+ with appendonly yes) (env REDIS_WAIT_AOF)")
	flag.DurationVar(&c.waitFor, "redis-wait-timeout", time.Second, "how long a write waits for its replicas (and fsync) before it is answered unavailable")
	flag.StringVar(&c.origins, "origins", os.Getenv("ALLOWED_ORIGINS"), "comma-separated extra origins allowed to open WebSockets (env ALLOWED_ORIGINS)")
	flag.BoolVar(&c.pprof, "pprof", false, "serve net/http/pprof under /debug/pprof")
	flag.StringVar(&c.logLevel, "log-level", envOr("LOG_LEVEL", "info"), "debug, info, warn or error (env LOG_LEVEL)")
	flag.DurationVar(&c.grace, "grace", 60*time.Second, "default time a disconnected player keeps their turn before the bot covers")
	flag.DurationVar(&c.botDelay, "bot-delay", 300*time.Millisecond, "default pause before a bot moves")
	flag.DurationVar(&c.ttl, "ttl", rooms.DefaultTTL, "how long a match is kept after its last change")
	flag.Float64Var(&c.wsRate, "ws-rate", 20, "messages per second each WebSocket may send")
	flag.IntVar(&c.wsBurst, "ws-burst", 20, "burst of messages each WebSocket may send at once")
	flag.Float64Var(&c.botRate, "bot-rate", rooms.DefaultBotRate, "bot moves per second this process makes at most, shared by every match in turn (0 for no budget)")
	flag.IntVar(&c.maxRooms, "max-rooms", rooms.DefaultMaxRooms, "live matches this process keeps loaded at most; beyond it create answers 503 unavailable (0 for no cap)")
	flag.IntVar(&c.maxConns, "max-conns", 10000, "live WebSockets this process takes at most; past it upgrades answer 503 unavailable (0 for no cap)")
	flag.IntVar(&c.maxConnsIP, "max-conns-per-ip", 200, "live WebSockets one client address may hold; past it upgrades answer 503 unavailable (0 for no cap)")
	flag.Float64Var(&c.lobbyRate, "lobby-rate", 2, "creates and joins per second each client address may make (0 for no limit)")
	flag.IntVar(&c.lobbyBurst, "lobby-burst", 20, "burst of creates and joins each client address may make at once")
	flag.StringVar(&c.gnugo, "gnugo", os.Getenv("GNUGO"), "GNU Go binary for weiqi's bot level gnugo; empty looks for gnugo on $PATH and in /usr/games, off disables it (env GNUGO)")
	flag.IntVar(&c.gnugoLvl, "gnugo-level", gnugo.DefaultLevel, "GNU Go's strength, --level 1 to 10")
	flag.StringVar(&c.proxies, "trusted-proxies", os.Getenv("TRUSTED_PROXIES"), "comma-separated CIDRs of the reverse proxies in front of the server: a request from one has its client address read from X-Forwarded-For; empty trusts none, and the client is the TCP peer (env TRUSTED_PROXIES)")
	flag.Var(&c.llm, "llm", "an OpenAI-compatible endpoint as carcassonne's bot level llm-NAME: NAME=BASE_URL,model=MODEL[,key_env=VAR][,timeout=20s][,max=4][,max_tokens=1024][,temperature=0.2] (max: requests in flight at once; max_tokens and temperature go with every request); the key is read from the environment variable VAR, never given here; repeatable (env LLM_BASE_URL, LLM_MODEL, LLM_API_KEY configure the level llm; see docs/llm.md)")
	flag.BoolVar(&c.own, "llm-own", os.Getenv("LLM_OWN") != "", "let players seat carcassonne's bot level llm-own with their own OpenAI-compatible endpoint (the key stays in this process's memory; docs/llm.md) (env LLM_OWN)")
	flag.BoolVar(&c.ownPrivate, "llm-own-private", os.Getenv("LLM_OWN_PRIVATE") != "", "with -llm-own: let players' endpoints be loopback, private or link-local addresses too (a local Ollama next to the server); off, only public addresses are reached (env LLM_OWN_PRIVATE)")
	flag.IntVar(&c.ownPerIP, "llm-own-per-ip", llm.DefaultOwnPerClient, "with -llm-own: requests in flight at once to the own endpoints of the matches one client address created")
	flag.Parse()
	c.gc = setUpGC()
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "chaguan:", err)
		os.Exit(1)
	}
}

func run(c config) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return fmt.Errorf("bad -log-level: %w", err)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	proxies, err := server.ParseTrustedProxies(c.proxies)
	if err != nil {
		return fmt.Errorf("bad -trusted-proxies: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	store, desc, err := openStore(ctx, c)
	if err != nil {
		return err
	}
	defer store.Close()

	inst := server.NewMetricsFor()
	botDelay := c.botDelay
	if botDelay == 0 {
		botDelay = rooms.ZeroBotDelay
	}
	players, closePlayers := botPlayers(c, log)
	defer closePlayers() // after mgr.Close: no room asks them any more
	llmLevels, llmChecks, err := llmPlayers(c, log, os.Getenv)
	if err != nil {
		return err
	}
	if len(llmLevels) > 0 {
		if players == nil {
			players = map[string]map[string]rooms.EngineLevel{}
		}
		players[llm.Game] = llmLevels
	}
	own := ownPlayers(c, log)
	rcfg := rooms.Config{
		Store: store, Games: all.Registry(), Grace: c.grace, BotDelay: botDelay,
		Engines: players, Logger: log, Metrics: inst.Metrics, MaxRooms: noCapIfZero(c.maxRooms), BotRate: noneIfZero(c.botRate),
	}
	if own != nil {
		rcfg.Own = own
	}
	mgr := rooms.New(rcfg)
	var origins []string
	for _, o := range strings.Split(c.origins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			origins = append(origins, o)
		}
	}
	h := server.New(server.Config{
		Rooms: mgr, Assets: web.Assets(), AllowedOrigins: origins, Logger: log,
		Registry: inst.Registry, Metrics: inst.Metrics, Pprof: c.pprof, TrustedProxies: proxies,
		WS:       server.WSConfig{Rate: c.wsRate, Burst: c.wsBurst, MaxConns: noCapIfZero(c.maxConns), MaxConnsPerIP: noCapIfZero(c.maxConnsIP)},
		Throttle: lobbyThrottle(c),
		LLMTest:  server.LLMTestConfig{Endpoints: llmChecks, Token: os.Getenv("CHAGUAN_OPERATOR_TOKEN")},
		Own:      own,
	})
	srv := newHTTPServer(c, h)
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	log.Info("chaguan serving", "addr", c.addr, "store", desc, "url", "http://localhost"+portOf(c.addr))
	if c.gc.tune {
		go tuneGC(ctx, gcTunePeriod)
	}
	if c.gc.tune || c.gc.limit != 0 {
		gogc := "from GOGC"
		if c.gc.tune {
			gogc = "100, 400 under load"
		}
		log.Info("garbage collector (GOGC and GOMEMLIMIT override these)", "gogc", gogc, "memory_limit_mb", c.gc.limit>>20)
	}

	select {
	case err := <-errc:
		mgr.Close()
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: draining connections")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h.Shutdown(sctx)
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("http shutdown", "err", err)
	}
	mgr.Close()
	log.Info("bye")
	return nil
}

// noCapIfZero maps a connection-cap flag to server.WSConfig, where zero
// means the default and a negative value no cap.
func noCapIfZero(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}

// noneIfZero maps a flag where 0 means none (the flags' rule) to a
// Config field where 0 means the default and a negative value none.
func noneIfZero(v float64) float64 {
	if v <= 0 {
		return -1
	}
	return v
}

// lobbyThrottle is the per-client limit of creates and joins; -lobby-rate
// 0 turns it off.
func lobbyThrottle(c config) server.Throttle {
	if c.lobbyRate <= 0 {
		return server.Throttle{Rate: -1}
	}
	return server.Throttle{Rate: c.lobbyRate, Burst: c.lobbyBurst}
}

// httpTimeouts bound each HTTP connection's phases; zero values take the
// defaults (withDefaults).
type httpTimeouts struct {
	readHeader time.Duration // the request line and headers
	read       time.Duration // the whole request, body included
	write      time.Duration // from the end of the headers to the end of the response
	idle       time.Duration // a keep-alive connection between requests
}

// withDefaults fills the zero timeouts. Lobby bodies are at most 64 KiB,
// so reads are short; writes leave room for the slowest responses (a
// 30 s CPU profile, POST /llm/test). A WebSocket is hijacked, so these
// never end one: gorilla clears the deadlines at the upgrade and sets its
// own (server.WSConfig).
func (t httpTimeouts) withDefaults() httpTimeouts {
	t.readHeader = cmp.Or(t.readHeader, 10*time.Second)
	t.read = cmp.Or(t.read, 30*time.Second)
	t.write = cmp.Or(t.write, 60*time.Second)
	t.idle = cmp.Or(t.idle, 120*time.Second)
	return t
}

// newHTTPServer is the listener's http.Server for h, with c's timeouts, so
// a slow or idle client cannot hold a connection open.
func newHTTPServer(c config, h http.Handler) *http.Server {
	t := c.http.withDefaults()
	return &http.Server{
		Addr: c.addr, Handler: h,
		ReadHeaderTimeout: t.readHeader, ReadTimeout: t.read, WriteTimeout: t.write, IdleTimeout: t.idle,
	}
}

// gnugoTimeout bounds one GNU Go decision; at level 10 on 19x19 it takes a
// few seconds on one core.
const gnugoTimeout = 20 * time.Second

// botPlayers registers the bot levels that run outside the process: GNU Go
// as weiqi's level "gnugo" (falling back to "normal") when its binary is
// there. The returned func stops them.
func botPlayers(c config, log *slog.Logger) (map[string]map[string]rooms.EngineLevel, func()) {
	path := c.gnugo
	switch path {
	case "off":
		log.Info("weiqi bot level gnugo disabled (-gnugo off)")
		return nil, func() {}
	case "":
		if path = gnugo.Find(); path == "" {
			log.Info("weiqi bot level gnugo off: no gnugo binary on $PATH or in /usr/games (set -gnugo or GNUGO)")
			return nil, func() {}
		}
	}
	if _, err := exec.LookPath(path); err != nil {
		log.Warn("weiqi bot level gnugo off: cannot run the gnugo binary", "path", path, "err", err)
		return nil, func() {}
	}
	p := gnugo.New(gnugo.Config{Path: path, Level: c.gnugoLvl})
	log.Info("weiqi bot level gnugo on", "path", path, "gnugo_level", c.gnugoLvl, "timeout", gnugoTimeout)
	levels := map[string]map[string]rooms.EngineLevel{
		"weiqi": {"gnugo": {Engine: p, Fallback: "normal", Timeout: gnugoTimeout}},
	}
	return levels, func() { _ = p.Close() }
}

// llmPlayers registers each configured LLM endpoint (-llm values, then
// LLM_BASE_URL) as a carcassonne bot level falling back to "normal", and
// lists them for POST /llm/test by level and by name. A key is read from
// the variable its endpoint names and never logged.
func llmPlayers(c config, log *slog.Logger, getenv func(string) string) (map[string]rooms.EngineLevel, map[string]server.LLMChecker, error) {
	var eps []llm.Endpoint
	for _, spec := range c.llm {
		ep, err := llm.ParseSpec(spec)
		if err != nil {
			return nil, nil, err
		}
		eps = append(eps, ep)
	}
	if ep, ok, err := llm.FromEnv(getenv); err != nil {
		return nil, nil, err
	} else if ok {
		eps = append(eps, ep)
	}
	if len(eps) == 0 {
		return nil, nil, nil
	}
	if _, ok := all.Registry().Get(llm.Game); !ok {
		log.Warn("LLM bot levels off: carcassonne is not registered")
		return nil, nil, nil
	}
	levels, checks := map[string]rooms.EngineLevel{}, map[string]server.LLMChecker{}
	for _, ep := range eps {
		if _, dup := levels[llm.Level(ep.Name)]; dup {
			return nil, nil, fmt.Errorf("LLM endpoint %s configured twice (-llm %s=… and LLM_BASE_URL both make the level llm)", ep.Name, ep.Name)
		}
		key := llm.Key(getenv(ep.KeyEnv))
		if ep.KeyEnv != "" && key == "" {
			log.Warn("LLM endpoint's key variable is unset or empty; requests go without a key", "level", llm.Level(ep.Name), "key_env", ep.KeyEnv)
		}
		p, err := llm.New(ep, key, nil)
		if err != nil {
			return nil, nil, err
		}
		p.SetLogger(log) // its circuit breaker's changes of state
		pl := p.PlayerLevel()
		levels[p.Level()] = pl
		checks[p.Level()], checks[ep.Name] = p, p
		log.Info("carcassonne bot level on", "level", p.Level(), "base_url", ep.BaseURL, "model", ep.Model,
			"key_env", ep.KeyEnv, "key_set", key != "", "timeout", pl.Timeout, "max", p.Endpoint().Max, "fallback", pl.Fallback)
	}
	return levels, checks, nil
}

// ownPlayers is the memory of players' own LLM endpoints when -llm-own
// allows them, else nil.
func ownPlayers(c config, log *slog.Logger) *llm.Own {
	if !c.own {
		return nil
	}
	if _, ok := all.Registry().Get(llm.Game); !ok {
		log.Warn("-llm-own off: carcassonne is not registered")
		return nil
	}
	ttl := c.ttl
	if ttl <= 0 {
		ttl = rooms.DefaultTTL
	}
	log.Info("players may bring their own LLM (carcassonne bot level llm-own)", "private_addresses", c.ownPrivate, "per_ip", c.ownPerIP)
	return llm.NewOwn(llm.OwnOptions{Guard: &llm.Guard{AllowPrivate: c.ownPrivate}, PerClient: c.ownPerIP, TTL: ttl})
}

func portOf(addr string) string {
	if i := strings.LastIndex(addr, ":"); i >= 0 {
		return addr[i:]
	}
	return ""
}
