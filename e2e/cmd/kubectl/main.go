// Command kubectl is the real kubectl, built from k8s.io/kubectl at the
// version pinned in e2e/go.mod, so the end-to-end tests drive crdlab with the
// same client Kubernetes users have — no downloaded binaries.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd"
)

func main() {
	os.Exit(cli.Run(cmd.NewDefaultKubectlCommand()))
}
