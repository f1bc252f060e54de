package reliability

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/apiserver/tlsutil"
)

// TestAccess_RefusesPublicWithoutAuth: crdlab serve on an address other
// machines can reach, without --token-file, exits at once with a message
// that says why and how to fix it.
func TestAccess_RefusesPublicWithoutAuth(t *testing.T) {
	for _, listen := range []string{"0.0.0.0:0", ":0"} {
		t.Run(listen, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, crdlabBinary, "serve", "--listen", listen, "--data-dir", t.TempDir())
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("exit %v, want 1\n%s", err, out)
			}
			for _, want := range []string{"refusing to serve on " + listen + " without authentication", "not a loopback address",
				"--token-file", "--self-signed-cert-dir", "127.0.0.1:8080"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

// TestAccess_TokensAndPolicy drives a server with a token file and a
// Static policy: 401 for missing and wrong tokens, 403 with upstream's
// message for what the policy does not grant, health endpoints for all.
func TestAccess_TokensAndPolicy(t *testing.T) {
	dir := t.TempDir()
	tokens := writeFile(t, dir, "tokens.csv", "# token,user,uid,groups\nadmin-token,admin,1,admins\nviewer-token,viewer,2\n")
	policy := writeFile(t, dir, "policy.yaml", `
rules:
- groups: [admins]
  verbs: ["*"]
  apiGroups: ["*"]
  resources: ["*"]
- groups: [admins]
  verbs: [get]
  nonResourceURLs: ["/metrics", "/debug/*"]
- users: [viewer]
  namespaces: [default]
  verbs: [get, list, watch]
  apiGroups: [stable.example.com]
  resources: [crontabs]
`)
	args := []string{"--token-file", tokens, "--authorization-mode", "Static", "--authorization-policy-file", policy}
	admin := startServer(t, filepath.Join(dir, "data"), serverOptions{args: args, token: "admin-token"})
	setupCRD(admin)
	admin.must(201, "POST", crontabsPath, cronTab("default", "c1", "admin", 1))

	for _, c := range []struct {
		name, token, method, path string
		code                      int
		message                   string
	}{
		{"NoToken", "", "GET", crontabsPath, 403, `User "system:anonymous" cannot list resource "crontabs" in API group "stable.example.com" in the namespace "default"`},
		{"WrongToken", "guess", "GET", crontabsPath, 401, "Unauthorized"},
		{"WrongTokenHealth", "guess", "GET", "/readyz", 401, "Unauthorized"},
		{"AnonymousHealthz", "", "GET", "/healthz", 200, ""},
		{"AnonymousReadyzCheck", "", "GET", "/readyz/ping", 200, ""},
		{"AnonymousVersion", "", "GET", "/version", 200, ""},
		{"AnonymousDiscovery", "", "GET", "/apis", 403, `forbidden: User "system:anonymous" cannot get path "/apis"`},
		{"ViewerList", "viewer-token", "GET", crontabsPath, 200, ""},
		{"ViewerGet", "viewer-token", "GET", crontabsPath + "/c1", 200, ""},
		{"ViewerDiscovery", "viewer-token", "GET", "/apis/stable.example.com/v1", 200, ""},
		{"ViewerDelete", "viewer-token", "DELETE", crontabsPath + "/c1", 403,
			`crontabs.stable.example.com "c1" is forbidden: User "viewer" cannot delete resource "crontabs" in API group "stable.example.com" in the namespace "default"`},
		{"ViewerOtherNamespace", "viewer-token", "GET", "/apis/stable.example.com/v1/namespaces/kube-system/crontabs", 403,
			`User "viewer" cannot list resource "crontabs" in API group "stable.example.com" in the namespace "kube-system"`},
		{"ViewerAllNamespaces", "viewer-token", "GET", allCrontabs, 403,
			`User "viewer" cannot list resource "crontabs" in API group "stable.example.com" at the cluster scope`},
		{"ViewerCRDs", "viewer-token", "GET", crdsPath + "/" + crdName, 403,
			`customresourcedefinitions.apiextensions.k8s.io "crontabs.stable.example.com" is forbidden: User "viewer" cannot get resource "customresourcedefinitions" in API group "apiextensions.k8s.io" at the cluster scope`},
		{"ViewerMetrics", "viewer-token", "GET", "/metrics", 403, `forbidden: User "viewer" cannot get path "/metrics"`},
		{"AdminMetrics", "admin-token", "GET", "/metrics", 200, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &server{t: t, url: admin.url, client: newClient(nil, c.token), exited: admin.exited}
			code, b, err := s.do(context.Background(), c.method, c.path, "")
			if err != nil || code != c.code {
				t.Fatalf("%d %v %s, want %d", code, err, b, c.code)
			}
			if c.code >= 400 {
				var st struct{ Kind, Reason, Message string }
				if json.Unmarshal(b, &st) != nil || st.Kind != "Status" || st.Message != c.message && !strings.Contains(st.Message, c.message) {
					t.Errorf("answer %s, want a Status with %q", b, c.message)
				}
			}
		})
	}
	admin.stop()
}

// TestAccess_SelfSignedTLS: --self-signed-cert-dir makes a CA and a
// serving certificate on first start and writes a kubeconfig that trusts
// it; a restart keeps both; a client trusting only that CA gets in, one
// trusting the system roots does not.
func TestAccess_SelfSignedTLS(t *testing.T) {
	dir := t.TempDir()
	certs := filepath.Join(dir, "certs")
	tokens := writeFile(t, dir, "tokens.csv", "alice-token,alice,1\n")
	args := []string{"--token-file", tokens, "--self-signed-cert-dir", certs}

	roots := func() *tls.Config {
		pool := x509.NewCertPool()
		ca, err := os.ReadFile(filepath.Join(certs, tlsutil.CACertFile))
		if err != nil || !pool.AppendCertsFromPEM(ca) {
			t.Fatalf("ca.crt: %v", err)
		}
		return &tls.Config{RootCAs: pool}
	}
	// The CA does not exist before the first start: start with a config
	// that trusts nothing yet, then switch.
	s := startServerTLS(t, filepath.Join(dir, "data"), args, certs, "alice-token", roots)
	setupCRD(s)
	s.must(201, "POST", crontabsPath, cronTab("default", "c1", "alice", 1))
	ca1 := readFile(t, certs, tlsutil.CACertFile)
	serving1 := readFile(t, certs, tlsutil.ServingCertFile)

	// The kubeconfig: the server's URL, the CA, alice's token.
	var kc struct {
		Clusters []struct {
			Cluster struct {
				Server string
				CAData string `json:"certificate-authority-data"`
			}
		}
		Users []struct{ User struct{ Token string } }
	}
	if err := yaml.Unmarshal(readFile(t, certs, tlsutil.KubeconfigFile), &kc); err != nil {
		t.Fatal(err)
	}
	caData, _ := base64.StdEncoding.DecodeString(kc.Clusters[0].Cluster.CAData)
	if kc.Clusters[0].Cluster.Server != s.url || !bytes.Equal(caData, ca1) || kc.Users[0].User.Token != "alice-token" {
		t.Errorf("kubeconfig: server %q (want %q), CA matches %v, token %q", kc.Clusters[0].Cluster.Server, s.url, bytes.Equal(caData, ca1), kc.Users[0].User.Token)
	}
	// Untrusted clients fail the handshake.
	untrusted := &server{t: t, url: s.url, client: newClient(&tls.Config{}, "alice-token"), exited: s.exited}
	if _, _, err := untrusted.do(context.Background(), "GET", "/readyz", ""); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("a client without the CA: %v, want a certificate error", err)
	}
	s.stop()

	// Restart: same CA, same serving certificate, the object is there.
	s = startServerTLS(t, filepath.Join(dir, "data"), args, certs, "alice-token", roots)
	waitServed(s)
	s.must(200, "GET", crontabsPath+"/c1", "")
	if !bytes.Equal(readFile(t, certs, tlsutil.CACertFile), ca1) || !bytes.Equal(readFile(t, certs, tlsutil.ServingCertFile), serving1) {
		t.Error("a restart replaced the CA or the serving certificate")
	}
	s.stop()
}

