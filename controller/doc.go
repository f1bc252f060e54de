// Package controller holds what crdlab's CRD controllers share: how they
// read CRDs (a Lister over the shared CRD informer), how they write them
// (UpdateStatus through the loopback client), and the options every
// constructor takes. Each controller is its own package below this one,
// in the shape of kubernetes/sample-controller.
//
// # The controllers and what they own
//
//   - status.NamingConditionController: status.acceptedNames and the
//     NamesAccepted condition (and Established=False while names are not
//     accepted).
//   - establish.EstablishingController: Established=True once names are
//     accepted.
//   - finalizer.CRDFinalizer: Terminating, the instances of a deleted CRD,
//     and the customresourcecleanup.apiextensions.k8s.io finalizer.
//   - discovery.DiscoveryController: /apis/<group> and
//     /apis/<group>/<version> (and aggregated discovery) for Established
//     CRDs.
//   - openapi.Controller: the /openapi/v3 documents of CRD group versions.
//   - nonstructuralschema.ConditionController: the NonStructuralSchema
//     condition.
//   - apiapproval.KubernetesAPIApprovalPolicyConformantConditionController:
//     the KubernetesAPIApprovalPolicyConformant condition of *.k8s.io and
//     *.kubernetes.io groups.
//
// # The shape every controller has (one file tells it)
//
//	informer event handler ──▶ workqueue (dedup, delay, backoff)
//	                               │ Get
//	                               ▼
//	            processNextWorkItem: syncFn(ctx, key)
//	                               │ reads the Lister (the informer's cache)
//	                               ▼
//	            UpdateStatus through the client ──▶ the server ──▶ watch
//	                                                   ──▶ informer again
//
// Each controller's Run waits for the informer cache and hands over to
// RunWorkers, and its processNextWorkItem is ProcessNextWorkItem (Get,
// sync, AddRateLimited or Forget, Done): the loop is written once, here,
// with its comments; examples/10-your-controller spells it out in one
// file, as kubernetes/sample-controller does.
//
// A controller never writes its cache: it writes the server and waits for
// the change to come back through the informer. That is why a
// controller's sync must be level-based (look at the object, not at the
// event) and why a Conflict on UpdateStatus is not an error: the newer
// object is on its way and will be synced again.
//
// Tracing and metrics: Options.Tracer and Options.MetricsProvider go to
// every controller's queue (NewQueue, QueueConfig), which then emits
// "add", "get", "requeue" and "done" events (actor: the queue's name) and
// reports its depth. ProcessNextWorkItem emits a "sync" event per key
// (component trace.Controller, actor: the name given to WithDefaults,
// with the sync's duration and error), and the controllers emit "status"
// when they write a CRD's conditions (TraceStatus: "Established=True
// (InitialNamesAccepted)"), or "publish" for discovery and OpenAPI.
//
// Vocabulary: a key is a CRD's name (CRDs are cluster-scoped, so
// MetaNamespaceKeyFunc gives just the name); the discovery controller keys
// by group version instead. A tombstone (informer.DeletedFinalStateUnknown)
// is what OnDelete gets when the delete itself was missed; CRDFromObject
// unwraps it.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/controller/{status,establish,
//     finalizer,nonstructuralschema,apiapproval,openapiv3}
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_discovery_controller.go
//   - k8s.io/apiextensions-apiserver/pkg/client/listers/apiextensions/v1
//     (CustomResourceDefinitionLister) and
//     clientset/typed/apiextensions/v1 (CustomResourceDefinitionsGetter)
//
// Differences from upstream:
//   - Constructors take the shared informer itself (not a generated
//     typed informer) and a CRDClient interface; the Lister is the generic
//     informer.Lister.
//   - sync functions take ctx first (upstream's take only the key and use
//     context.TODO()); Run takes ctx and a worker count and returns when
//     ctx ends and its workers have stopped.
//   - Logging is log/slog, not klog; a failed sync is logged at Warn with
//     its key and requeue count (upstream: utilruntime.HandleError).
//   - Tracing (Options.Tracer, TraceStatus) is crdlab's; upstream has
//     none.
//   - The worker loop is shared (RunWorkers, ProcessNextWorkItem) rather
//     than repeated in every controller; workers are not restarted after
//     a return (upstream's wait.Until restarts them every second), since
//     they return only at shutdown.
package controller
