// Package tlsutil makes what serving HTTPS needs: a self-signed CA and a
// serving certificate it signs (kept in a directory across restarts), the
// in-memory certificate of the server's own loopback client, the server's
// tls.Config, and kubeconfigs that trust the CA.
//
// Vocabulary: the CA is a certificate that may sign others; clients that
// trust it (a kubeconfig's certificate-authority-data) trust every
// serving certificate it signs. The serving certificate is what the
// server shows clients; its subject alternative names (SANs) are the
// hosts and IPs clients may call it by. The self-signed cert dir
// (--self-signed-cert-dir) holds
//
//	ca.crt, ca.key              the CA (made once, kept: clients trust it)
//	apiserver.crt, apiserver.key the serving certificate (re-issued by the
//	                            CA when a host is missing or it expires
//	                            within 30 days)
//	kubeconfig                  written by the server: trusts ca.crt
//
// Keys are ECDSA P-256 and are written 0600 in a 0700 directory; every file
// is written to a temporary name and renamed, so a crash never leaves half
// a key. A CA that is there but unusable (one file of the pair missing,
// cert and key not matching, expired) is an error: EnsureSelfSigned never
// replaces a CA clients may already trust.
//
// The loopback certificate is upstream's trick: the server also answers
// TLS handshakes for the name "apiserver-loopback-client" with a
// certificate made at start that only its own controllers trust, so they
// need neither the operator's CA nor an IP SAN for 127.0.0.1.
//
// Upstream:
//   - k8s.io/client-go/util/cert/cert.go
//     (GenerateSelfSignedCertKeyWithFixtures: a CA and a serving
//     certificate it signs, for --cert-dir when no --tls-cert-file)
//   - k8s.io/apiserver/pkg/server/options/serving.go
//     (MaybeDefaultWithSelfSignedCerts), serving_with_loopback.go
//     (the apiserver-loopback-client certificate and SNI)
//   - k8s.io/apiserver/pkg/server/secure_serving.go (tlsConfig: TLS 1.2
//     at least, certificates by SNI)
//   - k8s.io/client-go/tools/clientcmd/api/v1 (the kubeconfig format)
//
// Differences from upstream:
//   - ECDSA P-256 keys (upstream: RSA 2048); the CA lives 10 years, the
//     serving certificate 1 year (upstream: 1 year each) and is re-issued
//     from the kept CA at start when needed; upstream regenerates nothing.
//   - Certificates are read once at start: no reloading of changed files
//     (upstream's dynamiccertificates watches them), no client
//     certificates, no --tls-sni-cert-key, no cipher suite flags.
package tlsutil
