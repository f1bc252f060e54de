package apiserver

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apiserver/authz"
	"github.com/crdlab/crdlab/apiserver/limits"
	"github.com/crdlab/crdlab/apiserver/tlsutil"
	"github.com/crdlab/crdlab/handler/request"
)

func TestCheckRequestPath(t *testing.T) {
	long := strings.Repeat("a", 254)
	tests := []struct {
		name, target, want string
	}{
		{"OK", "/apis/stable.example.com/v1/namespaces/default/crontabs/my-cron.1/status", ""},
		{"OKRoot", "/", ""},
		{"OKTrailingSlash", "/apis/", ""},
		{"OKHealth", "/readyz/ping", ""},
		{"OKLongestName", "/apis/g/v1/crontabs/" + long[:253], ""},
		{"ErrDotDot", "/apis/g/v1/namespaces/default/crontabs/..", "not canonical"},
		{"ErrDotDotMiddle", "/apis/g/v1/namespaces/../crontabs/a", "not canonical"},
		{"ErrDot", "/apis/g/v1/./crontabs", "not canonical"},
		{"ErrDoubleSlash", "/apis/g/v1//crontabs", "not canonical"},
		{"ErrEncodedSlash", "/apis/g/v1/namespaces/a%2Fb/crontabs", `encoded "/"`},
		{"ErrEncodedSlashLower", "/apis/g/v1/crontabs/a%2fb", `encoded "/"`},
		{"ErrEncodedBackslash", "/apis/g/v1/crontabs/a%5Cb", `encoded "\\"`},
		{"ErrNUL", "/apis/g/v1/crontabs/a%00b", "control character"},
		{"ErrNewline", "/apis/g/v1/crontabs/a%0Ab", "control character"},
		{"ErrBackslash", `/apis/g/v1/crontabs/a\b`, `"\\"`},
		{"ErrPercent", "/apis/g/v1/crontabs/a%25b", `invalid name "a%b"`},
		{"ErrLongName", "/apis/g/v1/crontabs/" + long, "must be no more than 253 bytes"},
		{"ErrNamespace", "/apis/g/v1/namespaces/Default/crontabs", `invalid namespace "Default"`},
		{"ErrLongNamespace", "/apis/g/v1/namespaces/" + long[:64] + "/crontabs", "invalid namespace"},
		{"ErrResource", "/apis/g/v1/CronTabs", `invalid resource "CronTabs"`},
		{"ErrSubresource", "/apis/g/v1/crontabs/a/Status", `invalid subresource "Status"`},
		{"ErrGroup", "/apis/G_x/v1/crontabs", `invalid API group "G_x"`},
		{"ErrVersion", "/apis/g/V1/crontabs", `invalid version "V1"`},
	}
	f := request.NewRequestInfoFactory()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "http://x"+strings.ReplaceAll(tt.target, `\`, "%5C"), nil)
			if strings.Contains(tt.target, `\`) {
				r.URL.Path, r.URL.RawPath = tt.target, ""
			}
			err := CheckRequestPath(r, f.NewRequestInfo(r))
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("CheckRequestPath(%q) = %v, want %q", tt.target, err, tt.want)
			}
		})
	}
}

// FuzzCheckRequestPath checks that whatever passes CheckRequestPath names
// only single-segment, key-safe parts.
func FuzzCheckRequestPath(f *testing.F) {
	for _, s := range []string{
		"/apis/stable.example.com/v1/namespaces/default/crontabs/a",
		"/apis/g/v1/namespaces/..%2f/crontabs/a%00",
		"/apis/g/v1/crontabs/..",
	} {
		f.Add("GET", s)
	}
	factory := request.NewRequestInfoFactory()
	f.Fuzz(func(t *testing.T, method, target string) {
		r, err := http.NewRequest(method, "http://x"+target, nil)
		if err != nil || r.URL.Host != "x" {
			return
		}
		info := factory.NewRequestInfo(r)
		if CheckRequestPath(r, info) != nil || !info.IsResourceRequest {
			return
		}
		for _, part := range []string{info.APIGroup, info.APIVersion, info.Namespace, info.Resource, info.Subresource} {
			if strings.ContainsAny(part, "/\x00%\\") || part == "." || part == ".." {
				t.Fatalf("%q passed with part %q", target, part)
			}
		}
		if len(info.Parts) >= 2 && (strings.ContainsAny(info.Name, "/%\x00") || info.Name == "." || info.Name == ".." || len(info.Name) > 253) {
			t.Fatalf("%q passed with name %q", target, info.Name)
		}
	})
}

func TestNew_RefusesPublicWithoutAuth(t *testing.T) {
	for _, listen := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		t.Run(listen, func(t *testing.T) {
			_, err := completeNew(&Config{DataDir: t.TempDir(), Listen: listen, Logger: discard})
			if !errors.Is(err, ErrPublicWithoutAuth) || !strings.Contains(err.Error(), "--token-file") || !strings.Contains(err.Error(), "loopback") {
				t.Errorf("err = %v, want ErrPublicWithoutAuth saying how", err)
			}
		})
	}
	t.Run("LoopbackOK", func(t *testing.T) {
		for _, listen := range []string{"127.0.0.1:0", "localhost:0", "[::1]:0"} {
			s, err := completeNew(&Config{DataDir: t.TempDir(), Listen: listen, Logger: discard})
			if err != nil {
				if strings.Contains(listen, "::1") && strings.Contains(err.Error(), "cannot assign") {
					continue // no IPv6 here
				}
				t.Fatalf("%s: %v", listen, err)
			}
			s.Close()
		}
	})
	t.Run("WithTokenFileOK", func(t *testing.T) {
		s, err := completeNew(&Config{DataDir: t.TempDir(), Listen: "0.0.0.0:0", Logger: discard,
			Authentication: AuthenticationConfig{TokenFile: writeFile(t, "tokens.csv", "t,alice,1\n")}})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	})
}

func TestNew_AccessErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"TokenFile", Config{Authentication: AuthenticationConfig{TokenFile: writeFile(t, "bad.csv", "a,b\n")}}, "--token-file"},
		{"Mode", Config{Authorization: AuthorizationConfig{Mode: "RBAC"}}, `unknown authorization mode "RBAC"`},
		{"StaticWithoutPolicy", Config{Authorization: AuthorizationConfig{Mode: authz.ModeStatic}}, "needs a policy file"},
		{"Policy", Config{Authorization: AuthorizationConfig{Mode: authz.ModeStatic, PolicyFile: writeFile(t, "p.yaml", "rules: []")}}, "no rules"},
		{"HalfTLS", Config{SecureServing: SecureServingConfig{CertFile: "x.crt"}}, "go together"},
		{"BothTLS", Config{SecureServing: SecureServingConfig{CertFile: "x.crt", KeyFile: "x.key", SelfSignedCertDir: "d"}}, "exclude each other"},
		{"MissingCert", Config{SecureServing: SecureServingConfig{CertFile: "/nonexistent.crt", KeyFile: "/nonexistent.key"}}, "--tls-cert-file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.DataDir, cfg.Listen, cfg.Logger = t.TempDir(), "127.0.0.1:0", discard
			_, err := completeNew(&cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

var discard = slog.New(slog.DiscardHandler)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// call sends a request with an optional bearer token and returns the code
// and body.
func call(t *testing.T, c *http.Client, method, url, token, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

const (
	crdsPath     = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	crontabsPath = "/apis/stable.example.com/v1/namespaces/default/crontabs"
)

// waitEstablished waits until the controllers (over the loopback client,
// with its token and, over TLS, its certificate) have established the
// CronTab CRD and its custom resources are served.
func waitEstablished(t *testing.T, c *http.Client, url, token string) {
	t.Helper()
	eventually(t, "crontabs served", func() bool {
		code, _ := call(t, c, "GET", url+crontabsPath, token, "")
		return code == 200
	})
}

func TestServer_Authentication(t *testing.T) {
	tokens := writeFile(t, "tokens.csv", "alice-token,alice,1\n")
	ts := startServer(t, Config{Authentication: AuthenticationConfig{TokenFile: tokens}})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })

	for _, p := range []string{"/healthz", "/livez", "/readyz", "/readyz/ping", "/version"} {
		if code, body := call(t, nil, "GET", ts.url+p, "", ""); code != 200 {
			t.Errorf("anonymous GET %s: %d %s", p, code, body)
		}
	}
	for _, c := range []struct{ method, path, token string }{
		{"GET", "/apis", ""},
		{"GET", crdsPath, ""},
		{"GET", "/metrics", ""},
		{"GET", crdsPath, "wrong"},
		{"GET", "/readyz", "wrong"},
	} {
		code, body := call(t, nil, c.method, ts.url+c.path, c.token, "")
		if code != 401 || !strings.Contains(body, `"reason":"Unauthorized"`) || !strings.Contains(body, `"message":"Unauthorized"`) {
			t.Errorf("%s %s token %q: %d %s, want a 401 Status", c.method, c.path, c.token, code, body)
		}
	}
	if code, body := call(t, nil, "POST", ts.url+crdsPath, "alice-token", crdJSON); code != 201 {
		t.Fatalf("alice creates the CRD: %d %s", code, body)
	}
	waitEstablished(t, nil, ts.url, "alice-token")
}

func TestServer_Authorization(t *testing.T) {
	tokens := writeFile(t, "tokens.csv", "alice-token,alice,1,admins\nbob-token,bob,2\n")
	policy := writeFile(t, "policy.yaml", `
rules:
- groups: [admins]
  verbs: ["*"]
  apiGroups: ["*"]
  resources: ["*"]
- users: [bob]
  namespaces: [default]
  verbs: [get, list, watch]
  apiGroups: [stable.example.com]
  resources: [crontabs]
`)
	ts := startServer(t, Config{
		Authentication: AuthenticationConfig{TokenFile: tokens},
		Authorization:  AuthorizationConfig{Mode: authz.ModeStatic, PolicyFile: policy},
	})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	if code, body := call(t, nil, "POST", ts.url+crdsPath, "alice-token", crdJSON); code != 201 {
		t.Fatalf("alice creates the CRD: %d %s", code, body)
	}
	waitEstablished(t, nil, ts.url, "alice-token")
	// The discovery controller publishes the group after the crdHandler
	// serves it: wait for it, as a client's discovery retry would.
	eventually(t, "discovery lists the group", func() bool {
		code, _ := call(t, nil, "GET", ts.url+"/apis/stable.example.com/v1", "alice-token", "")
		return code == 200
	})

	for _, c := range []struct {
		name, method, path, token, body string
		want                            int
		message                         string
	}{
		{"BobList", "GET", crontabsPath, "bob-token", "", 200, ""},
		{"BobDiscovery", "GET", "/apis/stable.example.com/v1", "bob-token", "", 200, ""},
		{"BobCreate", "POST", crontabsPath, "bob-token", `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x"}}`, 403,
			`crontabs.stable.example.com is forbidden: User \"bob\" cannot create resource \"crontabs\" in API group \"stable.example.com\" in the namespace \"default\"`},
		{"BobOtherNamespace", "GET", "/apis/stable.example.com/v1/namespaces/other/crontabs/x", "bob-token", "", 403,
			`crontabs.stable.example.com \"x\" is forbidden: User \"bob\" cannot get resource \"crontabs\" in API group \"stable.example.com\" in the namespace \"other\"`},
		{"BobCRDs", "GET", crdsPath, "bob-token", "", 403,
			`customresourcedefinitions.apiextensions.k8s.io is forbidden: User \"bob\" cannot list resource \"customresourcedefinitions\" in API group \"apiextensions.k8s.io\" at the cluster scope`},
		{"BobMetrics", "GET", "/metrics", "bob-token", "", 403, `forbidden: User \"bob\" cannot get path \"/metrics\"`},
		{"AnonymousList", "GET", crontabsPath, "", "", 403, `User \"system:anonymous\" cannot list resource \"crontabs\"`},
		{"AnonymousDiscovery", "GET", "/apis", "", "", 403, `forbidden: User \"system:anonymous\" cannot get path \"/apis\"`},
		{"AnonymousReadyz", "GET", "/readyz", "", "", 200, ""},
		{"Invalid", "GET", crontabsPath, "nope", "", 401, "Unauthorized"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, body := call(t, nil, c.method, ts.url+c.path, c.token, c.body)
			if code != c.want || c.message != "" && !strings.Contains(body, c.message) {
				t.Errorf("%d %s\nwant %d %s", code, body, c.want, c.message)
			}
		})
	}
}

