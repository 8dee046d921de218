package server

import (
	"net"
	"sync"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
)

// Throttle bounds the lobby requests that make or fill matches (create and
// join) per client address: a token bucket each, Burst deep, refilled at
// Rate per second. Zero values take the defaults; a negative Rate turns
// the throttle off.
//
// The address is the client's by the server's one rule (clientip.go): the
// TCP peer's, or behind a trusted proxy the one X-Forwarded-For names; a
// forwarding header from anyone else is not trusted, since any client
// could set it. IPv6 clients count per /64, the block one host usually
// holds.
type Throttle struct {
	Rate  float64 // default 2
	Burst int     // default 20
	// MaxClients bounds the addresses remembered (default 10000); past it
	// the fullest buckets, then arbitrary ones, are forgotten.
	MaxClients int
}

func (t Throttle) withDefaults() Throttle {
	if t.Rate == 0 {
		t.Rate = 2
	}
	if t.Burst <= 0 {
		t.Burst = 20
	}
	if t.MaxClients <= 0 {
		t.MaxClients = 10000
	}
	return t
}

// clientLimiter holds one token bucket per client address.
type clientLimiter struct {
	cfg     Throttle
	mu      sync.Mutex
	buckets map[string]*rate.Limiter // guarded by mu
}

func newClientLimiter(cfg Throttle) *clientLimiter {
	return &clientLimiter{cfg: cfg.withDefaults(), buckets: map[string]*rate.Limiter{}}
}

// allow takes a token from addr's bucket, reporting whether there was one.
func (l *clientLimiter) allow(addr string) bool {
	if l.cfg.Rate < 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[addr]
	if !ok {
		l.makeRoom()
		b = rate.NewLimiter(rate.Limit(l.cfg.Rate), l.cfg.Burst)
		l.buckets[addr] = b
	}
	return b.Allow()
}

// makeRoom keeps the map under MaxClients: when it is full it forgets
// every full bucket (a client idle long enough to have refilled loses
// nothing), then arbitrary ones until a quarter is free, so the work is
// paid once per quarter of MaxClients new addresses; l.mu must be held.
func (l *clientLimiter) makeRoom() {
	if len(l.buckets) < l.cfg.MaxClients {
		return
	}
	for addr, b := range l.buckets {
		if b.Tokens() >= float64(l.cfg.Burst) {
			delete(l.buckets, addr)
		}
	}
	for addr := range l.buckets {
		if len(l.buckets) <= l.cfg.MaxClients*3/4 {
			break
		}
		delete(l.buckets, addr)
	}
}

// size is the number of addresses remembered.
func (l *clientLimiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

// clientKey is the bucket key of a client address (c.RealIP(); a
// host:port is taken too): the IP, or its /64 for IPv6.
func clientKey(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	ip := net.ParseIP(host)
	if ip == nil || ip.To4() != nil {
		return host
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// throttled refuses a request whose client has no token left with 429
// rate_limited.
func (s *Server) throttled(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !s.limiter.allow(clientKey(c.RealIP())) {
			return s.fail(c, &rooms.Error{Code: protocol.CodeRateLimited,
				Message: "too many matches created or joined from your address; wait a moment and try again"})
		}
		return next(c)
	}
}
