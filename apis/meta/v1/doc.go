// Package v1 holds the meta types every API object and every request shares:
// TypeMeta (apiVersion, kind), ObjectMeta (name, namespace, uid,
// resourceVersion, labels, finalizers …), ListMeta, the Status every error is
// answered with, the option structs of each verb, discovery documents and the
// Table that kubectl prints.
//
// Vocabulary: an Object (this package) is anything with ObjectMeta — read and
// written through the Object interface, which both typed structs and
// Unstructured implement; a RuntimeObject is also a scheme.Object. A
// Condition is the standard status entry (type, status, reason, message).
// A ManagedFieldsEntry is one manager's share of an object's fields
// (package machinery/managedfields keeps them).
// Time travels as RFC 3339 with second precision, MicroTime with
// microseconds. List holds objects of any kinds (kind: List).
//
// JSON field names are exactly upstream's, so real clients decode them.
//
// Upstream:
//   - k8s.io/apimachinery/pkg/apis/meta/v1: types.go, time.go, meta.go, group_version.go
//   - k8s.io/apimachinery/pkg/api/meta: Accessor
//   - k8s.io/apimachinery/pkg/version: Info (here VersionInfo)
//
// Differences from upstream:
//   - DeepCopy is one reflective function (internal/deepcopy), not generated code.
//   - LabelSelector as a struct (only its requirements are here), Duration
//     and the protobuf
//     encodings are not here.
package v1