func TestServer_ReadOnlyAnonymous(t *testing.T) {
	tokens := writeFile(t, "tokens.csv", "alice-token,alice,1\n")
	ts := startServer(t, Config{
		Authentication: AuthenticationConfig{TokenFile: tokens},
		Authorization:  AuthorizationConfig{Mode: authz.ModeReadOnlyAnonymous},
	})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	if code, body := call(t, nil, "POST", ts.url+crdsPath, "", crdJSON); code != 403 || !strings.Contains(body, `User \"system:anonymous\" cannot create`) {
		t.Errorf("anonymous create: %d %s", code, body)
	}
	if code, body := call(t, nil, "POST", ts.url+crdsPath, "alice-token", crdJSON); code != 201 {
		t.Fatalf("alice create: %d %s", code, body)
	}
	waitEstablished(t, nil, ts.url, "")
}

func TestServer_TLS(t *testing.T) {
	certs := filepath.Join(t.TempDir(), "certs")
	tokens := writeFile(t, "tokens.csv", "alice-token,alice,1\n")
	ts := startServer(t, Config{
		Authentication: AuthenticationConfig{TokenFile: tokens},
		SecureServing:  SecureServingConfig{SelfSignedCertDir: certs},
	})
	url := ts.URL()
	if !strings.HasPrefix(url, "https://127.0.0.1:") {
		t.Fatalf("URL %q", url)
	}
	roots := x509.NewCertPool()
	ca, err := os.ReadFile(filepath.Join(certs, tlsutil.CACertFile))
	if err != nil || !roots.AppendCertsFromPEM(ca) {
		t.Fatalf("ca.crt: %v", err)
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}, ForceAttemptHTTP2: true}, Timeout: 10 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	eventually(t, "ready", func() bool { code, _ := call(t, c, "GET", url+"/readyz", "", ""); return code == 200 })

	if code, body := call(t, c, "POST", url+crdsPath, "alice-token", crdJSON); code != 201 {
		t.Fatalf("create the CRD: %d %s", code, body)
	}
	waitEstablished(t, c, url, "alice-token")

	kc, err := os.ReadFile(ts.KubeconfigPath())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"server: " + url + "\n", "certificate-authority-data: ", "token: 'alice-token'\n", "# User alice"} {
		if !strings.Contains(string(kc), want) {
			t.Errorf("kubeconfig lacks %q:\n%s", want, kc)
		}
	}
	if resp, err := http.Get("http://" + ts.Addr() + "/readyz"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == 200 {
			t.Error("plain HTTP answered 200 on the TLS port")
		}
	}
}

