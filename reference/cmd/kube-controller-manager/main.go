// Command kube-controller-manager is the real kube-controller-manager
// v1.37.2 (namespace controller and garbage collector for the side-by-side
// check), built from the k8s.io/kubernetes module. It is upstream's
// cmd/kube-controller-manager main.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func main() {
	os.Exit(cli.Run(app.NewControllerManagerCommand()))
}
