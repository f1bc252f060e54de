// Package apiserver assembles a crdlab server: it opens the storage, builds
// seed 002's server chain on it — the kube-apiserver link with the
// built-in kinds (controlplane.go), the apiextensions link with the CRD
// API and the crdHandler (extensions.go), 404 (chain.go) — puts the
// health, version and metrics endpoints in front, keeps the handler's view
// of the CRDs current, and runs it all until its context ends.
//
// Vocabulary: a Config (data directory, listen address, runtime config) is
// Completed — defaults filled in, the ResourceConfig worked out — and the
// CompletedConfig makes a Server with New; Run serves until its context is
// done and then shuts down gracefully. The ResourceConfig says which group
// versions (and resources) are served, from kube-apiserver's
// --runtime-config keys ("apiextensions.k8s.io/v1beta1=true", "api/all").
// A health check is one named test of /healthz, /livez or /readyz; a
// post-start hook runs once the server listens (controllers, informers)
// and /readyz waits for it. One such hook (controllers.go) builds the
// loopback client, the shared CRD informer that feeds the handler's
// OnAdd/OnUpdate/OnDelete hooks (what is served), and the CRD controllers
// (naming, establishing, finalizer, discovery, OpenAPI, non-structural
// schema, API approval); discovery and OpenAPI of CRD groups are written by
// their controllers alone. Another (kubecontrollers.go) runs two
// controllers of kube-controller-manager the built-in link needs: the
// namespace controller and the garbage collector (Config.Controllers, as
// its --controllers).
//
// Access and overload (access.go, hostcheck.go) and the shutdown order
// (Run) are walked through step by step in docs/apiserver.md; the
// operator's guide to tokens, modes, TLS and limits is docs/access.md.
//
// Upstream:
//   - k8s.io/kubernetes/cmd/kube-apiserver/app/server.go (CreateServerChain:
//     chain.go)
//   - k8s.io/kubernetes/pkg/controlplane/instance.go (Instance, New with
//     InstallLegacyAPI and InstallAPIs) and pkg/registry/*/rest
//     (the RESTStorageProviders: controlplane.go); the system namespaces
//     controller (pkg/controlplane/controller/systemnamespaces)
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go (Config,
//     CompletedConfig, completedConfig.New: extensions.go,
//     DefaultAPIResourceConfigSource)
//   - k8s.io/apiserver/pkg/server: genericapiserver.go (PrepareRun,
//     RunWithContext, AddPostStartHook), healthz/healthz.go
//     (InstallPathHandler, handleRootHealth), storage/resource_config.go
//     (ResourceConfig), resourceconfig/helpers.go (MergeAPIResourceConfigs)
//   - k8s.io/apiserver/pkg/endpoints/metrics (apiserver_request_total,
//     apiserver_longrunning_requests)
//   - k8s.io/apiserver/pkg/server/config.go (DefaultBuildHandlerChain,
//     LoopbackClientConfig), options/serving_with_loopback.go (access.go)
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go's
//     post-start hooks start-apiextensions-informers,
//     start-apiextensions-controllers and crd-informer-synced
//     (controllers.go)
//   - k8s.io/kubernetes/cmd/kube-controller-manager/app: StartControllers,
//     startNamespaceController, startGarbageCollectorController
//     (kubecontrollers.go)
//
// Differences from upstream:
//   - The chain has no aggregator (no APIServices); its kube-apiserver
//     link serves a small built-in API (namespaces, secrets, configmaps,
//     events, leases, the self-reviews; not pods, services, RBAC …), and
//     the system namespaces are created once at start (upstream checks
//     every minute).
//   - Authentication by static bearer tokens only, three small
//     authorization modes instead of RBAC and the others, max-in-flight
//     instead of API Priority and Fairness, no admission, no audit (see
//     the authn, authz, limits and tlsutil package docs). A
//     non-loopback listen address without authentication is refused
//     (upstream binds where told). The storage health check also fails
//     once a commit has failed, so /livez tells a supervisor to restart.
//   - /metrics is hand-written text: a few counters and gauges, no
//     histograms (only the sum and count of request latency). Its labels
//     are bounded as upstream's (metrics.go): unknown methods are
//     "other", resource labels only for resources discovery advertises
//     and never for a 401.
//   - Health checks are named ping, storage (upstream: etcd),
//     poststarthook/start-apiextensions-controllers,
//     poststarthook/crd-informer-synced and shutdown; informers start in
//     the controllers' hook (upstream has a separate
//     start-apiextensions-informers hook).
//   - The controllers' loopback client has no client-side rate limit
//     (upstream's loopback config allows QPS 50, burst 100).
//   - The namespace controller and the garbage collector run in the
//     server (upstream: kube-controller-manager, a process of its own),
//     in the hook start-kube-controllers, which /readyz waits for.
//   - Config.Tracer (crdlab serve --trace) traces every step of requests
//     and the control loop (package trace); /debug/crdlab/events streams
//     the events, /debug/crdlab/state shows queue depths, the informer's
//     cache and the CRDs' conditions, and /ui/ draws both (package ui;
//     debug.go). Upstream has no such teaching aid.
//   - A served schema's CEL rules are compiled on the first write of one
//     of the CRD's objects (customresources.go lazyRules), not with the
//     serving info.
package apiserver
