package apiserver

// This file puts access control and overload protection in front of the
// server, as the first filters of upstream's DefaultBuildHandlerChain:
//
//	RequestInfo → metrics → panic recovery → request checks (path, deadlines)
//	  → authentication (401) → max-in-flight and watch cap (429)
//	  → authorization (403) → watch shutdown → mux (health, version,
//	    metrics, pprof, and the API handler with its own filters)
//
// and serves HTTPS when asked: a certificate from files, or a CA and a
// serving certificate made (once) in --self-signed-cert-dir. The server's
// own controllers get a loopback client config with a random token (user
// system:apiserver in group system:masters: never forbidden, never
// throttled) and, over TLS, the in-memory loopback certificate.

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apiserver/authn"
	"github.com/crdlab/crdlab/apiserver/authz"
	"github.com/crdlab/crdlab/apiserver/limits"
	"github.com/crdlab/crdlab/apiserver/tlsutil"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/handler/responsewriters"
	utilvalidation "github.com/crdlab/crdlab/machinery/validation"
)

// ErrPublicWithoutAuth: New refuses to listen on an address other
// machines can reach when no authentication is configured.
var ErrPublicWithoutAuth = errors.New("it is not a loopback address")

// AuthenticationConfig says who may talk to the server.
//
// Mirrors (a small part of) BuiltInAuthenticationOptions.
type AuthenticationConfig struct {
	// TokenFile is a CSV of bearer tokens, token,user,uid[,"groups"]
	// (--token-file). Empty: no authentication, every request is
	// system:anonymous — allowed on loopback addresses only.
	TokenFile string
}

// AuthorizationConfig says what they may do.
//
// Mirrors (a small part of) BuiltInAuthorizationOptions.
type AuthorizationConfig struct {
	// Mode is AlwaysAllow (the default), ReadOnlyAnonymous or Static
	// (package authz).
	Mode string
	// PolicyFile is the YAML policy of Static mode.
	PolicyFile string
}

// SecureServingConfig turns on HTTPS: either CertFile and KeyFile, or
// SelfSignedCertDir.
//
// Mirrors (a small part of) SecureServingOptions.
type SecureServingConfig struct {
	// CertFile and KeyFile are a PEM certificate (chain) and its key
	// (--tls-cert-file, --tls-private-key-file).
	CertFile, KeyFile string
	// SelfSignedCertDir holds a CA and a serving certificate made on
	// first start, and the kubeconfig the server writes that trusts the
	// CA (--self-signed-cert-dir; package tlsutil).
	SelfSignedCertDir string
}

// enabled reports whether HTTPS is asked for.
func (c SecureServingConfig) enabled() bool {
	return c.CertFile != "" || c.KeyFile != "" || c.SelfSignedCertDir != ""
}

// access is the access control and TLS state New builds from the config.
type access struct {
	authenticator *authn.Authenticator
	authorizer    authz.Authorizer
	limiter       *limits.Limiter
	// hosts are the Host headers the server answers to (hostcheck.go);
	// nil: all.
	hosts *hostPolicy

	// loopbackToken authenticates the server's own client.
	loopbackToken string
	// tls is nil for plain HTTP; loopbackRoots trusts the loopback
	// certificate.
	tls           *tls.Config
	loopbackRoots *tls.Config
	// selfSigned is set with SelfSignedCertDir.
	selfSigned *tlsutil.SelfSigned
}

