package registry

import (
	"context"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// The interfaces below are what the HTTP layer (package handler) calls; a
// resource supports a verb if its REST storage implements the interface.
// Every error returned is an *apis/errors.StatusError (NotFound, Conflict,
// Invalid …), so the handler can answer it as is.
//
// Mirrors k8s.io/apiserver/pkg/registry/rest/rest.go.

// Storage is the minimum: a resource that can make new objects.
type Storage interface {
	// New returns an empty object of the resource's kind.
	New() scheme.Object
	// Destroy releases what the storage holds (e.g. its watch).
	Destroy()
}

// Getter reads one object.
type Getter interface {
	Get(ctx context.Context, name string, opts *metav1.GetOptions) (scheme.Object, error)
}

// Lister reads a list (one page of it).
type Lister interface {
	// NewList returns an empty list of the resource's kind.
	NewList() scheme.Object
	List(ctx context.Context, opts *metav1.ListOptions) (scheme.Object, error)
}

// Watcher streams changes.
type Watcher interface {
	Watch(ctx context.Context, opts *metav1.ListOptions) (watch.Interface, error)
}

// MetadataWatcher streams changes to a reader that wants only the
// objects' metadata: an event's object may be a *storage.MetadataJSON.
// crdlab's own (upstream's handler encodes the decoded object's
// metadata).
type MetadataWatcher interface {
	WatchMetadata(ctx context.Context, opts *metav1.ListOptions) (watch.Interface, error)
}

// Creater creates an object. validate, if not nil, runs admission-style
// checks on the object about to be created.
type Creater interface {
	Create(ctx context.Context, obj scheme.Object, validate ValidateObjectFunc, opts *metav1.CreateOptions) (scheme.Object, error)
}

// Updater updates (or, if allowed, creates) an object: objInfo computes the
// new object from the current one, which lets PUT and PATCH share one path.
// It returns the stored object and whether it was created.
type Updater interface {
	Update(ctx context.Context, name string, objInfo UpdatedObjectInfo, validate ValidateObjectFunc,
		validateUpdate ValidateObjectUpdateFunc, forceAllowCreate bool, opts *metav1.UpdateOptions) (scheme.Object, bool, error)
}

// GracefulDeleter deletes an object. It returns the object as it was last
// stored and whether it is gone now (false when finalizers keep it: then the
// object carries a deletionTimestamp).
type GracefulDeleter interface {
	Delete(ctx context.Context, name string, validate ValidateObjectFunc, opts *metav1.DeleteOptions) (scheme.Object, bool, error)
}

// CollectionDeleter deletes every object matching listOpts.
type CollectionDeleter interface {
	DeleteCollection(ctx context.Context, validate ValidateObjectFunc, opts *metav1.DeleteOptions, listOpts *metav1.ListOptions) (scheme.Object, error)
}

// Scoper says whether the resource lives in namespaces.
type Scoper interface {
	NamespaceScoped() bool
}

// UpdatedObjectInfo computes the object an update wants, from the current one.
//
// Mirrors k8s.io/apiserver/pkg/registry/rest.UpdatedObjectInfo.
type UpdatedObjectInfo interface {
	// UpdatedObject returns the new object. old is the current object (nil
	// or empty when the update creates); it may be changed and returned.
	UpdatedObject(ctx context.Context, old scheme.Object) (scheme.Object, error)
}

// UpdatedObjectFunc adapts a function to UpdatedObjectInfo.
type UpdatedObjectFunc func(ctx context.Context, old scheme.Object) (scheme.Object, error)

func (f UpdatedObjectFunc) UpdatedObject(ctx context.Context, old scheme.Object) (scheme.Object, error) {
	return f(ctx, old)
}

// ReadOnlyUpdatedObjectFunc is an UpdatedObjectFunc that only reads the
// object it is given, and returns one that shares nothing with it:
// Store.Update hands it the stored object without the copy it makes for
// any other UpdatedObjectInfo. A server-side apply is one: it reads the
// stored object, merges the configuration into its own copy and decodes
// the result afresh (for an object with a 20-entry list-type map the copy
// was about 2% of the server's CPU per apply). Upstream's Store makes no
// copy for any UpdatedObjectInfo.
type ReadOnlyUpdatedObjectFunc func(ctx context.Context, old scheme.Object) (scheme.Object, error)

func (f ReadOnlyUpdatedObjectFunc) UpdatedObject(ctx context.Context, old scheme.Object) (scheme.Object, error) {
	return f(ctx, old)
}

// ValidateObjectFunc checks an object about to be written.
type ValidateObjectFunc func(ctx context.Context, obj scheme.Object) error

// ValidateObjectUpdateFunc checks an update about to be written.
type ValidateObjectUpdateFunc func(ctx context.Context, obj, old scheme.Object) error

type namespaceKey struct{}

// WithNamespace returns a context carrying the request's namespace ("" for
// cluster-scoped requests and cluster-wide lists).
//
// Mirrors k8s.io/apiserver/pkg/endpoints/request.WithNamespace.
func WithNamespace(ctx context.Context, ns string) context.Context {
	return context.WithValue(ctx, namespaceKey{}, ns)
}

// NamespaceFrom returns the namespace WithNamespace stored, or "".
func NamespaceFrom(ctx context.Context) string {
	ns, _ := ctx.Value(namespaceKey{}).(string)
	return ns
}
