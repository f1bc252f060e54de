package tlsutil

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// DummyToken is the token a kubeconfig carries when the server checks
// none: without any credentials, kubectl asks for a user name over TLS.
const DummyToken = "crdlab"

// KubeconfigOptions say what Kubeconfig writes.
type KubeconfigOptions struct {
	// Server is the URL, e.g. https://127.0.0.1:8443.
	Server string
	// CAData, if set, is the PEM of the CA that signed the server's
	// certificate (certificate-authority-data).
	CAData []byte
	// Token is the bearer token; empty means DummyToken.
	Token string
	// Comment, if set, goes at the top as # lines.
	Comment string
}

// Kubeconfig returns a kubeconfig with one cluster, one user and one
// context, all named crdlab.
//
// Mirrors the v1 Config of k8s.io/client-go/tools/clientcmd/api/v1.
func Kubeconfig(o KubeconfigOptions) []byte {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(o.Comment), "\n") {
		if line != "" {
			fmt.Fprintf(&b, "# %s\n", line)
		}
	}
	token := o.Token
	if token == "" {
		token = DummyToken
	}
	b.WriteString("apiVersion: v1\nkind: Config\nclusters:\n- name: crdlab\n  cluster:\n")
	fmt.Fprintf(&b, "    server: %s\n", o.Server)
	if len(o.CAData) > 0 {
		fmt.Fprintf(&b, "    certificate-authority-data: %s\n", base64.StdEncoding.EncodeToString(o.CAData))
	}
	b.WriteString("users:\n- name: crdlab\n  user:\n")
	fmt.Fprintf(&b, "    token: %s\n", yamlString(token))
	b.WriteString("contexts:\n- name: crdlab\n  context:\n    cluster: crdlab\n    user: crdlab\ncurrent-context: crdlab\npreferences: {}\n")
	return []byte(b.String())
}

// yamlString quotes s for YAML: always, so that a token such as "true"
// or "0123" stays a string.
func yamlString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
