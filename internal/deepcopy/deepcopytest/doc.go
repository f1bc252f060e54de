// Package deepcopytest checks hand-written deep copies, such as the
// field-by-field copies of JSONSchemaProps that internal/deepcopy.Register
// installs in place of its reflective copy.
//
// Vocabulary:
//   - Fill sets every exported field reachable from a value to a random
//     non-zero value, so that a field a copy forgets shows as a difference.
//   - Shared finds memory (pointers, slices, maps) a copy shares with its
//     original.
//
// Upstream: none as such; k8s.io/apimachinery's generated deep copies are
// checked by round-trip fuzzing (pkg/api/apitesting/roundtrip), which
// fills objects with sigs.k8s.io/randfill in the same spirit.
//
// Test-only: imported by _test.go files, never by the server.
package deepcopytest
