package storage

import (
	"context"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/machinery/watch"
)

// Object is what the store keeps: an API object with metadata. Its
// metadata.resourceVersion is written by the store and is the revision of
// the write that produced it.
type Object = metav1.RuntimeObject

// Interface is the store of one resource (e.g. crontabs.stable.example.com),
// a view of a Backend under one key prefix with one codec. Keys are full
// paths such as /registry/stable.example.com/crontabs/default/my-cron.
//
// Contract (the same as etcd's, so that a backend on a real etcd cluster can
// replace bbolt without any caller changing):
//   - Every successful write gets the next revision of the whole Backend,
//     and that number, in decimal, is the written object's resourceVersion.
//   - A write is acknowledged (the call returns nil) only after it is
//     durable.
//   - Reads without a resourceVersion are consistent: they see every write
//     acknowledged before they started.
//   - A watch delivers every change after its starting revision exactly once,
//     in revision order.
//   - Objects handed out (returned, or in watch events) may be shared with
//     other readers: callers must not change them without a DeepCopyObject.
//   - Objects of a resource with a TTL (ResourceConfig.TTL) expire TTL
//     after their last write: the store then deletes them itself, at a
//     revision of its own, and watchers see DELETED (ttl.go).
//
// Mirrors k8s.io/apiserver/pkg/storage.Interface.
type Interface interface {
	// Create stores obj under key if key is free, and decodes the stored
	// object (with its resourceVersion set) into out. obj must have an empty
	// resourceVersion. Error: AlreadyExists.
	Create(ctx context.Context, key string, obj, out Object) error

	// Get decodes the object under key into out. With ignoreNotFound a
	// missing key leaves out zeroed and returns nil. opts.ResourceVersion:
	// "" = latest (consistent), "0" = any, N = the state at revision N or
	// newer. Errors: NotFound.
	Get(ctx context.Context, key string, opts GetOptions, out Object) error

	// GetList returns the objects under the prefix key (or the single
	// object at key, unless opts.Recursive) that match opts.Predicate, in
	// key order, paged by opts.Predicate.Limit/Continue; every page of a
	// continued list is read at the first page's revision. Errors: Expired
	// (a continue token or exact revision older than the compacted one),
	// TooLargeResourceVersion (a revision not reached yet), BadRequest
	// (a malformed continue token).
	GetList(ctx context.Context, key string, opts ListOptions) (*ListResult, error)

	// GuaranteedUpdate reads the object under key, checks preconditions,
	// calls tryUpdate with it and writes the result, retrying the whole
	// sequence if another write happened in between. tryUpdate sees the
	// current object (a copy it may change) and returns the new one; an
	// error from it is returned as is, and nothing is written. With
	// ignoreNotFound a missing key calls tryUpdate with an empty object
	// (the update creates the key). If tryUpdate returns an object equal to
	// the current one, nothing is written and out gets the current object.
	// Errors: NotFound, Conflict (preconditions), InvalidObject.
	GuaranteedUpdate(ctx context.Context, key string, out Object, ignoreNotFound bool,
		preconditions *Preconditions, tryUpdate UpdateFunc) error

	// Delete removes the object under key if preconditions hold and
	// validateDeletion (may be nil) accepts the current object; the deleted
	// object, with the resourceVersion of the delete, is decoded into out.
	// Errors: NotFound, Conflict.
	Delete(ctx context.Context, key string, out Object, preconditions *Preconditions,
		validateDeletion ValidateObjectFunc) error

	// Watch starts a watch on key (one object) or, with opts.Recursive, on
	// every key under the prefix key. opts.ResourceVersion: "" = ADDED
	// events for the current state, then changes; "0" = the same, from any
	// recent state; N = every change after revision N. With
	// opts.SendInitialEvents set to true the initial ADDED events are
	// followed by a BOOKMARK annotated with metav1.InitialEventsAnnotationKey.
	// Events are filtered by opts.Predicate: an object that stops matching is
	// seen as DELETED, one that starts matching as ADDED. Errors: Expired
	// (N older than the compacted revision), returned here or as an ERROR
	// event.
	Watch(ctx context.Context, key string, opts ListOptions) (watch.Interface, error)

	// Count returns the number of objects under the prefix key.
	Count(ctx context.Context, key string) (int64, error)
}

// GetOptions tune Get.
type GetOptions struct {
	IgnoreNotFound  bool
	ResourceVersion string
}

