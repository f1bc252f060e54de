// Package scheme is crdlab's resource registry and its codecs: it knows which
// Go type serves each kind in each version, how to convert objects between
// versions through the internal (hub) version, how to default them, and how
// to turn JSON or YAML into objects and back.
//
// Vocabulary (after k8s.io/apimachinery/pkg/runtime/scheme.go):
//
//   - A Group is a named family of APIs, e.g. "apps" or
//     "apiextensions.k8s.io"; the legacy core group is "".
//   - A Version is one shape of a group's API, e.g. "v1" or "v1beta1". Each
//     group also has an internal version, APIVersionInternal ("__internal"):
//     the hub every external version converts to and from. It is never read
//     from or written to the wire or to storage.
//   - A Kind is the name of an object type within a version, e.g.
//     "Deployment"; a GroupVersionKind names exactly one Go type in the
//     scheme. A Resource is the lower-case plural used in URLs
//     ("deployments"); a GroupVersionResource names one.
//   - A Type is the Go struct (registered as a pointer, under its name or
//     an explicit GroupVersionKind) serving a kind. It implements Object:
//     it exposes its apiVersion and kind and can deep-copy itself.
//   - A conversion function converts one Go type into another (an external
//     version to the hub or back); ConvertToVersion chains two of them:
//     external → internal → external, which is why N versions need 2N
//     functions rather than N².
//   - A defaulting function fills unset fields of one external type; the
//     decoder applies it in the version the object was written in, before
//     any conversion.
//   - The version priority of a group lists its external versions, preferred
//     first; the first is what clients get when they do not ask.
//   - A CodecFactory decodes (sniff apiVersion/kind, build the registered
//     type, unmarshal, default) and encodes (convert, set apiVersion/kind,
//     marshal) through a Scheme. A type with a few large subtrees may
//     read them with a parser of its own (JSONSplitter, splitjson.go: a
//     CRD's schemas); DecodeJSON falls back to encoding/json for anything
//     but the plain case, so objects and errors are encoding/json's.
//     Encode writes through the object's AppendJSON when it has one
//     (JSONAppender, MarshalJSON).
//   - Strict decoding (StrictErrors, strict.go) finds the fields a
//     document's type does not have and the keys it repeats; it is
//     crdlab's one strict decoder, used by Decode and by the handler.
//
// Thread safety: a Scheme is built by registration (AddKnownTypes,
// AddConversionFunc, AddTypeDefaultingFunc, SetVersionPriority) at start-up
// and is safe for concurrent use after it, never during it. Registration
// panics only on programmer errors (one kind, two types; a non-pointer).
//
// Upstream:
//   - k8s.io/apimachinery/pkg/runtime: scheme.go (Scheme, AddKnownTypes,
//     ConvertToVersion, Default, SetVersionPriority), interfaces.go (Object),
//     error.go (IsNotRegisteredError), codec.go
//   - k8s.io/apimachinery/pkg/runtime/schema: group_version.go, interfaces.go
//   - k8s.io/apimachinery/pkg/runtime/serializer: codec_factory.go, json/json.go
//     (YAML and JSON, strict mode), versioning/versioning.go;
//     sigs.k8s.io/json (UnmarshalStrict: unknown and duplicate fields)
//   - k8s.io/apimachinery/pkg/conversion/queryparams and runtime.ParameterCodec (params.go)
//
// Differences from upstream:
//   - conversion functions are registered per pair of top-level types
//     (AddConversionFunc) with no conversion.Scope; there is no reflection-
//     based converter for nested fields and no generated code: each API
//     package writes its conversions out.
//   - no unversioned types, no protobuf or CBOR serializers, no content
//     negotiation: JSON in, JSON or YAML out; Decode rejects documents
//     that name the internal version.
package scheme
