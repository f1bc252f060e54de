// Package registry turns HTTP verbs into storage operations. The handler
// calls the REST interfaces of rest.go (Getter, Lister, Creater …); Store
// implements all of them over one storage.Interface, and asks the
// resource's strategies only what differs between resources.
//
// Vocabulary:
//   - a Store is the generic REST storage of one resource (CRDs, or the
//     custom resources of one CRD);
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
//   - the garbage collector's finalizers, orphan and foregroundDeletion,
//     are what a delete's propagationPolicy leaves on the object (gc.go).
//
// Every error the REST methods return is an *apis/errors.StatusError:
// storage errors become API errors here, in one table (errors.go:
// interpretStorageError, upstream's storage/errors), so the handler never
// sees a storage error. Objects returned by
// Get, List, Create, Update and Delete belong to the caller (List copies
// what storage shares); objects in watch events are shared with every
// watcher and must be copied before they are changed (the storage
// contract).
//
// Upstream:
//   - k8s.io/apiserver/pkg/registry/generic/registry/store.go (Store,
//     NamespaceKeyFunc, ShouldDeleteDuringUpdate, markAsDeleting,
//     deletionFinalizersForGarbageCollection …)
//   - k8s.io/apiserver/pkg/registry/rest: rest.go, create.go
//     (BeforeCreate, FillObjectMetaSystemFields), update.go (BeforeUpdate,
//     DefaultUpdatedObjectInfo), delete.go (BeforeDelete), meta.go
//   - k8s.io/apiserver/pkg/storage/errors/storage.go (Interpret*Error)
//   - k8s.io/apiserver/pkg/storage/names/generate.go (SimpleNameGenerator)
//   - k8s.io/apiserver/pkg/warning (AddWarning)
//   - k8s.io/apimachinery/pkg/apis/meta/internalversion/validation
//     (ValidateListOptions), meta/v1/validation (ValidateDeleteOptions)
//
// Differences from upstream:
//   - Every resource's default propagation policy is Background (no
//     GarbageCollectionDeleteStrategy: upstream's apps/v1 resources
//     default to Foreground, crdlab serves none). Without
//     EnableGarbageCollection, propagationPolicy and orphanDependents are
//     validated, then ignored, as upstream's store with garbage
//     collection disabled.
//   - No graceful deletion (only pods have it upstream). A TTL is one
//     duration per resource (StoreOptions.TTL, given to every write) where
//     upstream asks a TTLFunc per write. No Begin/After hooks, no
//     Decorator, no table convertor (the handler builds Tables).
//     managedFields are the handler's (its field manager runs in the
//     UpdatedObjectInfo, as upstream's in the handler's transformers);
//     strategies only declare their reset fields and list markers
//     (fieldmanagement.go).
//   - The qualified resource in errors is always DefaultQualifiedResource
//     (upstream prefers the request's RequestInfo; the two agree here).
//   - DeleteCollection deletes 16 objects at a time, each in its own
//     namespace (upstream: --delete-collection-workers, default 1).
//   - Dry run is done in the Store (upstream wraps storage in
//     DryRunnableStorage): writes end just before storage is changed.
//   - A strategy may also answer in ready StatusCauses (CauseValidator),
//     because the handler's schema validator produces causes.
//   - A create whose object has a resourceVersion is a 400 BadRequest
//     (upstream: a 500 with no reason); an object larger than storage's
//     MaxObjectSize is a 413 RequestEntityTooLarge (upstream: etcd's
//     "request is too large", also 413).
//   - Strategies set metadata.generation on create (both of crdlab's set 1,
//     as upstream's CRD and custom resource strategies do); Store does not.
package registry
