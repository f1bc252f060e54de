// Package v1beta1 is apiextensions.k8s.io/v1beta1, the historical shape of
// CustomResourceDefinition: a top-level version, validation, subresources
// and additionalPrinterColumns (JSON field "JSONPath") that apply to every
// version, with an optional versions list. Upstream stopped serving it in
// Kubernetes 1.22; crdlab keeps it to convert old manifests and to show
// how a hub lets two shapes of one kind coexist.
//
// Vocabulary: see package apiextensions. Defaulting differs from v1:
// scope defaults to Namespaced, preserveUnknownFields to true, version and
// versions fill each other, and a Webhook conversion gets review version
// "v1beta1".
//
// Layout: types*.go, conversion.go (the JSON values), defaults.go,
// register.go; zz_*.go hold what upstream generates (field-for-field
// conversions, defaulting and deep-copy plumbing), written by hand in its
// shape. Skip them.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1: types.go,
//     types_jsonschema.go, marshal.go, conversion.go, defaults.go, register.go
//
// Differences from upstream:
//   - conversions are written out (no conversion-gen), without a Scope.
//   - the nested JSONSchemaProps decoders are not strict.
//   - crdlab's server does not serve this version; only the scheme (and
//     crdlab convert) know it.
package v1beta1
