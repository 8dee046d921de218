package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// The guard for players' own endpoints (own.go): the server makes HTTP
// requests to an address a player typed, so the player must not be able
// to reach what only the server can (the cloud's metadata service at
// 169.254.169.254, Redis on loopback, the private network behind it).
//
// Every connection goes through Guard.dial, which resolves the host
// itself and refuses it unless every address it resolves to is public,
// then dials the address it checked; the dialer's Control checks once
// more the address the socket actually connects to. So a name that
// resolves to a private address, a DNS answer that changes between a
// check and the dial (rebinding), and a redirect (the client follows one
// through the same dialer) all stop there. The transport has no proxy:
// an HTTP(S)_PROXY from the environment would connect to the proxy
// instead, and the proxy to anything.

// ErrAddrBlocked is wrapped by the error of a connection the Guard
// refused; its text says "address not allowed".
var ErrAddrBlocked = errors.New("llm: address not allowed")

// Guard decides which addresses players' own endpoints may reach.
type Guard struct {
	// AllowPrivate lets them reach loopback, private, link-local and the
	// other non-public addresses too (-llm-own-private: a local Ollama next
	// to the server).
	AllowPrivate bool
	// Allow, when set, allows the addresses it reports true for even when
	// they are not public (tests allow exactly their stub's address).
	Allow func(netip.AddrPort) bool
	// Lookup resolves a host name; default net.DefaultResolver.LookupNetIP
	// (tests inject names that resolve to loopback).
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
}

// nonPublic are the ranges an own endpoint may not reach beyond what
// netip's predicates catch (loopback, private, link-local, multicast,
// unspecified).
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and broadcast
	netip.MustParsePrefix("::/96"),           // IPv4-compatible (deprecated)
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64: an IPv4 address inside
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("2002::/16"),       // 6to4: an IPv4 address inside
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
}

// Blocked says why ip is not a public address an own endpoint may reach
// ("" when it is). An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is
// judged as the IPv4 address it maps.
func Blocked(ip netip.Addr) string {
	ip = ip.Unmap()
	switch {
	case !ip.IsValid():
		return "not an IP address"
	case ip.IsLoopback():
		return "loopback"
	case ip.IsUnspecified():
		return "unspecified"
	case ip.IsPrivate():
		return "private"
	case ip.IsLinkLocalUnicast():
		return "link-local"
	case ip.IsMulticast(), ip.IsLinkLocalMulticast(), ip.IsInterfaceLocalMulticast():
		return "multicast"
	}
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return "reserved"
		}
	}
	return ""
}

// check refuses ap unless it is public, allowed by AllowPrivate or by
// Allow.
func (g *Guard) check(ap netip.AddrPort) error {
	if g.AllowPrivate || (g.Allow != nil && g.Allow(ap)) {
		return nil
	}
	if why := Blocked(ap.Addr()); why != "" {
		return fmt.Errorf("%w: the endpoint's address is %s (only public addresses are allowed)", ErrAddrBlocked, why)
	}
	return nil
}

// control is the dialer's Control: it checks the address the socket is
// about to connect to.
func (g *Guard) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot read the address dialled", ErrAddrBlocked)
	}
	return g.check(ap)
}

// dial resolves addr's host, refuses it unless every address it names is
// allowed, and connects to them in turn through a dialer whose Control
// checks again.
func (g *Guard) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := net.LookupPort(network, portText)
	if err != nil {
		return nil, err
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else {
		lookup := g.Lookup
		if lookup == nil {
			lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
				return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
			}
		}
		if ips, err = lookup(ctx, host); err != nil {
			return nil, err
		}
		if len(ips) == 0 {
			return nil, fmt.Errorf("lookup %s: no such host", host)
		}
	}
	for _, ip := range ips {
		if err := g.check(netip.AddrPortFrom(ip.Unmap(), uint16(port))); err != nil {
			return nil, err
		}
	}
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: g.control}
	var first error
	for _, ip := range ips {
		c, err := d.DialContext(ctx, network, netip.AddrPortFrom(ip.Unmap(), uint16(port)).String())
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// maxRedirects is how many redirects an own endpoint's request follows,
// each through the Guard's dialer.
const maxRedirects = 3

// maxOwnBody bounds the response body read from an own endpoint: an
// answer is a few kilobytes, and a hostile endpoint must not fill the
// server's memory.
const maxOwnBody = 1 << 20

// Client is the HTTP client for players' own endpoints: every connection
// through the Guard (a redirect too), no proxy, response bodies cut at
// maxOwnBody.
func (g *Guard) Client() *http.Client {
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           g.dial,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          64,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       60 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	return &http.Client{
		Transport: limitBody{tr},
		CheckRedirect: func(_ *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return fmt.Errorf("stopped after %d redirects", maxRedirects)
			}
			return nil // the next request dials through g.dial too
		},
	}
}

// limitBody cuts every response body at maxOwnBody.
type limitBody struct{ rt http.RoundTripper }

func (l limitBody) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := l.rt.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.LimitReader(resp.Body, maxOwnBody), resp.Body}
	return resp, nil
}