// newAccess reads the token file, the policy file and the certificates,
// and refuses a public address without authentication. It runs before the
// server listens: a mistake in any of them fails the start.
func newAccess(c *completedConfig, log *slog.Logger) (*access, error) {
	a := &access{}
	tokens := &authn.Tokens{}
	if f := c.Authentication.TokenFile; f != "" {
		t, err := authn.ReadTokenFile(f)
		if err != nil {
			return nil, fmt.Errorf("--token-file: %w", err)
		}
		tokens = t
	}
	// (A listen address that does not parse is net.Listen's to report.)
	listenHost, _, splitErr := net.SplitHostPort(c.Listen)
	hosts, err := newHostPolicy(c.AcceptHosts, listenHost)
	if err != nil {
		return nil, err
	}
	a.hosts = hosts
	if host := listenHost; splitErr == nil && !isLoopbackHost(host) {
		if c.Authentication.TokenFile == "" {
			return nil, fmt.Errorf("refusing to serve on %s without authentication: %w, so every client that can reach it "+
				"could read and change every object; turn authentication on with --token-file (one \"token,user,uid[,groups]\" "+
				"line per user, see docs/access.md), preferably with TLS (--self-signed-cert-dir DIR, or --tls-cert-file and "+
				"--tls-private-key-file), or listen on a loopback address such as %s",
				c.Listen, ErrPublicWithoutAuth, DefaultListen)
		}
		if !c.SecureServing.enabled() {
			log.Warn("serving plain HTTP on a non-loopback address: bearer tokens cross the network in clear text; "+
				"add --self-signed-cert-dir or --tls-cert-file/--tls-private-key-file", "listen", c.Listen)
		}
	}

	// The loopback token: 32 random bytes, never written anywhere.
	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	a.loopbackToken = base64.RawURLEncoding.EncodeToString(raw)
	if err := tokens.Add(a.loopbackToken, &authn.User{Name: authn.APIServerUser, Groups: []string{authn.SystemPrivilegedGroup}}); err != nil {
		return nil, err
	}
	a.authenticator = &authn.Authenticator{Tokens: tokens, Required: c.Authentication.TokenFile != ""}

	mode := c.Authorization.Mode
	if mode == "" {
		mode = authz.ModeAlwaysAllow
	}
	var policy *authz.Policy
	if f := c.Authorization.PolicyFile; f != "" {
		p, err := authz.ReadPolicyFile(f)
		if err != nil {
			return nil, fmt.Errorf("--authorization-policy-file: %w", err)
		}
		policy = p
	}
	z, err := authz.New(mode, policy)
	if err != nil {
		return nil, fmt.Errorf("--authorization-mode: %w", err)
	}
	a.authorizer = z
	// As upstream, anonymous requests are not combined with AlwaysAllow:
	// a token file would otherwise guard nothing. They still reach the
	// health endpoints.
	if mode == authz.ModeAlwaysAllow {
		a.authenticator.Anonymous = authn.AnonymousConfig{Paths: authz.PublicPaths}
	} else {
		a.authenticator.Anonymous = authn.AnonymousConfig{Enabled: true}
	}
	lc := c.Limits
	lc.LongRunning = func(r *http.Request) bool { return r.URL.Path == TraceEventsPath }
	a.limiter = limits.New(lc, log.With("component", "limits"))

	if err := a.setupTLS(c); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *access) setupTLS(c *completedConfig) error {
	s := c.SecureServing
	if !s.enabled() {
		return nil
	}
	var serving tls.Certificate
	switch {
	case s.SelfSignedCertDir != "" && (s.CertFile != "" || s.KeyFile != ""):
		return errors.New("--self-signed-cert-dir and --tls-cert-file/--tls-private-key-file exclude each other")
	case s.SelfSignedCertDir != "":
		host, _, err := net.SplitHostPort(c.Listen)
		if err != nil {
			return err
		}
		ss, err := tlsutil.EnsureSelfSigned(s.SelfSignedCertDir, tlsutil.ServingHosts(host), time.Now())
		if err != nil {
			return fmt.Errorf("--self-signed-cert-dir: %w", err)
		}
		a.selfSigned, serving = ss, ss.Serving
	case s.CertFile == "" || s.KeyFile == "":
		return errors.New("--tls-cert-file and --tls-private-key-file go together")
	default:
		pair, err := tlsutil.LoadKeyPair(s.CertFile, s.KeyFile)
		if err != nil {
			return err
		}
		serving = pair
	}
	loopback, roots, err := tlsutil.NewLoopbackCert(time.Now())
	if err != nil {
		return err
	}
	a.tls = tlsutil.ServerConfig(serving, loopback)
	a.loopbackRoots = &tls.Config{RootCAs: roots, ServerName: tlsutil.LoopbackServerName, MinVersion: tls.VersionTLS12}
	return nil
}

// writeKubeconfig writes the self-signed cert dir's kubeconfig, for the
// address the server listens on, with the token file's first token (or
// the dummy token). It returns its path.
func (a *access) writeKubeconfig(addr string) (string, error) {
	token, user, ok := a.authenticator.Tokens.First()
	comment := "Written by crdlab serve: trusts the CA in " + tlsutil.CACertFile + "."
	if ok && user.Name != authn.APIServerUser {
		comment += "\nUser " + user.Name + " (the first line of --token-file)."
	} else {
		token = ""
	}
	p := filepath.Join(a.selfSigned.Dir, tlsutil.KubeconfigFile)
	kc := tlsutil.Kubeconfig(tlsutil.KubeconfigOptions{
		Server: "https://" + dialAddress(addr), CAData: a.selfSigned.CACertPEM, Token: token, Comment: comment,
	})
	return p, tlsutil.WriteFileAtomic(p, kc, 0o600)
}

