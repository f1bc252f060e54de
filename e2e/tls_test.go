package e2e

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apiextensionsclientset "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Access to a server with TLS and authentication: crdlab serve
// --self-signed-cert-dir makes a CA and a serving certificate and writes a
// kubeconfig that trusts the CA (with the token file's first token);
// kubectl and client-go use it unchanged. The policy (Static mode) lets
// the admins group do everything and the viewer only read crontabs in
// default.
const (
	tlsTokens = `# token,user,uid,groups
admin-token,admin,1,admins
viewer-token,viewer,2
`
	tlsPolicy = `rules:
- groups: [admins]
  verbs: ["*"]
  apiGroups: ["*"]
  resources: ["*"]
- users: [viewer]
  namespaces: [default]
  verbs: [get, list, watch]
  apiGroups: [stable.example.com]
  resources: [crontabs]
`
	forbiddenDelete = `crontabs.stable.example.com "my-crontab" is forbidden: User "viewer" cannot delete resource "crontabs" in API group "stable.example.com" in the namespace "default"`
)

// startTLSServer starts crdlab serve over TLS with tokens and the Static
// policy above, on a loopback port; s.kubeconfig is the kubeconfig
// the server wrote into its cert dir. It is stopped with SIGTERM when t
// ends.
func startTLSServer(t *testing.T) (s *server, certs string) {
	t.Helper()
	s = newServer(t)
	certs = filepath.Join(s.dir, "certs")
	s.kubeconfig = filepath.Join(certs, "kubeconfig")
	tokens, policy := filepath.Join(s.dir, "tokens.csv"), filepath.Join(s.dir, "policy.yaml")
	for p, content := range map[string]string{tokens: tlsTokens, policy: tlsPolicy} {
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// /readyz over TLS, trusting the CA the server made (written before
	// it listens).
	s.start(t, func() (*http.Client, error) { return caClient(certs) },
		"--self-signed-cert-dir", certs, "--token-file", tokens,
		"--authorization-mode", "Static", "--authorization-policy-file", policy)
	return s, certs
}

// caClient is an HTTP client that trusts only the CA in certs.
func caClient(certs string) (*http.Client, error) {
	ca, err := os.ReadFile(filepath.Join(certs, "ca.crt"))
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		return nil, fmt.Errorf("no certificate in ca.crt")
	}
	return &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}, nil
}

