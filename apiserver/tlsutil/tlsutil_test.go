package tlsutil_test

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/apiserver/tlsutil"
)

func read(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// verify checks that the serving certificate chains to the CA for host.
func verify(t *testing.T, s *tlsutil.SelfSigned, host string, now time.Time) {
	t.Helper()
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(s.CACertPEM) {
		t.Fatal("CACertPEM holds no certificate")
	}
	if _, err := s.Serving.Leaf.Verify(x509.VerifyOptions{DNSName: host, Roots: roots, CurrentTime: now}); err != nil {
		t.Errorf("serving certificate for %q: %v", host, err)
	}
}

func TestEnsureSelfSigned(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	hosts := []string{"localhost", "127.0.0.1", "::1"}

	t.Run("CreateThenReuse", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "certs")
		s, err := tlsutil.EnsureSelfSigned(dir, hosts, now)
		if err != nil {
			t.Fatal(err)
		}
		if !s.CreatedCA || !s.IssuedServing {
			t.Errorf("first start: CreatedCA %v IssuedServing %v", s.CreatedCA, s.IssuedServing)
		}
		for _, h := range hosts {
			verify(t, s, h, now)
		}
		for name, perm := range map[string]os.FileMode{tlsutil.CAKeyFile: 0o600, tlsutil.ServingKeyFile: 0o600, tlsutil.CACertFile: 0o644, ".": 0o700} {
			fi, err := os.Stat(filepath.Join(dir, name))
			if err != nil || fi.Mode().Perm() != perm {
				t.Errorf("%s: %v %v, want %v", name, fi.Mode().Perm(), err, perm)
			}
		}
		ca, serving := read(t, dir, tlsutil.CACertFile), read(t, dir, tlsutil.ServingCertFile)

		again, err := tlsutil.EnsureSelfSigned(dir, hosts, now.Add(24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if again.CreatedCA || again.IssuedServing || !bytes.Equal(read(t, dir, tlsutil.ServingCertFile), serving) || !bytes.Equal(again.CACertPEM, ca) {
			t.Errorf("second start changed the certificates: CreatedCA %v IssuedServing %v", again.CreatedCA, again.IssuedServing)
		}
	})
	t.Run("NewHostReissuesServing", func(t *testing.T) {
		dir := t.TempDir()
		first, err := tlsutil.EnsureSelfSigned(dir, hosts, now)
		if err != nil {
			t.Fatal(err)
		}
		s, err := tlsutil.EnsureSelfSigned(dir, append(hosts, "crdlab.example.com", "10.1.2.3"), now)
		if err != nil {
			t.Fatal(err)
		}
		if s.CreatedCA || !s.IssuedServing || !bytes.Equal(s.CACertPEM, first.CACertPEM) {
			t.Errorf("CreatedCA %v IssuedServing %v, CA kept %v", s.CreatedCA, s.IssuedServing, bytes.Equal(s.CACertPEM, first.CACertPEM))
		}
		verify(t, s, "crdlab.example.com", now)
		verify(t, s, "10.1.2.3", now)
	})
	t.Run("ExpiringReissuesServing", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := tlsutil.EnsureSelfSigned(dir, hosts, now); err != nil {
			t.Fatal(err)
		}
		later := now.Add(tlsutil.ServingLifetime - tlsutil.RenewBefore + time.Hour)
		s, err := tlsutil.EnsureSelfSigned(dir, hosts, later)
		if err != nil {
			t.Fatal(err)
		}
		if s.CreatedCA || !s.IssuedServing {
			t.Errorf("CreatedCA %v IssuedServing %v", s.CreatedCA, s.IssuedServing)
		}
		verify(t, s, "localhost", later.Add(300*24*time.Hour))
	})
	t.Run("ErrHalfCA", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := tlsutil.EnsureSelfSigned(dir, hosts, now); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(dir, tlsutil.CAKeyFile)); err != nil {
			t.Fatal(err)
		}
		if _, err := tlsutil.EnsureSelfSigned(dir, hosts, now); !errors.Is(err, tlsutil.ErrCertDir) {
			t.Errorf("err = %v, want ErrCertDir: a CA clients trust must never be replaced silently", err)
		}
	})
	t.Run("ErrExpiredCA", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := tlsutil.EnsureSelfSigned(dir, hosts, now); err != nil {
			t.Fatal(err)
		}
		if _, err := tlsutil.EnsureSelfSigned(dir, hosts, now.Add(tlsutil.CALifetime+time.Hour)); !errors.Is(err, tlsutil.ErrCertDir) {
			t.Errorf("err = %v, want ErrCertDir", err)
		}
	})
	t.Run("ErrNotACA", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := tlsutil.EnsureSelfSigned(dir, hosts, now); err != nil {
			t.Fatal(err)
		}
		// Put the serving pair where the CA was.
		for from, to := range map[string]string{tlsutil.ServingCertFile: tlsutil.CACertFile, tlsutil.ServingKeyFile: tlsutil.CAKeyFile} {
			if err := os.WriteFile(filepath.Join(dir, to), read(t, dir, from), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := tlsutil.EnsureSelfSigned(dir, hosts, now); !errors.Is(err, tlsutil.ErrCertDir) {
			t.Errorf("err = %v, want ErrCertDir", err)
		}
	})
}

