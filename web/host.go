package web

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/i18n"
)

// The Host check. A page of another site can make a browser send requests
// here by rebinding its own name to this address (DNS rebinding); the
// browser then treats the answers as that site's. Such a request names the
// other site in its Host header, so the server answers only requests that
// name one of its own addresses, a loopback name when it serves on
// loopback, or a name of Config.AllowedHosts.

// loopbackNames are the names of a loopback address that need no listing.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// hostName is the host of a Host header or of an allowed host as the check
// compares it: without port, brackets or final dot, in lower case; ok is
// false for text that is not a host.
func hostName(hostport string) (name string, ok bool) {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	} else if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "" || strings.ContainsAny(host, " /@[]\\") {
		return "", false
	}
	if strings.Contains(host, ":") {
		if _, err := netip.ParseAddr(host); err != nil {
			return "", false // a colon outside an IPv6 address
		}
	}
	return host, true
}

// allowedHosts is Config.AllowedHosts as the check compares them.
func allowedHosts(list []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, h := range list {
		if h == "*" {
			out[h] = true
			continue
		}
		name, ok := hostName(h)
		if !ok || strings.Contains(h, ":") && !strings.Contains(name, ":") {
			return nil, fmt.Errorf("allowed host %q is not a host name or address (give one such as queens.example.org, without scheme or port)", h)
		}
		out[name] = true
	}
	return out, nil
}

// checkHost refuses a request whose Host header names none of the
// server's addresses. A request that did not come over a connection (a
// handler called in the same process) is checked as if it came over
// loopback. HTTP/1.0 requests without a Host header come from no browser
// and pass.
func (s *Server) checkHost(r *http.Request) error {
	if r.Host == "" || s.hosts["*"] {
		return nil
	}
	name, ok := hostName(r.Host)
	if ok && s.hosts[name] {
		return nil
	}
	local := netip.IPv6Loopback()
	if a, isTCP := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr); isTCP {
		local = a.AddrPort().Addr().Unmap()
	}
	if ok {
		if ip, err := netip.ParseAddr(name); err == nil && ip.Unmap() == local {
			return nil
		}
		for _, l := range loopbackNames {
			if local.IsLoopback() && name == l {
				return nil
			}
		}
	}
	return errorT(http.StatusMisdirectedRequest, "error.host", i18n.Args{"Host": strconv.Quote(r.Host), "Allow": clipHost(r.Host)})
}

// clipHost is the host of a Host header without its port, as a user would
// pass it to --allow-host.
func clipHost(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

// The cross-site check. A page of another site can make a visitor's
// browser send requests here (a link, an image, a form, fetch in no-cors
// mode) without reading the answers: enough to start heavy work or change
// state. Browsers say where a request comes from in Sec-Fetch-Site, and
// in Origin for most that are not plain GETs; requests of the page itself
// are "same-origin", one the user typed is "none", and the static build's
// requests, made inside the page, carry neither header.

// checkSite refuses a request that a browser says comes from another
// origin: Sec-Fetch-Site other than same-origin or none, or an Origin
// that does not name this server as the request's Host does.
func checkSite(r *http.Request) error {
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
	default:
		return errorT(http.StatusForbidden, "error.site", i18n.Args{"Header": "Sec-Fetch-Site", "Site": fmt.Sprintf("%.20q", site)})
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host) {
		return errorT(http.StatusForbidden, "error.origin", i18n.Args{"Header": "Origin", "Origin": fmt.Sprintf("%.60q", origin)})
	}
	return nil
}
