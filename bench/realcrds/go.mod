// Module realcrds requires other projects' Go modules only for the
// CustomResourceDefinition YAML (and example objects) their module zips
// ship. bench/internal/differential (realcrds.go) reads those files from
// the module cache, where `go mod download -json` in this directory puts
// them. No file is copied into this repository.
//
// It has no Go code, so `go mod tidy` would drop every requirement: don't
// run it here. To change a version, edit the line and run
// `go mod download <module>` (which records the module's checksums in go.sum).
module github.com/crdlab/crdlab/bench/realcrds

go 1.26.8

require (
	github.com/argoproj/argo-cd/v3 v3.5.7
	github.com/cert-manager/cert-manager v1.21.2
	github.com/fluxcd/source-controller v1.9.6
	github.com/kedacore/keda/v2 v2.21.0
	github.com/kyverno/kyverno v1.19.1
	github.com/prometheus-operator/prometheus-operator v0.85.0
	istio.io/api v1.32.0
	knative.dev/serving v0.51.0
	sigs.k8s.io/cluster-api v1.14.2
	sigs.k8s.io/gateway-api v1.6.3
)