func TestServer_Limits(t *testing.T) {
	ts := startServer(t, Config{Limits: limits.Config{MaxWatches: 2}})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	// The CRD informer may hold one slot (it is let through when full).
	var bodies []io.Closer
	t.Cleanup(func() {
		for _, b := range bodies {
			b.Close()
		}
	})
	var got429 bool
	for i := 0; i < 3 && !got429; i++ {
		resp, err := http.Get(ts.url + crdsPath + "?watch=1")
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, resp.Body)
		if resp.StatusCode == 429 {
			got429 = true
			b, _ := io.ReadAll(resp.Body)
			if resp.Header.Get("Retry-After") != "1" || !strings.Contains(string(b), `"reason":"TooManyRequests"`) {
				t.Errorf("429 without Retry-After or Status: %v %s", resp.Header, b)
			}
		}
	}
	if !got429 {
		t.Fatal("three watches with --max-watches=2 and no 429")
	}
	if code, _ := get(t, ts.url+"/readyz"); code != 200 {
		t.Errorf("/readyz %d with the watches full", code)
	}
	if _, body := get(t, ts.url+"/metrics"); !strings.Contains(body, `apiserver_dropped_requests_total{request_kind="watch"} 1`) {
		t.Errorf("metrics:\n%s", body)
	}
}

