package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/apiserver/tlsutil"
)

func TestKubeconfig_TokenAndCA(t *testing.T) {
	ss, err := tlsutil.EnsureSelfSigned(t.TempDir(), []string{"localhost"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(ss.Dir, tlsutil.CACertFile)
	t.Run("OK", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		args := []string{"kubeconfig", "--server", "https://10.0.0.5:8443", "--token", "s3cret", "--certificate-authority", caFile}
		if code := run(context.Background(), args, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		var cfg struct {
			Clusters []struct {
				Cluster struct {
					Server string
					CAData string `json:"certificate-authority-data"`
				}
			}
			Users []struct{ User struct{ Token string } }
		}
		if err := yaml.Unmarshal(stdout.Bytes(), &cfg); err != nil {
			t.Fatalf("%v\n%s", err, stdout.String())
		}
		ca, _ := base64.StdEncoding.DecodeString(cfg.Clusters[0].Cluster.CAData)
		if cfg.Clusters[0].Cluster.Server != "https://10.0.0.5:8443" || !bytes.Equal(ca, ss.CACertPEM) || cfg.Users[0].User.Token != "s3cret" {
			t.Errorf("%+v", cfg)
		}
	})
	notPEM := filepath.Join(t.TempDir(), "ca.txt")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"ErrCAOverHTTP", []string{"--server", "http://127.0.0.1:8080", "--certificate-authority", caFile}, "needs an https:// --server"},
		{"ErrCAMissing", []string{"--server", "https://127.0.0.1:8443", "--certificate-authority", "/nonexistent/ca.crt"}, "--certificate-authority"},
		{"ErrCANotPEM", []string{"--server", "https://127.0.0.1:8443", "--certificate-authority", notPEM}, "not a PEM certificate"},
		{"ErrTokenSpace", []string{"--token", "a b"}, "invalid --token"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"kubeconfig"}, tt.args...), nil, &stdout, &stderr)
			if code != 1 || !strings.Contains(stderr.String(), tt.want) || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("exit %d stderr %q, want one line with %q", code, stderr.String(), tt.want)
			}
		})
	}
}

func TestServe_AccessErrors(t *testing.T) {
	dir := t.TempDir()
	badTokens := filepath.Join(dir, "tokens.csv")
	if err := os.WriteFile(badTokens, []byte("only,two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"Public", []string{"--listen", "0.0.0.0:0"}, "error: refusing to serve on 0.0.0.0:0 without authentication: it is not a loopback address"},
		{"PublicAllInterfaces", []string{"--listen", ":0"}, "error: refusing to serve on :0 without authentication"},
		{"TokenFile", []string{"--token-file", badTokens}, "error: --token-file: " + badTokens + ": invalid token file: line 1: want at least 3 columns"},
		{"Mode", []string{"--authorization-mode", "RBAC"}, `error: --authorization-mode: unknown authorization mode "RBAC": want one of AlwaysAllow, ReadOnlyAnonymous, Static`},
		{"StaticWithoutPolicy", []string{"--authorization-mode", "Static"}, "error: --authorization-mode: mode Static needs a policy file (--authorization-policy-file)"},
		{"HalfTLS", []string{"--tls-cert-file", "x.crt"}, "error: --tls-cert-file and --tls-private-key-file go together"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"serve", "--data-dir", t.TempDir()}, tt.args...)
			code := run(context.Background(), args, nil, &stdout, &stderr)
			if code != 1 || !strings.HasPrefix(stderr.String(), tt.want) || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("exit %d stderr %q, want 1 and %q", code, stderr.String(), tt.want)
			}
		})
	}
}
