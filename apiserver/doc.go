// Package apiserver assembles a crdlab server: it opens the storage, builds
// seed 002's server chain on it — the kube-apiserver link with the
// built-in kinds (controlplane.go), the apiextensions link with the CRD
// API and the crdHandler (extensions.go), 404 (chain.go) — puts the
// health, version and metrics endpoints in front, keeps the handler's view
// of the CRDs current, and runs it all until its context ends.
//
// Vocabulary:
//   - A Config (data directory, listen address, runtime config) is
//     Completed (defaults filled in, the ResourceConfig worked out), and
//     the CompletedConfig makes a Server with New; Run serves until its
//     context is done, then shuts down gracefully.
//   - The ResourceConfig says which group versions (and resources) are
//     served, from --runtime-config keys ("apiextensions.k8s.io/v1beta1=true").
//   - A health check is one named test of /healthz, /livez or /readyz; a
//     post-start hook runs once the server listens, and /readyz waits for it.
//   - controllers.go's hook builds the loopback client, the shared CRD
//     informer that feeds the handler's OnAdd/OnUpdate/OnDelete (what is
//     served), and the CRD controllers (naming, establishing, finalizer,
//     discovery, OpenAPI, non-structural schema, API approval).
//   - kubecontrollers.go's hook runs the namespace controller and the
//     garbage collector (Config.Controllers, as kube-controller-manager's
//     --controllers).
//
// Layout, in the order a server starts: apiserver.go (Config, Complete,
// New, Run), resourceconfig.go, chain.go with controlplane.go and
// extensions.go (the links), customresources.go (a CRD's storage), the
// filters in front (access.go, hostcheck.go; subpackages authn, authz,
// limits, tlsutil), healthz.go, metrics.go, debug.go, and the post-start
// hooks (controllers.go, kubecontrollers.go, loopback.go).
//
// Access and overload (access.go, hostcheck.go), the shutdown order (Run)
// and the full lists below: docs/apiserver.md; the operator's guide to
// tokens, modes, TLS and limits: docs/access.md.
//
// Upstream:
//   - k8s.io/kubernetes/cmd/kube-apiserver/app/server.go (CreateServerChain)
//     and pkg/controlplane/instance.go (the built-in link)
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go (Config,
//     completedConfig.New, its post-start hooks)
//   - k8s.io/apiserver/pkg/server: genericapiserver.go (PrepareRun,
//     RunWithContext), healthz, storage/resource_config.go, config.go
//     (DefaultBuildHandlerChain, LoopbackClientConfig)
//   - k8s.io/kubernetes/cmd/kube-controller-manager/app (StartControllers)
//
// Differences from upstream (in full in docs/apiserver.md):
//   - No aggregator; the built-in link serves a small API (namespaces,
//     secrets, configmaps, events, leases, self-reviews; not pods …).
//   - Static bearer tokens, three small authorization modes, max-in-flight
//     (no RBAC, no API Priority and Fairness, no audit).
//   - /metrics is hand-written: counters and gauges, no histograms.
//   - The controllers' loopback client has no client-side rate limit.
//   - The namespace controller and the garbage collector run in the
//     server (upstream: kube-controller-manager).
//   - Config.Tracer traces requests and the control loop (package trace;
//     /debug/crdlab/events, /ui/): a teaching aid upstream has not.
package apiserver
