// Package unstructured holds objects as the JSON maps they arrive as.
// Custom resources have no Go type in crdlab (nor in kube-apiserver): they
// are decoded into an Unstructured, validated, defaulted and pruned against
// the CRD's schema, stored, and sent back — all as maps.
//
// Vocabulary: an Unstructured wraps map[string]any with accessors for
// TypeMeta and ObjectMeta; Nested* helpers read and write a path of field
// names; an UnstructuredList is a list document with Items.
//
// Upstream:
//   - k8s.io/apimachinery/pkg/apis/meta/v1/unstructured: unstructured.go,
//     unstructured_list.go, helpers.go
//
// Differences from upstream: no UnstructuredJSONScheme; decoding is
// DecodeJSONObject (whole numbers become int64, as upstream). Accessors that
// meet a value of the wrong type return the zero value instead of logging.
package unstructured
