package apiserver

// This file keeps web pages out. In crdlab's default mode (a loopback
// address, no authentication) every request is allowed, so the only thing
// between a page in a browser and the API is what the browser sends with
// it: a page on another site can still POST to 127.0.0.1 (a "no-cors"
// request, which the browser sends without a Content-Type and without
// letting the page read the answer), and with DNS rebinding (its own name
// re-pointed at 127.0.0.1) it can read and write as if it were the server's
// own page. So, as kubectl proxy does, the server answers only requests
// whose Host header names it by a loopback name, refuses requests whose
// Origin header names another site, and refuses a body without a
// Content-Type (withRequestChecks, access.go).

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/scheme"
)

// DefaultAcceptHosts are the Host names a server on a loopback address
// answers to unless Config.AcceptHosts says otherwise: kubectl proxy's
// --accept-hosts default (DefaultHostAcceptRE in
// k8s.io/kubectl/pkg/proxy/proxy_server.go).
var DefaultAcceptHosts = []string{`^localhost$`, `^127\.0\.0\.1$`, `^\[::1\]$`}

// hostPolicy says which Host headers a server answers to. A nil
// *hostPolicy accepts every host.
type hostPolicy struct {
	accept []*regexp.Regexp
	// flag names where the list came from, for the 403's message.
	flag string
}

// newHostPolicy compiles patterns (Config.AcceptHosts); nil patterns
// mean the default for listenHost: loopback names on a loopback address,
// every host on any other. The host the server's own client dials
// (LoopbackClientConfig) is always accepted, so that its controllers keep
// working whatever the list.
func newHostPolicy(patterns []string, listenHost string) (*hostPolicy, error) {
	flag := "--accept-hosts"
	if patterns == nil {
		if !isLoopbackHost(listenHost) {
			return nil, nil
		}
		patterns = append([]string(nil), DefaultAcceptHosts...)
		flag = "--accept-hosts (unset: loopback names only, as kubectl proxy)"
	}
	if h, _, err := net.SplitHostPort(dialAddress(net.JoinHostPort(listenHost, "0"))); err == nil {
		patterns = append(patterns, "^"+regexp.QuoteMeta(bracketIPv6(h))+"$")
	}
	p := &hostPolicy{flag: flag}
	for _, pat := range patterns {
		re, err := regexp.Compile(pat)
		if err != nil {
			return nil, fmt.Errorf("--accept-hosts: %w", err)
		}
		p.accept = append(p.accept, re)
	}
	return p, nil
}

// accepts reports whether host (a Host header, with or without a port)
// is one the server answers to.
//
// Mirrors (*FilterServer).accept and extractHost in kubectl's proxy_server.go.
func (p *hostPolicy) accepts(host string) bool {
	if p == nil {
		return true
	}
	h := bracketIPv6(hostOnly(host))
	for _, re := range p.accept {
		if re.MatchString(h) {
			return true
		}
	}
	return false
}

// hostOnly drops the port of a host[:port].
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
}

// bracketIPv6 writes an IPv6 address in brackets, as in a Host header.
func bracketIPv6(h string) string {
	if strings.Contains(h, ":") {
		return "[" + h + "]"
	}
	return h
}

// originAllowed reports whether an Origin header may come with a request
// to host: none, the server's own origin (same host and port), or a page
// on a loopback host. "null" (a sandboxed frame, a file) and any other
// site are refused.
func originAllowed(origin, host string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	h := u.Hostname()
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// withHostCheck answers 403 Forbidden to a request whose Host header p
// does not accept, or whose Origin header names another site. It is the
// outermost check, in front of the /ui page too.
//
// Mirrors kubectl proxy's FilterServer (Host); the Origin check has no
// upstream twin (kube-apiserver always authenticates, and a browser cannot
// add a bearer token to a cross-site request).
func withHostCheck(h http.Handler, p *hostPolicy) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.accepts(r.Host) {
			closeIfBody(w, r)
			responsewriters.WriteError(w, apierrors.NewForbidden(scheme.GroupResource{}, "", fmt.Errorf(
				"the Host header %q does not name this server as it accepts (%s): a page in a browser may be reaching it by DNS rebinding",
				abbreviate(r.Host), p.flag)))
			return
		}
		if origin := r.Header.Get("Origin"); !originAllowed(origin, r.Host) {
			closeIfBody(w, r)
			responsewriters.WriteError(w, apierrors.NewForbidden(scheme.GroupResource{}, "", fmt.Errorf(
				"requests from the web page at Origin %q are refused: only pages of this server or of a loopback host may call it",
				abbreviate(origin))))
			return
		}
		h.ServeHTTP(w, r)
	})
}
