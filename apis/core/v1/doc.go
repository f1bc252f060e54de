// Package v1 is core/v1, the wire version of the legacy core group served
// under /api/v1: Namespace, Secret, ConfigMap, Event and List, with
// upstream's JSON names, defaults and conversions to the hub (package
// core).
//
// Layout: types.go (the wire types), defaults.go (SetDefaults_*),
// conversion.go (the conversions that are not field-for-field: Secret's
// stringData), zz_conversion.go (the field-for-field ones, in upstream's
// generated shape), register.go.
//
// Conversion rules worth knowing:
//   - Secret: stringData is write-only; on the way to the hub every
//     stringData key overwrites the same key of data. The hub has no
//     stringData, so it is never read back.
//   - Namespace: defaulting adds the kubernetes.io/metadata.name label
//     and the Active phase.
//
// Upstream:
//   - k8s.io/api/core/v1: types.go, register.go, well_known_labels.go
//   - k8s.io/kubernetes/pkg/apis/core/v1: defaults.go (SetDefaults_Secret,
//     SetDefaults_Namespace, SetDefaults_NamespaceStatus,
//     SetDefaults_ConfigMap), conversion.go
//     (Convert_v1_Secret_To_core_Secret), zz_generated.conversion.go
//
// Differences from upstream:
//   - only these kinds; no protobuf tags (crdlab writes JSON only).
package v1