// TestServerConfig runs a real TLS server: clients that trust the CA
// reach it by name, the loopback client by the loopback server name.
func TestServerConfig(t *testing.T) {
	s, err := tlsutil.EnsureSelfSigned(t.TempDir(), []string{"localhost", "127.0.0.1"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	loopback, loopbackRoots, err := tlsutil.NewLoopbackCert(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Proto)
	}), TLSConfig: tlsutil.ServerConfig(s.Serving, loopback)}
	go srv.ServeTLS(ln, "", "")
	t.Cleanup(func() { srv.Close() })

	get := func(cfg *tls.Config) (string, error) {
		c := &http.Client{Transport: &http.Transport{TLSClientConfig: cfg, ForceAttemptHTTP2: true}, Timeout: 10 * time.Second}
		defer c.CloseIdleConnections()
		resp, err := c.Get("https://" + ln.Addr().String())
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(s.CACertPEM)
	if proto, err := get(&tls.Config{RootCAs: roots}); err != nil || proto != "HTTP/2.0" {
		t.Errorf("client trusting the CA: %q %v, want HTTP/2.0", proto, err)
	}
	if _, err := get(&tls.Config{RootCAs: roots, ServerName: "elsewhere.example.com"}); err == nil {
		t.Error("a name the certificate lacks was accepted")
	}
	if _, err := get(&tls.Config{}); err == nil {
		t.Error("a client trusting only the system roots was accepted")
	}
	if _, err := get(&tls.Config{RootCAs: loopbackRoots, ServerName: tlsutil.LoopbackServerName}); err != nil {
		t.Errorf("loopback client: %v", err)
	}
	if _, err := get(&tls.Config{RootCAs: roots, ServerName: tlsutil.LoopbackServerName}); err == nil {
		t.Error("the operator's CA vouched for the loopback certificate")
	}
	if _, err := get(&tls.Config{RootCAs: roots, MaxVersion: tls.VersionTLS11}); err == nil {
		t.Error("TLS 1.1 was accepted")
	}
}

func TestKubeconfig(t *testing.T) {
	ca := []byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
	for _, tt := range []struct{ name, token, want string }{
		{"Token", "s3cret", "s3cret"},
		{"DummyToken", "", tlsutil.DummyToken},
		{"TokenThatLooksLikeYAML", "true", "true"},
		{"TokenWithQuote", "it's", "it's"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := tlsutil.Kubeconfig(tlsutil.KubeconfigOptions{Server: "https://127.0.0.1:8443", CAData: ca, Token: tt.token, Comment: "a\nb"})
			var cfg struct {
				Clusters []struct {
					Cluster struct {
						Server string
						CAData string `json:"certificate-authority-data"`
					}
				}
				Users []struct{ User struct{ Token string } }
			}
			if err := yaml.Unmarshal(b, &cfg); err != nil {
				t.Fatalf("%v\n%s", err, b)
			}
			data, _ := base64.StdEncoding.DecodeString(cfg.Clusters[0].Cluster.CAData)
			if cfg.Clusters[0].Cluster.Server != "https://127.0.0.1:8443" || !bytes.Equal(data, ca) || cfg.Users[0].User.Token != tt.want ||
				!bytes.HasPrefix(b, []byte("# a\n# b\napiVersion: v1\n")) {
				t.Errorf("%+v\n%s", cfg, b)
			}
		})
	}
}
