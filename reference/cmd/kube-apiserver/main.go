// Command kube-apiserver is the real kube-apiserver v1.37.2, built from the
// k8s.io/kubernetes module for the side-by-side check of crdlab's built-in
// API link (see ../../doc.go). It is upstream's cmd/kube-apiserver main.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	os.Exit(cli.Run(app.NewAPIServerCommand()))
}
