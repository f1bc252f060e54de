// Command kube-controller-manager is the real kube-controller-manager
// v1.37.2 (namespace controller and garbage collector for the side-by-side
// check), built from the k8s.io/kubernetes module. It is upstream's
// cmd/kube-controller-manager main.
package main