// frontChain wraps inner (the mux) in the access and overload filters,
// outermost last.
//
// Mirrors the outer part of DefaultBuildHandlerChain in
// k8s.io/apiserver/pkg/server/config.go.
func (s *Server) frontChain(inner http.Handler) http.Handler {
	h := inner
	h = authz.WithAuthorization(h, s.access.authorizer, s.log.With("component", "authorization"))
	h = s.access.limiter.Handler(h)
	h = authn.WithAuthentication(h, s.access.authenticator, s.log.With("component", "authentication"))
	h = withRequestChecks(h, s.requestTimeout())
	h = withPanicRecovery(h, s.log)
	return h
}

// requestTimeout is the handler's bound on non-watch requests.
func (s *Server) requestTimeout() time.Duration {
	if s.cfg.RequestTimeout != 0 {
		return s.cfg.RequestTimeout
	}
	return 60 * time.Second
}

// LoopbackClientConfig is how the server's own controllers reach it: the
// listen address (127.0.0.1 for an unspecified host), over HTTPS with the
// loopback certificate when TLS is on, with the loopback token (user
// system:apiserver in system:masters).
//
// Mirrors LoopbackClientConfig in k8s.io/apiserver/pkg/server/config.go.
//
// Over plain HTTP, where the system has socketpairs, the config's client
// dials the server's in-process listener instead (client.PipeListener):
// the same URL, Host header, token and handler chain, without the TCP
// stack in each request and watch event. Over TLS it dials the address
// (HTTP/2: one connection for every watch). Upstream always dials the
// address.
//
// The client does not ask for gzip: on loopback a compressed answer (the
// /apis documents over 128 KiB that the controllers' discovery reads)
// costs CPU at both ends and saves nothing. Upstream's loopback client
// asks for it, as every client-go client does by default.
func (s *Server) LoopbackClientConfig() *client.Config {
	cfg := &client.Config{Host: dialAddress(s.Addr()), BearerToken: s.access.loopbackToken}
	switch {
	case s.pipe != nil:
		cfg.HTTPClient = &http.Client{Transport: s.pipe.Transport()}
	case s.access.tls != nil:
		cfg.Host = "https://" + cfg.Host
		cfg.HTTPClient = &http.Client{Transport: &http.Transport{
			TLSClientConfig:    s.access.loopbackRoots.Clone(),
			ForceAttemptHTTP2:  true,
			Proxy:              nil,
			DisableCompression: true,
		}}
	default:
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.Proxy, t.DisableCompression = nil, true
		cfg.HTTPClient = &http.Client{Transport: t}
	}
	return cfg
}

// URL is where clients reach the server: http:// or https:// and the
// address it listens on (127.0.0.1 for an unspecified host).
func (s *Server) URL() string {
	if s.access.tls != nil {
		return "https://" + dialAddress(s.Addr())
	}
	return "http://" + dialAddress(s.Addr())
}

// KubeconfigPath is the kubeconfig written into --self-signed-cert-dir,
// or "" when there is none.
func (s *Server) KubeconfigPath() string { return s.kubeconfigPath }

// dialAddress turns a listen address into one to dial: an unspecified
// host (0.0.0.0, ::) becomes 127.0.0.1.
func dialAddress(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// isLoopbackHost reports whether a listen host only accepts connections
// from this machine: localhost or a loopback IP, or a name that resolves
// to loopback IPs only. An empty host (all interfaces) is not.
func isLoopbackHost(host string) bool {
	if host == "" {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	addrs, err := net.LookupHost(host)
	if err != nil || len(addrs) == 0 {
		return false
	}
	for _, a := range addrs {
		if ip := net.ParseIP(a); ip == nil || !ip.IsLoopback() {
			return false
		}
	}
	return true
}

// withRequestInfo resolves the RequestInfo of every request, once: it is
// the outermost filter, and everything after it — metrics, request
// checks, the limits, authorization, the watch shutdown and the API
// handler, which serves the resource it names — reads the same one.
//
// Mirrors WithRequestInfo in k8s.io/apiserver/pkg/endpoints/filters.
func withRequestInfo(h http.Handler) http.Handler {
	f := request.NewRequestInfoFactory()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(request.WithRequestInfo(r.Context(), f.NewRequestInfo(r))))
	})
}