// startServerTLS starts a TLS server whose CA is made by its first start:
// the client's TLS config is read (roots) once the server has written it.
func startServerTLS(t *testing.T, dataDir string, args []string, certs, token string, roots func() *tls.Config) *server {
	t.Helper()
	// The CA is written before the server listens, so it is there once
	// the process says where it listens; waitReady needs it.
	s := startServerNoWait(t, dataDir, serverOptions{args: args, token: token, tls: &tls.Config{}})
	s.client = newClient(roots(), token)
	s.waitReady()
	return s
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func readFile(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAccess_AuthorizationSeesWhatIsServed (issue 21, finding 2): a CRD
// whose plural RequestInfo reads specially — proxy or watch (cluster
// scope), status or finalize (a namespace's subresources) — has paths the
// authorizer reads as something else: a GET of a discovery path, or the
// status of a namespace. Nothing is served on them, as upstream: the
// admin (granted every resource and every non-resource path, like
// upstream's cluster-admin) cannot create an object there, and a viewer
// granted only crontabs
// in default, or a user granted only */status and */finalize, reads and
// changes nothing through them.
func TestAccess_AuthorizationSeesWhatIsServed(t *testing.T) {
	dir := t.TempDir()
	tokens := writeFile(t, dir, "tokens.csv", "admin-token,admin,1,admins\nviewer-token,viewer,2\nstatus-token,statususer,3\n")
	policy := writeFile(t, dir, "policy.yaml", `
rules:
- groups: [admins]
  verbs: ["*"]
  apiGroups: ["*"]
  resources: ["*"]
- groups: [admins]
  verbs: ["*"]
  nonResourceURLs: ["*"]
- users: [viewer]
  namespaces: [default]
  verbs: [get, list, watch]
  apiGroups: [stable.example.com]
  resources: [crontabs]
- users: [statususer]
  verbs: [get, list, watch, update, patch]
  apiGroups: ["*"]
  resources: ["*/status", "*/finalize"]
`)
	args := []string{"--token-file", tokens, "--authorization-mode", "Static", "--authorization-policy-file", policy}
	admin := startServer(t, filepath.Join(dir, "data"), serverOptions{args: args, token: "admin-token"})
	const group = "leak.example.com"
	for _, c := range []struct{ plural, scope, collection, token string }{
		{"proxy", "Cluster", "/apis/" + group + "/v1/proxy", "viewer-token"},
		{"watch", "Cluster", "/apis/" + group + "/v1/watch", "viewer-token"},
		{"status", "Namespaced", "/apis/" + group + "/v1/namespaces/default/status", "status-token"},
		{"finalize", "Namespaced", "/apis/" + group + "/v1/namespaces/default/finalize", "status-token"},
	} {
		t.Run(c.plural, func(t *testing.T) {
			admin.t = t
			admin.must(201, "POST", crdsPath, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"`+c.plural+`.`+group+`"},
"spec":{"group":"`+group+`","scope":"`+c.scope+`","names":{"plural":"`+c.plural+`","kind":"Leak`+c.plural+`"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`)
			admin.poll("the CRD is Established", func() bool {
				_, b, err := admin.do(context.Background(), "GET", crdsPath+"/"+c.plural+"."+group, "")
				return err == nil && strings.Contains(string(b), `"type":"Established","status":"True"`)
			})
			obj := `{"apiVersion":"` + group + `/v1","kind":"Leak` + c.plural + `","metadata":{"name":"secret-1"},"data":"s3cr3t"}`
			if code, b, err := admin.do(context.Background(), "POST", c.collection, obj); err != nil || code < 400 {
				t.Errorf("the admin created an object at %s, a path upstream does not serve: %d %v %s", c.collection, code, err, b)
			}
			user := &server{t: t, url: admin.url, client: newClient(nil, c.token), exited: admin.exited}
			for _, r := range []struct{ method, path, body string }{
				{"GET", c.collection, ""},
				{"GET", c.collection + "?watch=true&timeoutSeconds=1", ""},
				{"GET", c.collection + "/secret-1", ""},
				{"PATCH", c.collection + "/secret-1", `{"data":"changed"}`},
				{"PUT", c.collection + "/secret-1", strings.Replace(obj, "s3cr3t", "changed", 1)},
				{"DELETE", c.collection + "/secret-1", ""},
			} {
				code, b, err := user.do(context.Background(), r.method, r.path, r.body)
				if err != nil || code < 400 || strings.Contains(string(b), "s3cr3t") {
					t.Errorf("%s %s: %d %v %s, want an error and no object", r.method, r.path, code, err, b)
				}
			}
		})
	}
	admin.t = t
	admin.stop()
}
