// Package reference is a test-only module that builds the real
// kube-apiserver and kube-controller-manager v1.37.2 from the
// k8s.io/kubernetes module, for the side-by-side check of crdlab's
// built-in API link (issue 16's reference). crdlab's main module never
// imports it, nor any k8s.io module.
//
// Layout:
//
//	cmd/kube-apiserver           upstream's cmd/kube-apiserver main
//	cmd/kube-controller-manager  upstream's cmd/kube-controller-manager main
//	                             (builds; not driven by the tests yet)
//
// k8s.io/kubernetes names its staging modules (k8s.io/api, apiserver,
// client-go, …) at v0.0.0 and replaces them with its own staging/
// directory; go.mod here replaces each with its v0.37.2 release from the
// module proxy instead, which is how the module builds outside its
// repository.
//
// The test that drives it is e2e's TestReferenceBuiltinAPI
// (e2e/reference_test.go): `make ref-chain` builds kube-apiserver from here
// (about 8 minutes cold on two cores; the go build cache keeps it), starts
// it on loopback against /usr/bin/etcd with a self-signed serving
// certificate, a token file, AlwaysAllow and service-account keys made at
// start, sends it and `crdlab serve` the same requests and prints every
// difference. `make ref-chain-update` records its answers in
// e2e/testdata/reference/builtin.json, which `make test` compares crdlab
// with (building kube-apiserver in CI would take minutes).
//
// Upstream: k8s.io/kubernetes/cmd/kube-apiserver/apiserver.go and
// cmd/kube-controller-manager/controller-manager.go.
package reference