// withPanicRecovery answers a panic in the front filters with a 500
// Status; the server lives on.
func withPanicRecovery(h http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				log.Error("panic serving request", "path", r.URL.Path, "panic", fmt.Sprint(p))
				responsewriters.WriteError(w, apierrors.NewInternalError(fmt.Errorf("this request caused a panic in the server: %v", p)))
			}
		}()
		h.ServeHTTP(w, r)
	})
}

// withRequestChecks refuses, with a 400 BadRequest, request paths that
// could make a storage key other than the one they seem to name (see
// CheckRequestPath), and with a 415 a body without a Content-Type
// (hostcheck.go says why). A request that is not long-running gets its
// timeout plus a margin to be answered (read and write deadlines), so
// that a client that stalls cannot hold a goroutine forever, and its body
// must arrive at a minimum pace (pacedBody).
func withRequestChecks(h http.Handler, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, _ := request.RequestInfoFrom(r.Context())
		if !isLongRunning(r, info) && timeout > 0 {
			rc := http.NewResponseController(w)
			deadline := time.Now().Add(timeout + 10*time.Second)
			_ = rc.SetReadDeadline(deadline)
			_ = rc.SetWriteDeadline(deadline)
			if hasBody(r) {
				pb := &pacedBody{ReadCloser: r.Body, rc: rc, start: time.Now(), final: deadline}
				defer pb.finish()
				r.Body = pb
				w = &closeOnUnreadBody{ResponseWriter: w, body: pb}
				// A read deadline that passes makes net/http cancel the
				// request's context at once — before the read returns —
				// and the handler's timeout filter would answer that with
				// a 504. A body cut for its pace is the client's fault and
				// gets the handler's 408 instead: the context the handler
				// sees ends with the connection's unless the body was cut.
				parent := r.Context()
				ctx, cancel := context.WithCancelCause(context.WithoutCancel(parent))
				stop := context.AfterFunc(parent, func() {
					if !pb.cut() {
						cancel(context.Cause(parent))
					}
				})
				defer stop()
				defer cancel(nil)
				r = r.WithContext(ctx)
			}
		}
		if err := CheckRequestPath(r, info); err != nil {
			responsewriters.WriteError(w, apierrors.NewBadRequest(err.Error()))
			return
		}
		if hasBody(r) && strings.TrimSpace(r.Header.Get("Content-Type")) == "" && !isKubernetesClient(r) {
			e := apierrors.NewUnsupportedMediaType("", nil)
			e.ErrStatus.Message = "the request has a body but no Content-Type: send it as application/json (or application/yaml, " +
				"a patch type for PATCH); crdlab does not read an unlabelled body as JSON, as a web page's no-cors request is one (docs/access.md)"
			responsewriters.WriteError(w, e)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// isKubernetesClient reports whether a request's User-Agent is client-go's
// default (rest.DefaultKubernetesUserAgent: "kubectl/v1.37.2 (linux/amd64)
// kubernetes/abcdef0"). Such a client may send a body without a
// Content-Type — `kubectl create --raw -f` does — and gets it read as JSON,
// as upstream. A web page cannot send it: User-Agent is not a header a
// no-cors request may set, and a CORS request that sets it needs a
// preflight crdlab never grants.
func isKubernetesClient(r *http.Request) bool {
	ua := r.Header.Get("User-Agent")
	return strings.Contains(ua, ") kubernetes/") && !strings.HasPrefix(ua, "Mozilla/")
}

// hasBody reports whether a request comes with a body: a Content-Length
// above 0, or a chunked (or HTTP/2) body of unknown length.
func hasBody(r *http.Request) bool {
	return r.ContentLength > 0 || r.ContentLength < 0 && r.Body != nil && r.Body != http.NoBody
}

// The pace a request body must keep: after BodyGracePeriod, at least
// MinBodyRate bytes per second on average since the request began. A 3 MiB
// body (the largest the handler takes) may so take up to 106 s, cut at the
// request's own deadline; a client trickling a byte every few seconds
// loses its request after BodyGracePeriod, and with it the in-flight slot
// it held (apiserver/limits).
const (
	BodyGracePeriod = 10 * time.Second
	MinBodyRate     = 32 << 10
)

// pacedBody is a request body read under a moving read deadline: before
// each read, start + BodyGracePeriod + (bytes so far / MinBodyRate), never
// later than final (the request's deadline). Once the body is read to its
// end the deadline goes back to final: over HTTP/1.1 the server then keeps
// a read pending on the connection (to notice a client that goes away),
// and a deadline passing under it would cancel the request.
//
// A read that misses its deadline fails with a 408 Timeout Status, and the
// deadline stays passed: before writing the answer net/http reads what is
// left of an unread body (up to 256 KiB) to keep the connection, and a
// deadline moved on would let the client hold the request that much
// longer; a passed one makes that read fail at once, and net/http closes
// the connection after the answer.
//
// Upstream has no such pace: its bodies are read within the request
// timeout; API Priority and Fairness keeps a slow client to its own share
// of the server.
type pacedBody struct {
	io.ReadCloser
	rc           *http.ResponseController
	start, final time.Time
	// n counts the bytes read; done is set once a read failed or hit EOF.
	// Only the handler's goroutine touches them.
	n    int64
	done bool
	// complete is set once a read hit EOF: the whole body is read.
	complete atomic.Bool
	// deadline is the read deadline of the read under way (UnixNano), 0
	// between reads; late is set iff a read missed it. Read by cut, from
	// the goroutine net/http cancels the request's context on.
	deadline atomic.Int64
	late     atomic.Bool
	// mu orders the read deadlines set through rc with finish: the
	// handler may still read after the request ended (the timeout filter
	// answers, and returns, without waiting for it), and over HTTP/2
	// net/http clears the stream's writer when the request ends, which a
	// SetReadDeadline from the handler's goroutine raced with (seen by
	// -race in TestServer_TLS as the server shut down).
	mu       sync.Mutex
	finished bool // guarded by mu: the request has ended, rc is not to be used
}

// setReadDeadline sets the connection's read deadline, unless the request
// has ended.
func (p *pacedBody) setReadDeadline(t time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.finished {
		_ = p.rc.SetReadDeadline(t)
	}
}

// finish says the request has ended: rc is not used again.
func (p *pacedBody) finish() {
	p.mu.Lock()
	p.finished = true
	p.mu.Unlock()
}

// cut reports whether the body missed its pace: a read failed on its
// deadline, or one is under way and its deadline has passed (net/http
// cancels the request before the read returns).
func (p *pacedBody) cut() bool {
	d := p.deadline.Load()
	return p.late.Load() || d != 0 && time.Now().UnixNano() >= d
}

func (p *pacedBody) Read(b []byte) (int, error) {
	if p.done {
		return p.ReadCloser.Read(b)
	}
	d := p.start.Add(BodyGracePeriod + time.Duration(float64(p.n)/MinBodyRate*float64(time.Second)))
	if d.After(p.final) {
		d = p.final
	}
	if !d.After(time.Now()) {
		// Missed already. Not SetReadDeadline with a time passed: over
		// HTTP/2 that closes the stream's body from this goroutine, racing
		// with the connection's (net/http's onReadTimeout). The deadline
		// set for the previous read, earlier still, stays on the connection.
		p.done = true
		p.late.Store(true)
		return 0, p.tooSlow()
	}
	p.deadline.Store(d.UnixNano())
	p.setReadDeadline(d)
	n, err := p.ReadCloser.Read(b)
	p.n += int64(n)
	if err == nil {
		p.deadline.Store(0)
		return n, nil
	}
	p.done = true
	if err == io.EOF {
		p.complete.Store(true)
	}
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		p.deadline.Store(0)
		p.setReadDeadline(p.final)
		return n, err
	}
	p.late.Store(true)
	return n, p.tooSlow()
}

// tooSlow is the 408 of a body that missed its pace.
func (p *pacedBody) tooSlow() error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure, Code: http.StatusRequestTimeout, Reason: metav1.StatusReasonTimeout,
		Message: fmt.Sprintf("the request body came too slowly: %d bytes in %v; a body must arrive within %v plus a second per %d KiB",
			p.n, time.Since(p.start).Round(time.Millisecond), BodyGracePeriod, MinBodyRate>>10),
	}}
}

