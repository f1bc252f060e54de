// Package storage is the storage contract of crdlab: what a versioned
// store must do for the registry above it, with etcd's semantics, and the
// rules every engine applies the same way. It keeps no data itself; the
// engines, in their own packages, do.
//
// # Vocabulary
//
// A key is the path of one object, readable as upstream's:
// /registry/<group>/<resource>/[<namespace>/]<name> (ResourcePrefix,
// ObjectKey). A revision is a number the whole store gives to each write,
// one more than the last; the written object's metadata.resourceVersion
// is that number in decimal. History is every write not yet compacted;
// compaction forgets history before a revision, and reads or watches from
// before it are Expired (410). A Backend is the whole store (one revision
// counter); an Interface is one resource's view of it, under one key
// prefix with one codec (a ResourceConfig, completed as a Resource). A
// watch sends every change after a revision once, in order; a bookmark is
// a watch event that only moves the resourceVersion on. A continue token
// carries a list's revision and next key, so every page is read at one
// revision. Every error is an *Error whose Kind is one sentinel
// (ErrNotFound, ErrConflict, …): test it with errors.Is.
//
// # Layout
//
//	interfaces.go  Interface, Backend, their options, Preconditions, Codec
//	errors.go      the error kinds and *Error
//	resource.go    Resource: encode without resourceVersion, decode with it, bookmarks
//	keys.go        keys, prefixes, key ranges
//	list.go        the resourceVersion rules of a list (PlanList)
//	continue.go    continue tokens, in upstream's format
//	watch.go       the resourceVersion rules of a watch (PlanWatch), ERROR events
//	ttl.go         expiry: objects of a resource with a TTL
//	predicate.go   label and field selection
//	codec.go       JSONCodec
//	metadata.go    MetadataJSON: an object's metadata cut from its stored bytes, for metadata-only watches
//	objectjson.go  ObjectJSON: a listed object's stored bytes, written with its resourceVersion spliced in
//
// The engines are storage/bolt (the default: one bbolt file, one process)
// and storage/etcd3 (an etcd v3 cluster that several servers share); both
// pass one conformance suite, storage/storagetest. How each works, and the
// notes for maintainers, are in docs/storage.md.
//
// # Upstream
//
//   - k8s.io/apiserver/pkg/storage: interfaces.go (Interface, ListOptions,
//     Preconditions, ValidateListOptions, PrepareKey), errors.go,
//     continue.go, selection_predicate.go, api_object_versioner.go
//     (PrepareObjectForStorage, UpdateObject), util.go
//   - k8s.io/apiserver/pkg/storage/etcd3/watcher.go: transformErrorToEvent
//
// # Differences from upstream
//
//   - One error type whose Kind is a sentinel, tested with errors.Is;
//     upstream has error codes and an IsX function per code.
//   - A Backend (the revision counter, Compact) hands out one Interface per
//     resource; upstream builds a store per resource from a
//     storagebackend.Config and compacts from the server.
//   - No Versioner: a resourceVersion is always the revision in decimal.
//   - GetList returns a ListResult instead of filling a list object.
//   - A watch may ask for metadata only (ListOptions.MetadataOnly): an
//     engine may then send each object's metadata as stored
//     (MetadataJSON) without decoding it; upstream decodes every object.
//   - A list may ask for the stored bytes (ListOptions.Encoded): an engine
//     may then answer a list without selectors with each object's JSON
//     (ObjectJSON), decoding none; upstream's lists are decoded objects
//     from the watch cache, encoded again by the serializer. Besides
//     JSONCodec's objects, a JSONStorer's (the CRDs' codec) may go out so;
//     the reader decides which of those bytes it can write as they are
//     (for CRDs: those written since the bolt engine's WrittenSince).
//     A reader that writes them out as it goes (ListOptions.Stream) may
//     get a long page in two parts, the rest read a chunk at a time into
//     one buffer (ListResult.Rest): a list of 100,000 objects holds a
//     chunk of them instead of all 345 MB. Upstream's watch-cache list
//     holds every object at once too (shallow copies of the cached
//     objects, cacher.go GetList).
//   - Not implemented: Stats, ReadinessCheck, RequestWatchProgress,
//     EnableResourceSizeEstimation, and storage transformers (encryption).
package storage
