package tlsutil

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Files of a self-signed cert dir.
const (
	CACertFile      = "ca.crt"
	CAKeyFile       = "ca.key"
	ServingCertFile = "apiserver.crt"
	ServingKeyFile  = "apiserver.key"
	KubeconfigFile  = "kubeconfig"
)

// Lifetimes of what EnsureSelfSigned makes.
const (
	CALifetime      = 10 * 365 * 24 * time.Hour
	ServingLifetime = 365 * 24 * time.Hour
	// RenewBefore: a serving certificate that expires sooner is re-issued.
	RenewBefore = 30 * 24 * time.Hour
	// clockSkew backdates NotBefore, as upstream does, for clients whose
	// clock is a little behind.
	clockSkew = time.Hour
)

// ErrCertDir says the self-signed cert dir holds a CA that cannot be used.
var ErrCertDir = errors.New("unusable self-signed cert dir")

// SelfSigned is the state of a self-signed cert dir after EnsureSelfSigned.
type SelfSigned struct {
	Dir string
	// CACertPEM is the CA certificate, for kubeconfigs.
	CACertPEM []byte
	// Serving is the serving certificate and key.
	Serving tls.Certificate
	// CreatedCA and IssuedServing say what EnsureSelfSigned made this time
	// (for the log): a new CA, a new serving certificate.
	CreatedCA, IssuedServing bool
}

// EnsureSelfSigned makes dir hold a CA and a serving certificate for hosts
// (DNS names or IPs) that is valid for at least RenewBefore after now: it
// creates the CA on first use, and issues a serving certificate when there
// is none, one that misses a host, or one about to expire.
//
// Mirrors GenerateSelfSignedCertKeyWithFixtures in client-go/util/cert, as
// used by SecureServingOptions.MaybeDefaultWithSelfSignedCerts.
func EnsureSelfSigned(dir string, hosts []string, now time.Time) (*SelfSigned, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	s := &SelfSigned{Dir: dir}
	caCert, caKey, err := loadCA(dir, now)
	if errors.Is(err, fs.ErrNotExist) {
		caCert, caKey, err = newCA(now)
		if err == nil {
			err = writeKeyPair(dir, CACertFile, CAKeyFile, caCert.Raw, caKey)
		}
		s.CreatedCA = true
	}
	if err != nil {
		return nil, err
	}
	s.CACertPEM = pemCert(caCert.Raw)

	serving, err := loadServing(dir, caCert, hosts, now)
	if err != nil {
		leaf, key, err := newServing(caCert, caKey, hosts, now)
		if err != nil {
			return nil, err
		}
		if err := writeKeyPair(dir, ServingCertFile, ServingKeyFile, leaf.Raw, key); err != nil {
			return nil, err
		}
		serving = tls.Certificate{Certificate: [][]byte{leaf.Raw}, PrivateKey: key, Leaf: leaf}
		s.IssuedServing = true
	}
	s.Serving = serving
	return s, nil
}

// loadCA reads the CA; fs.ErrNotExist if neither file is there.
func loadCA(dir string, now time.Time) (*x509.Certificate, crypto.Signer, error) {
	certPath, keyPath := filepath.Join(dir, CACertFile), filepath.Join(dir, CAKeyFile)
	_, certErr := os.Stat(certPath)
	_, keyErr := os.Stat(keyPath)
	switch {
	case errors.Is(certErr, fs.ErrNotExist) && errors.Is(keyErr, fs.ErrNotExist):
		return nil, nil, fs.ErrNotExist
	case certErr != nil || keyErr != nil:
		return nil, nil, fmt.Errorf("%w: %s: %s and %s must both be there (or neither, to make a new CA): %v",
			ErrCertDir, dir, CACertFile, CAKeyFile, errors.Join(certErr, keyErr))
	}
	pair, err := tls.LoadX509KeyPair(certPath, keyPath)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %v", ErrCertDir, dir, err)
	}
	cert := pair.Leaf
	if !cert.IsCA {
		return nil, nil, fmt.Errorf("%w: %s is not a CA certificate", ErrCertDir, certPath)
	}
	if now.After(cert.NotAfter) {
		return nil, nil, fmt.Errorf("%w: the CA in %s expired on %s: move the directory away to make a new one (clients must then trust the new %s)",
			ErrCertDir, dir, cert.NotAfter.Format(time.DateOnly), CACertFile)
	}
	signer, ok := pair.PrivateKey.(crypto.Signer)
	if !ok {
		return nil, nil, fmt.Errorf("%w: %s: the key cannot sign", ErrCertDir, keyPath)
	}
	return cert, signer, nil
}

// loadServing reads the serving certificate if it is signed by ca, covers
// every host and is valid long enough; otherwise it returns an error
// (and EnsureSelfSigned issues a new one).
func loadServing(dir string, ca *x509.Certificate, hosts []string, now time.Time) (tls.Certificate, error) {
	pair, err := tls.LoadX509KeyPair(filepath.Join(dir, ServingCertFile), filepath.Join(dir, ServingKeyFile))
	if err != nil {
		return tls.Certificate{}, err
	}
	leaf := pair.Leaf
	if err := leaf.CheckSignatureFrom(ca); err != nil {
		return tls.Certificate{}, err
	}
	if now.Add(RenewBefore).After(leaf.NotAfter) {
		return tls.Certificate{}, errors.New("expires soon")
	}
	for _, h := range hosts {
		if err := leaf.VerifyHostname(h); err != nil {
			return tls.Certificate{}, err
		}
	}
	return pair, nil
}

func newCA(now time.Time) (*x509.Certificate, crypto.Signer, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: fmt.Sprintf("crdlab-ca@%d", now.Unix())},
		NotBefore:             now.Add(-clockSkew),
		NotAfter:              now.Add(CALifetime),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	return cert, key, err
}

func newServing(ca *x509.Certificate, caKey crypto.Signer, hosts []string, now time.Time) (*x509.Certificate, crypto.Signer, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: fmt.Sprintf("crdlab@%d", now.Unix())},
		NotBefore:    now.Add(-clockSkew),
		NotAfter:     now.Add(ServingLifetime),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if tmpl.NotAfter.After(ca.NotAfter) {
		tmpl.NotAfter = ca.NotAfter
	}
	addSANs(tmpl, hosts)
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, key.Public(), caKey)
	if err != nil {
		return nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	return cert, key, err
}

func addSANs(tmpl *x509.Certificate, hosts []string) {
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			if !slices.ContainsFunc(tmpl.IPAddresses, ip.Equal) {
				tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
			}
		} else if h != "" && !slices.Contains(tmpl.DNSNames, h) {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return n
}

func pemCert(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// writeKeyPair writes the certificate and its key (key first, so a crash
// between the two leaves a cert-less key, which is made again).
func writeKeyPair(dir, certName, keyName string, der []byte, key crypto.Signer) error {
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	if err := WriteFileAtomic(filepath.Join(dir, keyName), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, certName), pemCert(der), 0o644)
}

// WriteFileAtomic writes data to path through a temporary file in the
// same directory, fsynced and renamed: readers see the old file or the
// new one, never a part.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename, a no-op
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