// closeOnUnreadBody closes the connection after an error answered before
// the request's body was read to its end — a 400 for the path, a 401,
// 403, 415 or 429, or the 408 of a body cut for its pace — so that
// net/http does not first read what is left of the body (it does, up to
// 256 KiB, to keep the connection): a client that sends its body slowly,
// or never, gets its refusal at once and holds nothing.
// withHostCheck, in front of it, does the same (closeIfBody).
type closeOnUnreadBody struct {
	http.ResponseWriter
	body *pacedBody
}

func (w *closeOnUnreadBody) WriteHeader(code int) {
	if code >= http.StatusBadRequest && !w.body.complete.Load() {
		w.Header().Set("Connection", "close")
	}
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *closeOnUnreadBody) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush passes a flush through.
func (w *closeOnUnreadBody) Flush() { _ = http.NewResponseController(w.ResponseWriter).Flush() }

// closeIfBody makes an answer given before r's body was read close the
// connection (closeOnUnreadBody says why).
func closeIfBody(w http.ResponseWriter, r *http.Request) {
	if hasBody(r) {
		w.Header().Set("Connection", "close")
	}
}

// maxNameLength bounds object names in paths: upstream's longest valid
// name (a DNS subdomain) is 253 bytes.
const maxNameLength = 253

