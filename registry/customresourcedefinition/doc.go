// Package customresourcedefinition is the REST storage of
// CustomResourceDefinitions: a registry.Store of internal
// *apiextensions.CustomResourceDefinition objects (the handler converts to
// and from v1 or v1beta1), kept in storage as apiextensions.k8s.io/v1 JSON,
// plus the /status subresource the controllers write conditions through.
//
// Vocabulary: the strategy resets status on create and records the storage
// version in status.storedVersions (and appends every later storage
// version: objects may still be stored in it); generation counts spec
// changes; the status strategy writes status and finalizers only. Deleting
// a CRD first only marks it — deletionTimestamp, the
// customresourcecleanup.apiextensions.k8s.io finalizer and
// Terminating=True — so that the finalizer controller can delete every
// custom resource; it then removes the finalizer through /status, and that
// update deletes the CRD.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition:
//     etcd.go (NewREST, REST.Delete, StatusREST, ShortNames, Categories),
//     strategy.go (strategy, statusStrategy)
//
// Differences from upstream:
//   - The storage codec is spelled out (Codec: internal ⇄ v1 JSON through
//     the scheme) instead of coming from the generic server's
//     RESTOptionsGetter.
//   - A list in v1 JSON takes the stored bytes of CRDs this build wrote,
//     with the resourceVersion spliced in, instead of decoding and writing
//     each again (stored.go, CodecVersion); upstream encodes every item
//     of the watch cache's list.
//   - The codec remembers the specs it last read or wrote (specmemo.go):
//     a stored CRD whose spec is one of them is decoded without its spec,
//     and a create's read-back takes the spec it has just written when
//     that spec reads back as written (Codec.decodeWritten,
//     apiextensions.SpecWritesAsRead); upstream decodes every value it
//     reads or writes whole.
//   - No table convertor (the handler prints CRDs), no dropDisabledFields
//     (no feature gates), no warnings for deprecated fields.
//   - No generic garbage collection of the CRD's dependents: the finalizer
//     controller does the only cleanup there is.
package customresourcedefinition
