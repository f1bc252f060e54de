package tlsutil_test

import (
	"fmt"
	"os"
	"time"

	"github.com/crdlab/crdlab/apiserver/tlsutil"
)

// A kubeconfig for a server with a token and plain HTTP on loopback.
func ExampleKubeconfig() {
	os.Stdout.Write(tlsutil.Kubeconfig(tlsutil.KubeconfigOptions{Server: "http://127.0.0.1:8080", Token: "s3cret"}))
	// Output:
	// apiVersion: v1
	// kind: Config
	// clusters:
	// - name: crdlab
	//   cluster:
	//     server: http://127.0.0.1:8080
	// users:
	// - name: crdlab
	//   user:
	//     token: 's3cret'
	// contexts:
	// - name: crdlab
	//   context:
	//     cluster: crdlab
	//     user: crdlab
	// current-context: crdlab
	// preferences: {}
}

// The self-signed cert dir after the first start.
func ExampleEnsureSelfSigned() {
	dir, _ := os.MkdirTemp("", "certs")
	defer os.RemoveAll(dir)
	s, err := tlsutil.EnsureSelfSigned(dir, tlsutil.ServingHosts("127.0.0.1"), time.Now())
	if err != nil {
		fmt.Println(err)
		return
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		fmt.Println(e.Name())
	}
	fmt.Println("new CA:", s.CreatedCA, "serving for 127.0.0.1:", s.Serving.Leaf.VerifyHostname("127.0.0.1") == nil)
	// Output:
	// apiserver.crt
	// apiserver.key
	// ca.crt
	// ca.key
	// new CA: true serving for 127.0.0.1: true
}
