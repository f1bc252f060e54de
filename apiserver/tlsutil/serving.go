package tlsutil

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"net"
	"os"
	"time"
)

// LoopbackServerName is the TLS server name the loopback client asks for;
// the server answers it with the loopback certificate.
//
// Mirrors LoopbackClientServerNameOverride in
// k8s.io/apiserver/pkg/server/options/serving_with_loopback.go.
const LoopbackServerName = "apiserver-loopback-client"

// NewLoopbackCert makes a self-signed certificate for LoopbackServerName
// and the pool of roots that trusts it (only it), for the server's own
// client. It lives in memory only; a new one is made at every start.
//
// Mirrors the loopback certificate of SecureServingInfo.WithLoopback.
func NewLoopbackCert(now time.Time) (tls.Certificate, *x509.CertPool, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: fmt.Sprintf("%s@%d", LoopbackServerName, now.Unix())},
		NotBefore:             now.Add(-clockSkew),
		NotAfter:              now.Add(ServingLifetime),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{LoopbackServerName},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool, nil
}

// LoadKeyPair reads a serving certificate (a PEM chain, leaf first) and its
// key, as --tls-cert-file and --tls-private-key-file name them, with a
// message that says which flag to look at.
func LoadKeyPair(certFile, keyFile string) (tls.Certificate, error) {
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("--tls-cert-file %s / --tls-private-key-file %s: %w", certFile, keyFile, err)
	}
	if time.Now().After(pair.Leaf.NotAfter) {
		return tls.Certificate{}, fmt.Errorf("--tls-cert-file %s expired on %s", certFile, pair.Leaf.NotAfter.Format(time.DateOnly))
	}
	return pair, nil
}

// ServerConfig is the server's TLS configuration: TLS 1.2 at least,
// HTTP/2 and HTTP/1.1, serving shown to clients and loopback to the
// loopback client (by SNI).
//
// Mirrors (*SecureServingInfo).tlsConfig in
// k8s.io/apiserver/pkg/server/secure_serving.go.
func ServerConfig(serving, loopback tls.Certificate) *tls.Config {
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		NextProtos: []string{"h2", "http/1.1"},
		GetCertificate: func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
			if hello.ServerName == LoopbackServerName {
				return &loopback, nil
			}
			return &serving, nil
		},
	}
}

// ServingHosts are the names a serving certificate for a server listening
// on host (from --listen) must carry: localhost, 127.0.0.1 and ::1, the
// machine's hostname, and host itself — or, for an unspecified host
// (0.0.0.0, ::, ""), the address of every network interface.
func ServingHosts(host string) []string {
	hosts := []string{"localhost", "127.0.0.1", "::1"}
	if name, err := os.Hostname(); err == nil && name != "" {
		hosts = append(hosts, name)
	}
	ip := net.ParseIP(host)
	switch {
	case host == "" || ip != nil && ip.IsUnspecified():
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok && !n.IP.IsLinkLocalUnicast() {
					hosts = append(hosts, n.IP.String())
				}
			}
		}
	default:
		hosts = append(hosts, host)
	}
	return hosts
}
