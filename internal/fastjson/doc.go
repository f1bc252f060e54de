// Package fastjson parses well-formed JSON into Go values in one pass,
// without reflection, for the two hot readers that need it: every custom
// resource's body and stored object (apis/meta/v1/unstructured), and every
// CRD's schema (apis/apiextensions/structural).
//
// Vocabulary:
//   - a Decode reads one JSON value into maps (map[string]any), slices
//     ([]any), strings, bools, nils and numbers;
//   - the Numbers mode says what a number becomes: json.Number (what
//     encoding/json's Decoder with UseNumber gives: a schema keeps its
//     numbers as written) or int64 when whole and in range, else float64
//     (what upstream's unstructured JSON decoding gives after its
//     convertNumbers pass).
//
// It handles well-formed input only. On anything else (a syntax error,
// trailing data, a number out of range, nesting deeper than encoding/json's
// limit of 10,000) ok is false and the caller takes encoding/json's path,
// which words the error. Strings with escapes or non-ASCII bytes are
// unquoted by encoding/json itself, so that surrogates and invalid UTF-8
// come out exactly as its own. FuzzDecodeObjectFast and
// FuzzDecodeSchemaJSON (in the callers' packages) compare both modes with
// encoding/json.
//
// Upstream: none. kube-apiserver decodes with encoding/json (through
// sigs.k8s.io/json, a fork with case-sensitive keys and int64 numbers)
// and pays its reflection; crdlab profiled a fifth of a create's CPU, and
// half of a real-size CRD's validation, in it.
package fastjson
