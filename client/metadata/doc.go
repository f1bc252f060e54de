// Package metadata reads, watches, patches and deletes the objects of any
// resource as their metadata alone: meta.k8s.io/v1 PartialObjectMetadata.
// The server leaves out everything but metadata (spec, status, data …), so
// a controller that needs only names, owners and finalizers — the garbage
// collector, the namespace controller — neither receives nor decodes the
// rest. It is the dynamic client's sibling (package dynamic), for clients
// that need less.
//
// Vocabulary:
//   - The client asks for the conversion in its Accept header:
//     application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1 (one
//     object, and each watch event), as=PartialObjectMetadataList (a
//     list), with a plain application/json fallback for a server that
//     cannot convert.
//   - Get, Patch answer a *metav1.PartialObjectMetadata, List a
//     *metav1.PartialObjectMetadataList, and Watch events carry
//     *metav1.PartialObjectMetadata (ERROR events a *metav1.Status).
//     Their apiVersion and kind are empty, as upstream's decoder leaves
//     them: the caller knows the resource it asked for.
//   - A server that answered the whole object anyway is read as metadata
//     too; an answer that does not look like an object's metadata (no
//     name, uid or creationTimestamp) is an error.
//   - Objects and watch events are decoded in one pass without reflection
//     (decode.go: decodePartial), with encoding/json for what the scanner
//     does not take (escapes, keys in another case, errors).
//   - A Client made with OmitManagedFields returns objects without
//     metadata.managedFields: they are read and checked, not kept (the
//     garbage collector and the namespace controller never read them);
//     OmitLabelsAndAnnotations does the same for labels and annotations
//     (the garbage collector's).
//
// Upstream: k8s.io/client-go/metadata: interface.go (Interface, Getter,
// ResourceInterface), metadata.go (Client, NewForConfig, client.Get, List,
// Watch, Patch, Delete, DeleteCollection, isLikelyObjectMetadata).
//
// Differences from upstream: JSON only (upstream asks for protobuf first);
// OmitManagedFields and OmitLabelsAndAnnotations are crdlab's (upstream's
// informers drop managedFields in a transform, after decoding them);
// no ConfigFor, NewForConfigAndClient, fake client, metadatainformer or
// metadatalister (an informer.ListWatch over this client does that).
package metadata