// ListOptions tune GetList and Watch.
//
// Mirrors k8s.io/apiserver/pkg/storage.ListOptions.
type ListOptions struct {
	ResourceVersion      string
	ResourceVersionMatch metav1.ResourceVersionMatch
	// Predicate selects objects (labels, fields) and pages lists.
	Predicate SelectionPredicate
	// Recursive makes the key a prefix.
	Recursive bool
	// SendInitialEvents asks a watch for its initial state followed by an
	// initial-events-end bookmark (watch-list).
	SendInitialEvents *bool
	// MetadataOnly says a watch's or a list's reader wants only each
	// object's metadata (a PartialObjectMetadata watch or list): a watch
	// may then send a *MetadataJSON instead of the decoded object (see
	// MetadataJSON), and a list with Encoded may hand each object's
	// metadata object alone (ObjectJSON.Metadata).
	MetadataOnly bool
	// Encoded says a list's reader only writes each item as JSON and
	// would change nothing in it: an engine whose codec stores JSON
	// (JSONCodec, or a JSONStorer) may then answer a list without label
	// or field selectors with the stored bytes (ListResult.Encoded) and
	// decode nothing.
	Encoded bool
	// Stream says the reader of an Encoded list writes the items out as it
	// goes: an engine may then hand the first of a long page in
	// ListResult.Encoded and the others through ListResult.Rest, read a
	// chunk at a time into one buffer, so that a list of 100,000 objects
	// does not hold them all at once.
	Stream bool
}

// JSONStorer is a Codec other than JSONCodec that stores JSON of its own
// (the CRDs' codec: apiextensions.k8s.io/v1 in its Go types' key order),
// whose stored bytes a list may hand out (ListOptions.Encoded) to a
// reader that knows how to write them. ObjectJSON.AppendJSON and
// ObjectJSON.Splice are JSONCodec's alone: that reader writes the bytes
// its own way.
type JSONStorer interface {
	Codec
	StoresJSON()
}

// ListResult is one page of a list.
type ListResult struct {
	Items []Object
	// Encoded, when not nil, holds the page instead of Items: each
	// object's stored JSON (ListOptions.Encoded).
	Encoded []ObjectJSON
	// Rest, when not nil (only under ListOptions.Stream), reads the items
	// of the page that follow Encoded: it calls fn with each, in order,
	// until fn returns an error, which Rest returns. The bytes fn is
	// handed are valid only until fn returns (the next chunk reuses them).
	// Each call reads the items again; an engine holds nothing for it
	// until then, so a reader that fails before need not call it. A failure to read
	// (a compaction passing the page's revision meanwhile: Expired) is
	// returned as GetList returns it.
	Rest func(ctx context.Context, fn func(ObjectJSON) error) error
	// ResourceVersion is the revision the list was read at.
	ResourceVersion int64
	// Continue is the token of the next page, or empty on the last page.
	Continue string
	// RemainingItemCount is the number of matching items after this page,
	// when known.
	RemainingItemCount *int64
}

// UpdateFunc computes the new object from the current one.
type UpdateFunc func(current Object) (updated Object, err error)

// ValidateObjectFunc may veto a delete after seeing the current object.
type ValidateObjectFunc func(ctx context.Context, current Object) error

// Preconditions must hold on the current object for a write to happen.
type Preconditions struct {
	UID             *metav1.UID
	ResourceVersion *string
}

// Check returns a Conflict error if obj does not meet p.
func (p *Preconditions) Check(key string, obj Object) error {
	if p == nil {
		return nil
	}
	if p.UID != nil && *p.UID != obj.GetUID() {
		return &Error{Kind: ErrConflict, Key: key, Msg: "Precondition failed: UID in precondition: " + string(*p.UID) + ", UID in object meta: " + string(obj.GetUID())}
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != obj.GetResourceVersion() {
		return &Error{Kind: ErrConflict, Key: key, Msg: "Precondition failed: ResourceVersion in precondition: " + *p.ResourceVersion + ", ResourceVersion in object meta: " + obj.GetResourceVersion()}
	}
	return nil
}

// Codec turns an object into the bytes kept in the store and back.
type Codec interface {
	Encode(obj Object) ([]byte, error)
	// Decode fills into (a fresh object from ResourceConfig.NewFunc).
	Decode(data []byte, into Object) error
}

// ResourceConfig describes one resource kept in a Backend.
type ResourceConfig struct {
	// Prefix is the key prefix of the resource, e.g.
	// /registry/apiextensions.k8s.io/customresourcedefinitions.
	Prefix string
	// NewFunc returns an empty object to decode into.
	NewFunc func() Object
	// Codec encodes and decodes stored objects.
	Codec Codec
	// AttrFunc returns the labels and fields the Predicate matches on.
	// Nil means DefaultAttrs (metadata.name, metadata.namespace).
	AttrFunc AttrFunc
	// TTL, if > 0, is how long an object lives after each write to it
	// (Create, or a GuaranteedUpdate that changes it or creates it); then
	// the store deletes it (ttl.go). Events have one: kube-apiserver's
	// --event-ttl. Zero: objects live until deleted.
	TTL time.Duration
}

// Backend is the whole store: one revision counter, one history, and a
// store per resource on top.
type Backend interface {
	// ForResource returns the store of one resource.
	ForResource(cfg ResourceConfig) Interface
	// CurrentRevision returns the revision of the last acknowledged write.
	CurrentRevision(ctx context.Context) (int64, error)
	// Compact forgets history older than revision: reads and watches from
	// before it answer Expired.
	Compact(ctx context.Context, revision int64) error
	// Close stops every watch and releases the backend.
	Close() error
}