// CheckRequestPath returns an error if r's path is not canonical, holds
// encoded slashes, backslashes, NUL or other control characters, or — for
// a resource request — names a namespace, resource or subresource that is
// not a DNS label, a group that is not a DNS subdomain, a version that is
// not a DNS label, or an object name that is "." or "..", holds "%", or
// is longer than 253 bytes. What passes can only ever become the storage
// key of the object it names: /registry/<group>/<resource>/[<ns>/]<name>
// with every part a single segment.
//
// Upstream has no single place for this: net/http and go-restful clean
// paths, rest.go's checkName and path.IsValidPathSegmentName check names,
// namespace lifecycle admission refuses unknown namespaces.
func CheckRequestPath(r *http.Request, info *request.RequestInfo) error {
	p := r.URL.Path
	for i := 0; i < len(p); i++ {
		if p[i] < 0x20 || p[i] == 0x7f {
			return fmt.Errorf("the request path contains a control character at byte %d", i)
		}
	}
	raw := strings.ToLower(r.URL.EscapedPath())
	for _, bad := range []string{"%2f", "%5c", "%00"} {
		if strings.Contains(raw, bad) {
			return fmt.Errorf("the request path contains an encoded %q, which no API path holds", map[string]string{"%2f": "/", "%5c": `\`, "%00": "NUL"}[bad])
		}
	}
	if strings.Contains(p, `\`) {
		return errors.New(`the request path contains "\", which no API path holds`)
	}
	if p != "/" && path.Clean(p) != strings.TrimSuffix(p, "/") || !strings.HasPrefix(p, "/") {
		return fmt.Errorf("the request path %q is not canonical (empty, \".\" or \"..\" segments): ask for %q", abbreviate(p), path.Clean("/"+p))
	}
	if info == nil || !info.IsResourceRequest {
		return nil
	}
	check := func(what, v string, f func(string) []string) error {
		if v == "" {
			return nil
		}
		if msgs := f(v); len(msgs) > 0 {
			return fmt.Errorf("invalid %s %q in the request path: %s", what, abbreviate(v), strings.Join(msgs, "; "))
		}
		return nil
	}
	return errors.Join(
		check("API group", info.APIGroup, utilvalidation.IsDNS1123Subdomain),
		check("version", info.APIVersion, utilvalidation.IsDNS1123Label),
		check("namespace", info.Namespace, utilvalidation.IsDNS1123Label),
		check("resource", info.Resource, utilvalidation.IsDNS1123Label),
		check("subresource", info.Subresource, utilvalidation.IsDNS1123Label),
		check("name", info.Name, isValidPathSegmentName),
	)
}

// isValidPathSegmentName mirrors path.IsValidPathSegmentName in
// apimachinery/pkg/api/validation/path, with upstream's name length bound.
func isValidPathSegmentName(name string) []string {
	var msgs []string
	if name == "." || name == ".." {
		msgs = append(msgs, fmt.Sprintf("may not be '%s'", name))
	}
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			msgs = append(msgs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	if len(name) > maxNameLength {
		msgs = append(msgs, fmt.Sprintf("must be no more than %d bytes", maxNameLength))
	}
	return msgs
}

func abbreviate(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// isLongRunning reports whether a request may outlive the request
// timeout: a watch (RequestInfo.LongRunning) or the trace event stream
// (/debug/crdlab/events). Such requests get no request deadline, are
// counted in apiserver_longrunning_requests, and take a slot of
// --max-watches, never one of the in-flight request slots.
//
// Mirrors the long-running check upstream's DefaultBuildHandlerChain
// hands to its filters (BasicLongRunningRequestCheck), with crdlab's own
// stream added.
func isLongRunning(r *http.Request, info *request.RequestInfo) bool {
	return info.LongRunning() || r.URL.Path == TraceEventsPath
}
