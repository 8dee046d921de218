package server

import (
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// The client address: one rule for everything that keys on it (the lobby
// throttle, the WebSocket connection caps, the loopback check of POST
// /llm/test, log lines). New sets Echo's IPExtractor from
// Config.TrustedProxies once, and every caller asks c.RealIP().
//
// With no trusted proxies (the default) the client is the TCP peer, and
// no header changes that: X-Forwarded-For, X-Real-IP, Forwarded and the
// like are written by the client, so anyone could claim any address.
// When the peer is inside a trusted range, the client is read from
// X-Forwarded-For the way Echo's ExtractIPFromXFFHeader does: walking from
// the right (the entry the nearest proxy appended) past the trusted hops,
// the first address outside the trusted ranges is the client; an entry
// that does not parse stops the walk at the peer. Only the named ranges
// are trusted: Echo's default trust of loopback, link-local and private
// addresses is off, so a proxy on this host counts only when the operator
// names 127.0.0.1 (or ::1).

// ParseTrustedProxies parses -trusted-proxies: comma-separated CIDRs such
// as "10.0.0.0/8,127.0.0.1/32"; a bare address stands for itself (/32 or
// /128). Empty is none.
func ParseTrustedProxies(s string) ([]*net.IPNet, error) {
	var nets []*net.IPNet
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !strings.Contains(f, "/") {
			ip := net.ParseIP(f)
			if ip == nil {
				return nil, fmt.Errorf("trusted proxy %q: not an IP address or CIDR", f)
			}
			bits := 128
			if ip4 := ip.To4(); ip4 != nil {
				ip, bits = ip4, 32
			}
			nets = append(nets, &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)})
			continue
		}
		_, n, err := net.ParseCIDR(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: not an IP address or CIDR", f)
		}
		nets = append(nets, n)
	}
	return nets, nil
}

// ipExtractor is the client-address rule for Echo#IPExtractor: the TCP
// peer, or with trusted proxies the X-Forwarded-For walk above.
func ipExtractor(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// peerIP is the TCP peer's address, or nil when RemoteAddr holds none.
func peerIP(r *http.Request) net.IP {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	host, _, _ = strings.Cut(host, "%") // an IPv6 zone
	return net.ParseIP(host)
}

// trustedPeer reports whether the TCP peer is one of the trusted proxies.
func (s *Server) trustedPeer(r *http.Request) bool {
	ip := peerIP(r)
	if ip == nil {
		return false
	}
	for _, n := range s.cfg.TrustedProxies {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// forwardingHeaders name a client other than the TCP peer, in the
// spellings proxies and CDNs use.
var forwardingHeaders = []string{
	"X-Forwarded-For", "Forwarded", "X-Real-Ip", "X-Client-Ip", "True-Client-Ip",
	"Cf-Connecting-Ip", "Fastly-Client-Ip", "X-Cluster-Client-Ip", "X-Original-Forwarded-For",
}

// forwarded reports whether r carries any forwarding header, even an empty
// line of one.
func forwarded(h http.Header) bool {
	for _, name := range forwardingHeaders {
		if len(h.Values(name)) > 0 {
			return true
		}
	}
	return false
}