// TestServer_AuthorizationSeesWhatIsServed checks that a path is served as
// the resource the authorizer was asked about, or not at all: the
// crdHandler reads the request from the same RequestInfo (issue 21,
// finding 2). A CRD whose plural is a special verb (proxy, watch) or a
// subresource of namespaces (status, finalize) has paths RequestInfo reads
// as something else — a discovery path, a namespace's status — which
// users with no right to the CRD may be granted; upstream serves none of
// those paths, and neither does crdlab.
func TestServer_AuthorizationSeesWhatIsServed(t *testing.T) {
	tokens := writeFile(t, "tokens.csv", "alice-token,alice,1,system:masters\nbob-token,bob,2\ncarol-token,carol,3\n")
	policy := writeFile(t, "policy.yaml", `
rules:
- users: [bob]
  namespaces: [default]
  verbs: [get, list, watch]
  apiGroups: [stable.example.com]
  resources: [crontabs]
- users: [carol]
  verbs: [get, list, watch, update, patch]
  apiGroups: ["*"]
  resources: ["*/status", "*/finalize"]
`)
	ts := startServer(t, Config{
		Authentication: AuthenticationConfig{TokenFile: tokens},
		Authorization:  AuthorizationConfig{Mode: authz.ModeStatic, PolicyFile: policy},
	})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	const group = "leak.example.com"
	crd := func(plural, scope string) string {
		return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"` + plural + `.` + group + `"},
"spec":{"group":"` + group + `","scope":"` + scope + `","names":{"plural":"` + plural + `","kind":"Leak` + plural + `"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`
	}
	for _, c := range []struct{ plural, scope, collection, user, token string }{
		{"proxy", "Cluster", "/apis/" + group + "/v1/proxy", "bob", "bob-token"},
		{"watch", "Cluster", "/apis/" + group + "/v1/watch", "bob", "bob-token"},
		{"status", "Namespaced", "/apis/" + group + "/v1/namespaces/default/status", "carol", "carol-token"},
		{"finalize", "Namespaced", "/apis/" + group + "/v1/namespaces/default/finalize", "carol", "carol-token"},
	} {
		t.Run(c.plural, func(t *testing.T) {
			if code, body := call(t, nil, "POST", ts.url+crdsPath, "alice-token", crd(c.plural, c.scope)); code != 201 {
				t.Fatalf("alice creates the CRD: %d %s", code, body)
			}
			eventually(t, "the CRD is Established", func() bool {
				_, body := call(t, nil, "GET", ts.url+crdsPath+"/"+c.plural+"."+group, "alice-token", "")
				return strings.Contains(body, `"type":"Established","status":"True"`)
			})
			// An object, if any path will create one: the old router did.
			obj := `{"apiVersion":"` + group + `/v1","kind":"Leak` + c.plural + `","metadata":{"name":"secret-1"},"data":"s3cr3t"}`
			created, _ := call(t, nil, "POST", ts.url+c.collection, "alice-token", obj)
			for _, r := range []struct{ method, path, body string }{
				{"GET", c.collection, ""},
				{"GET", c.collection + "?watch=true&timeoutSeconds=1", ""},
				{"GET", c.collection + "/secret-1", ""},
				{"PATCH", c.collection + "/secret-1", `{"data":"changed"}`},
				{"PUT", c.collection + "/secret-1", strings.Replace(obj, "s3cr3t", "changed", 1)},
				{"DELETE", c.collection + "/secret-1", ""},
			} {
				code, body := callAs(t, r.method, ts.url+r.path, c.token, r.body)
				if code < 400 || strings.Contains(body, "s3cr3t") {
					t.Errorf("%s %s %s as %s: %d %s", c.plural, r.method, r.path, c.user, code, body)
				}
			}
			if created == 201 {
				t.Errorf("%s: alice created an object at %s, a path upstream does not serve", c.plural, c.collection)
			}
		})
	}
}

// callAs is call with a merge patch's content type for PATCH.
func callAs(t *testing.T, method, url, token, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
		if method == "PATCH" {
			req.Header.Set("Content-Type", "application/merge-patch+json")
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
