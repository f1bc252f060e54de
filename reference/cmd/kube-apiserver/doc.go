// Command kube-apiserver is the real kube-apiserver v1.37.2, built from the
// k8s.io/kubernetes module for the side-by-side check of crdlab's built-in
// API link (see ../../doc.go). It is upstream's cmd/kube-apiserver main.
package main
