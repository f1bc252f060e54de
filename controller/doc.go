// Package controller holds what crdlab's CRD controllers share: how they
// read CRDs (a Lister over the shared CRD informer), how they write them
// (UpdateStatus through the loopback client), the options every
// constructor takes, and the worker loop. Each controller is its own
// package below this one, in the shape of kubernetes/sample-controller.
//
// The controllers and what they own:
//
//	status.NamingConditionController       acceptedNames, NamesAccepted
//	establish.EstablishingController       Established=True once names are accepted
//	finalizer.CRDFinalizer                 Terminating, a deleted CRD's instances, the cleanup finalizer
//	discovery.DiscoveryController          /apis/<group>[/<version>] and aggregated discovery
//	openapi.Controller                     /openapi/v3 documents of CRD group versions
//	nonstructuralschema, apiapproval       the NonStructuralSchema and
//	                                       KubernetesAPIApprovalPolicyConformant conditions
//
// The shape every controller has:
//
//	informer event handler ──▶ workqueue (dedup, delay, backoff)
//	                               │ Get
//	                               ▼
//	            processNextWorkItem: sync(ctx, key) ── reads the Lister (the informer's cache)
//	                               │ Forget or AddRateLimited, then Done
//	                               ▼
//	            UpdateStatus through the client ──▶ the server ──▶ watch ──▶ the informer again
//
// The establishing controller's file (controller/establish) tells that
// whole story in one place, with why each step is there; the others share
// it as RunWorkers and ProcessNextWorkItem (controller.go). The two
// condition controllers share their whole loop, ConditionController
// (condition.go), and keep only the condition they compute.
//
// A controller never writes its cache: it writes the server and waits for
// the change to come back through the informer. So a sync is level-based
// (it looks at the object, not at the event), and a Conflict on
// UpdateStatus is not an error: the newer object is on its way.
//
// Vocabulary: a key is a CRD's name (CRDs are cluster-scoped); the
// discovery and OpenAPI controllers key by group version. A tombstone
// (informer.DeletedFinalStateUnknown) is what OnDelete gets when the
// delete itself was missed; CRDFromObject unwraps it. Options.Tracer makes
// the queues and controllers emit trace events ("sync", "status",
// "publish"); see docs/controllers.md.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/controller/{status,
// establish,finalizer,nonstructuralschema,apiapproval,openapiv3},
// pkg/apiserver/customresource_discovery_controller.go, and the generated
// CustomResourceDefinitionLister and CustomResourceDefinitionsGetter.
//
// Differences from upstream (all of them in docs/controllers.md):
//   - Constructors take the shared informer itself and a CRDClient
//     interface; every Run takes ctx and a worker count; logging is
//     log/slog.
//   - The worker loop is shared rather than repeated in every controller
//     (but in establish), and workers are not restarted every second.
//   - Tracing is crdlab's; upstream has none.
package controller
