// Package protobuf reads request bodies in Kubernetes' protobuf wire format
// (Content-Type application/vnd.kubernetes.protobuf) and turns them into
// the JSON the rest of crdlab decodes.
//
// Why crdlab needs it: client-go's generated clientsets for built-in API
// groups send protobuf by default. The typed apiextensions clientset
// (k8s.io/apiextensions-apiserver/pkg/client/clientset), which operators
// use to install their CRDs, creates and updates CustomResourceDefinitions
// and sends DeleteOptions as protobuf, and never falls back to JSON. Its
// Accept header also offers JSON, so answers stay JSON: only reading is
// needed.
//
// Vocabulary:
//   - envelope: every body starts with the magic bytes "k8s\x00", then a
//     runtime.Unknown message: typeMeta (apiVersion, kind), raw (the
//     object's own message), contentEncoding, contentType.
//   - message: a protobuf message, a sequence of fields, each a tag
//     (field number and wire type) and a value: a varint, 8 or 4 fixed
//     bytes, or length-delimited bytes (strings, bytes, nested messages,
//     map entries).
//   - descriptor: what crdlab knows of one message type — for each field
//     number, its JSON name and how to turn its value into JSON. The
//     descriptors are the field tables of upstream's generated.proto files.
//
// Which kinds: apiextensions.k8s.io/v1 CustomResourceDefinition (with
// meta/v1 ObjectMeta) and DeleteOptions, of any group version; and the
// built-in kinds of the kube-apiserver link (builtin.go: Namespace,
// Secret, ConfigMap, Event, events.k8s.io Event, Lease, the
// self-reviews), which controller-runtime's client sends as protobuf.
// Anything else is an *UnsupportedKindError, which the handler answers
// with 415.
//
// Upstream:
//   - k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go
//     (the envelope, Serializer.Decode)
//   - k8s.io/apimachinery/pkg/runtime/generated.proto (Unknown, TypeMeta)
//   - k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto (ObjectMeta,
//     Time, DeleteOptions …) and time_proto.go (Time's encoding)
//   - k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/generated.proto
//     and marshal.go (JSONSchemaPropsOrBool/OrArray/OrStringArray as JSON)
//   - k8s.io/api: core/v1, events/v1, coordination/v1, authorization/v1
//     and authentication/v1 generated.proto; meta/v1 micro_time_proto.go
//
// Differences from upstream:
//   - Decoding only, into JSON rather than Go structs; upstream's
//     serializers encode answers in protobuf too.
//   - not supported: protobuf for apiextensions.k8s.io/v1beta1 (removed
//     from kube-apiserver in 1.22), for custom resources (upstream has no
//     protobuf for them either) and for the kinds crdlab does not serve.
//   - Fields crdlab does not know (a newer client's) are skipped, as
//     protobuf decoders skip unknown fields.
package protobuf
