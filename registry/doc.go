// Package registry turns HTTP verbs into storage operations. The handler
// calls the REST interfaces of rest.go (Getter, Lister, Creater …); Store
// implements all of them over one storage.Interface, and asks the
// resource's strategies only what differs between resources.
//
// Vocabulary:
//   - a Store is the generic REST storage of one resource (CRDs, the
//     custom resources of one CRD, a built-in kind);
//   - a strategy (CreateStrategy, UpdateStrategy, DeleteStrategy) is what a
//     resource does in a verb: PrepareForCreate clears status and sets
//     generation, Validate checks, PrepareForUpdate keeps what an endpoint may
//     not change. A status subresource is a Store copy with a status
//     strategy;
//   - a key is the storage path of an object,
//     /registry/<group>/<resource>/[<namespace>/]<name>; the namespace comes
//     from the request context (WithNamespace);
//   - preconditions (uid, resourceVersion) must hold on the stored object for
//     a write to happen; a stale resourceVersion is a 409 Conflict;
//   - a finalizer is a name in metadata.finalizers: while any is left, a
//     delete only sets metadata.deletionTimestamp, and the update that
//     removes the last one deletes the object;
//   - dry run (dryRun=All) runs every step of a write except the write;
//   - a two-step delete (twostepdelete.go) first only marks the object
//     (namespaces, CRDs); a controller empties it, then it goes;
//   - the garbage collector's finalizers, orphan and foregroundDeletion,
//     are what a delete's propagationPolicy leaves on the object (gc.go);
//   - a TableConvertor prints objects as a Table's rows (table.go).
//
// Every REST method returns API errors only (*apis/errors.StatusError):
// storage's become API errors in one table (errors.go, upstream's
// storage/errors). Objects returned by Get, List, Create, Update and Delete
// belong to the caller; objects in watch events are shared with every
// watcher and must be copied before they are changed.
//
// Upstream:
//   - k8s.io/apiserver/pkg/registry/generic/registry/store.go (Store,
//     NamespaceKeyFunc, ShouldDeleteDuringUpdate, markAsDeleting …)
//   - k8s.io/apiserver/pkg/registry/rest: rest.go, create.go, update.go,
//     delete.go (BeforeCreate/Update/Delete), meta.go, table.go
//   - k8s.io/apiserver/pkg/storage/errors/storage.go (Interpret*Error)
//   - k8s.io/apiserver/pkg/storage/names/generate.go, pkg/warning
//   - k8s.io/apimachinery/pkg/apis/meta: internalversion/validation,
//     v1/validation (ValidateListOptions, ValidateDeleteOptions)
//
// Differences from upstream (in full in docs/registry.md):
//   - Every resource's default propagation policy is Background; without
//     EnableGarbageCollection, propagationPolicy is validated, then
//     ignored, as upstream's store with garbage collection disabled.
//   - No graceful deletion, no Begin/After hooks, no Decorator; a TTL is
//     one duration per resource (StoreOptions.TTL).
//   - Dry run is done in the Store (upstream: DryRunnableStorage).
//   - A create with a resourceVersion is a 400 (upstream: a 500).
package registry