// TestTLS drives a server with TLS, tokens and a policy with kubectl and
// client-go, through the kubeconfig the server wrote.
func TestTLS(t *testing.T) {
	s, certs := startTLSServer(t)

	setup := t.Run("KubectlGeneratedKubeconfig", func(t *testing.T) {
		feature(t, "kubectl", "TLS and a bearer token: the kubeconfig crdlab serve --self-signed-cert-dir writes",
			"KUBECONFIG=certs/kubeconfig kubectl apply, wait, get")
		wantContains(t, s.kubectlOK(t, "apply", "-f", "testdata/crontab-crd.yaml"), "customresourcedefinition.apiextensions.k8s.io/"+crdName+" created")
		s.kubectlOK(t, "wait", "--for", "condition=Established", "crd/"+crdName, "--timeout=60s")
		wantContains(t, s.kubectlOK(t, "apply", "-f", "testdata/crontab.yaml"), "crontab.stable.example.com/my-crontab created")
		wantRow(t, tableOf(t, s.kubectlOK(t, "get", "crontabs")), "my-crontab")
	})
	if !setup {
		t.Fatal("kubectl could not set up the CRD over TLS")
	}

	t.Run("KubectlWrongToken", func(t *testing.T) {
		feature(t, "kubectl", "a wrong bearer token is refused (401)", "kubectl --token wrong get crd")
		wantContains(t, s.kubectlFails(t, "--token", "wrong", "get", "crd"), "Unauthorized")
	})
	t.Run("KubectlForbidden", func(t *testing.T) {
		feature(t, "kubectl", "what the policy does not grant is forbidden (403, upstream's message)",
			"kubectl --token viewer-token get, delete crontabs")
		wantRow(t, tableOf(t, s.kubectlOK(t, "--token", "viewer-token", "get", "crontabs")), "my-crontab")
		stderr := s.kubectlFails(t, "--token", "viewer-token", "delete", "crontab", "my-crontab")
		wantContains(t, stderr, "Error from server (Forbidden): "+forbiddenDelete)
	})
	t.Run("KubectlCrdlabKubeconfig", func(t *testing.T) {
		feature(t, "kubectl", "TLS: crdlab kubeconfig --certificate-authority --token",
			"crdlab kubeconfig --server https://… --token … [--certificate-authority ca.crt]")
		write := func(name string, args ...string) string {
			out, err := exec.Command(binaries.crdlab, append([]string{"kubeconfig", "--server", s.url, "--token", "admin-token"}, args...)...).Output()
			if err != nil {
				t.Fatalf("crdlab kubeconfig: %v%s", err, stderrOf(err))
			}
			p := filepath.Join(s.dir, name)
			if err := os.WriteFile(p, out, 0o600); err != nil {
				t.Fatal(err)
			}
			return p
		}
		untrusted := write("untrusted.kubeconfig")
		trusted := write("trusted.kubeconfig", "--certificate-authority", filepath.Join(certs, "ca.crt"))
		r := s.kubectl(t, "--kubeconfig", untrusted, "get", "crontabs")
		if r.err == nil || !strings.Contains(r.stderr, "certificate signed by unknown authority") {
			t.Errorf("without the CA: %s", r)
		}
		wantRow(t, tableOf(t, s.kubectlOK(t, "--kubeconfig", trusted, "get", "crontabs")), "my-crontab")
	})

	t.Run("ClientGo", func(t *testing.T) {
		feature(t, "client-go", "TLS and a bearer token from the generated kubeconfig: clientset, dynamic client, watch",
			"clientcmd.BuildConfigFromFlags(\"\", certs/kubeconfig)")
		cfg, err := clientcmd.BuildConfigFromFlags("", s.kubeconfig)
		if err != nil {
			t.Fatal(err)
		}
		if len(cfg.CAData) == 0 || cfg.BearerToken != "admin-token" {
			t.Fatalf("kubeconfig: CAData %d bytes, token %q", len(cfg.CAData), cfg.BearerToken)
		}
		cs, err := apiextensionsclientset.NewForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cs.ApiextensionsV1().CustomResourceDefinitions().Get(t.Context(), crdName, metav1.GetOptions{}); err != nil {
			t.Fatalf("get CRD: %v", err)
		}
		ri := dynamicFor(t, cfg).Resource(cronTabs).Namespace("default")
		w, err := ri.Watch(t.Context(), metav1.ListOptions{})
		if err != nil {
			t.Fatalf("watch: %v", err)
		}
		defer w.Stop()
		if _, err := ri.Create(t.Context(), newCronTab("over-tls", "img:1"), metav1.CreateOptions{}); err != nil {
			t.Fatalf("create: %v", err)
		}
		timeout := time.After(eventualTimeout)
		for seen := false; !seen; {
			select {
			case ev, ok := <-w.ResultChan():
				if !ok {
					t.Fatal("watch ended")
				}
				seen = ev.Type == watch.Added && nameOf(ev.Object) == "over-tls"
			case <-timeout:
				t.Fatal("no ADDED event for over-tls")
			}
		}
	})
	t.Run("ClientGoUnauthorizedForbidden", func(t *testing.T) {
		feature(t, "client-go", "401 and 403 as apierrors.IsUnauthorized and IsForbidden", "rest.Config with a wrong and a viewer token")
		cfg, err := clientcmd.BuildConfigFromFlags("", s.kubeconfig)
		if err != nil {
			t.Fatal(err)
		}
		wrong := rest.CopyConfig(cfg)
		wrong.BearerToken = "wrong"
		if _, err := dynamicFor(t, wrong).Resource(cronTabs).Namespace("default").List(t.Context(), metav1.ListOptions{}); !apierrors.IsUnauthorized(err) {
			t.Errorf("wrong token: %v, want Unauthorized", err)
		}
		viewer := rest.CopyConfig(cfg)
		viewer.BearerToken = "viewer-token"
		err = dynamicFor(t, viewer).Resource(cronTabs).Namespace("default").Delete(t.Context(), "my-crontab", metav1.DeleteOptions{})
		if !apierrors.IsForbidden(err) || err.Error() != forbiddenDelete {
			t.Errorf("viewer delete: %v, want Forbidden %q", err, forbiddenDelete)
		}
	})
}

func dynamicFor(t *testing.T, cfg *rest.Config) *dynamic.DynamicClient {
	t.Helper()
	d, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
