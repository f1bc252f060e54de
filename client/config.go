package client

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/crdlab/crdlab/client/flowcontrol"
	"github.com/crdlab/crdlab/scheme"
)

// The rate limit a Config with QPS 0 gets, as in client-go.
const (
	DefaultQPS   float32 = 5.0
	DefaultBurst int     = 10
)

// Config says how to reach a server and how to behave towards it. The zero
// values are usable defaults except Host.
//
// Mirrors k8s.io/client-go/rest.Config (the fields crdlab needs).
type Config struct {
	// Host is the server: a URL ("https://127.0.0.1:6443", with an optional
	// path prefix) or a host:port pair, which means http.
	Host string
	// APIPath is the path before the group and version: "/apis" for named
	// groups, "/api" for the legacy core group. RESTClientFor defaults it
	// from GroupVersion when empty.
	APIPath string
	// GroupVersion is the API group and version a RESTClient talks to.
	// RESTClientFor requires it; UnversionedRESTClientFor ignores it.
	GroupVersion *scheme.GroupVersion

	// BearerToken, if set, is sent as "Authorization: Bearer <token>".
	BearerToken string

	// QPS is the average number of requests per second; 0 means DefaultQPS
	// and a negative QPS turns rate limiting off.
	QPS float32
	// Burst is the number of requests that may go at once; 0 means
	// DefaultBurst.
	Burst int
	// RateLimiter, if set, is used instead of a limiter built from QPS and
	// Burst; clients sharing one limiter share its budget.
	RateLimiter flowcontrol.RateLimiter

	// Timeout bounds each request but watches (and is sent to the server as
	// the timeout parameter). 0 means no timeout.
	Timeout time.Duration
	// UserAgent is sent as User-Agent; empty means DefaultUserAgent().
	UserAgent string
	// HTTPClient sends the requests; nil means a new http.Client over
	// http.DefaultTransport. Set it to reach a TLS server (its Transport
	// carries the TLS config), e.g. httptest.Server.Client().
	HTTPClient *http.Client
}

// DefaultUserAgent returns "<command>/crdlab (<os>/<arch>)".
//
// Mirrors k8s.io/client-go/rest.DefaultKubernetesUserAgent.
func DefaultUserAgent() string {
	command := "unknown"
	if len(os.Args) > 0 && os.Args[0] != "" {
		command = filepath.Base(os.Args[0])
	}
	return fmt.Sprintf("%s/crdlab (%s/%s)", command, runtime.GOOS, runtime.GOARCH)
}

// DefaultVersionedAPIPath returns the path prefix of gv: "/apis/g/v", or
// "/api/v" for the core group.
//
// Mirrors k8s.io/client-go/rest.DefaultVersionedAPIPath.
func DefaultVersionedAPIPath(apiPath string, gv scheme.GroupVersion) string {
	return path.Join("/", apiPath, gv.Group, gv.Version)
}

// ErrGroupVersionRequired says RESTClientFor was given no GroupVersion.
var ErrGroupVersionRequired = errors.New("client: GroupVersion is required when initializing a RESTClient")

// RESTClientFor returns a RESTClient for config.GroupVersion: requests are
// made under /apis/<group>/<version> (or /api/<version>).
//
// Mirrors k8s.io/client-go/rest.RESTClientFor.
func RESTClientFor(config *Config) (*RESTClient, error) {
	if config.GroupVersion == nil {
		return nil, ErrGroupVersionRequired
	}
	gv := *config.GroupVersion
	apiPath := config.APIPath
	if apiPath == "" {
		apiPath = "/apis"
		if gv.Group == "" {
			apiPath = "/api"
		}
	}
	return newRESTClient(config, DefaultVersionedAPIPath(apiPath, gv), gv)
}

// UnversionedRESTClientFor returns a RESTClient with no path prefix, for
// discovery and other requests that name their whole path with AbsPath.
//
// Mirrors k8s.io/client-go/rest.UnversionedRESTClientFor.
func UnversionedRESTClientFor(config *Config) (*RESTClient, error) {
	var gv scheme.GroupVersion
	if config.GroupVersion != nil {
		gv = *config.GroupVersion
	}
	return newRESTClient(config, "", gv)
}

func newRESTClient(config *Config, versionedAPIPath string, gv scheme.GroupVersion) (*RESTClient, error) {
	base, err := defaultServerURL(config.Host)
	if err != nil {
		return nil, err
	}
	limiter, err := rateLimiterFor(config)
	if err != nil {
		return nil, err
	}
	httpClient := config.HTTPClient
	if httpClient == nil {
		httpClient = &http.Client{}
	}
	userAgent := config.UserAgent
	if userAgent == "" {
		userAgent = DefaultUserAgent()
	}
	return &RESTClient{
		base:             base,
		versionedAPIPath: versionedAPIPath,
		groupVersion:     gv,
		client:           httpClient,
		rateLimiter:      limiter,
		bearerToken:      config.BearerToken,
		userAgent:        userAgent,
		timeout:          config.Timeout,
	}, nil
}

// rateLimiterFor applies client-go's rules: an explicit limiter wins; QPS 0
// means DefaultQPS; QPS < 0 means none.
func rateLimiterFor(config *Config) (flowcontrol.RateLimiter, error) {
	if config.RateLimiter != nil {
		return config.RateLimiter, nil
	}
	qps, burst := config.QPS, config.Burst
	if qps == 0 {
		qps = DefaultQPS
	}
	if burst == 0 {
		burst = DefaultBurst
	}
	if qps < 0 {
		return nil, nil
	}
	if burst < 0 {
		return nil, fmt.Errorf("client: burst must be positive when QPS is positive, got %d", burst)
	}
	return flowcontrol.NewTokenBucketRateLimiter(qps, burst), nil
}

// defaultServerURL parses host, which may lack a scheme (then http).
//
// Mirrors k8s.io/client-go/rest.DefaultServerURL.
func defaultServerURL(host string) (*url.URL, error) {
	if host == "" {
		return nil, errors.New("client: host must be a URL or a host:port pair")
	}
	base := host
	if !strings.Contains(base, "://") {
		base = "http://" + base
	}
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("client: host %q: %w", host, err)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("client: host %q has no host:port", host)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("client: host %q must not have a query or fragment", host)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	return u, nil
}
