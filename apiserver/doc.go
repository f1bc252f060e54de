// Package apiserver assembles a crdlab server: it opens the storage, builds
// the CRD REST storage and the HTTP handler on it, puts the health,
// version and metrics endpoints in front, keeps the handler's view of the
// CRDs current, and runs it all until its context ends.
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
// their controllers alone.
//
// Shutdown order (Run): /readyz turns unhealthy ("shutdown"), post-start
// hooks and the controllers they started are told to stop (they are
// clients of this server), the listener closes, every watch's context ends
// (so watches finish cleanly instead of holding the server), the other
// requests get ShutdownTimeout to finish, the controllers are waited for,
// and the storage closes.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go (Config,
//     CompletedConfig, completedConfig.New, DefaultAPIResourceConfigSource)
//   - k8s.io/apiserver/pkg/server: genericapiserver.go (PrepareRun,
//     RunWithContext, AddPostStartHook), healthz/healthz.go
//     (InstallPathHandler, handleRootHealth), storage/resource_config.go
//     (ResourceConfig), resourceconfig/helpers.go (MergeAPIResourceConfigs)
//   - k8s.io/apiserver/pkg/endpoints/metrics (apiserver_request_total,
//     apiserver_longrunning_requests)
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go's
//     post-start hooks start-apiextensions-informers,
//     start-apiextensions-controllers and crd-informer-synced
//     (controllers.go)
//
// Differences from upstream:
//   - One process, one API group: there is no delegation chain of
//     aggregator, kube-apiserver and apiextensions-apiserver; the handler's
//     404 is the end of the chain.
//   - Plain HTTP, no authentication or authorization, no admission, no
//     priority and fairness.
//   - /metrics is hand-written text: a few counters and gauges, no
//     histograms (only the sum and count of request latency).
//   - Health checks are named ping, storage (upstream: etcd),
//     poststarthook/start-apiextensions-controllers,
//     poststarthook/crd-informer-synced and shutdown; informers start in
//     the controllers' hook (upstream has a separate
//     start-apiextensions-informers hook).
//   - The controllers' loopback client has no client-side rate limit
//     (upstream's loopback config allows QPS 50, burst 100).
package apiserver
