// Package jsonpath evaluates the JSONPath expressions of a CRD's
// additionalPrinterColumns (".spec.replicas",
// ".status.conditions[?(@.type=='Ready')].status") against a custom
// resource, for the Table that `kubectl get` prints.
//
// Vocabulary: an expression is a chain of steps applied to a list of
// values, starting with the object itself: a field (".name", "['a.b/c']",
// `.a\.b`), a wildcard (".*", "[*]"), an index ("[0]", "[-1]"), a slice
// ("[1:3]", "[::2]"), a recursive descent ("..name") or a filter
// ("[?(@.type=='Ready')]", "[?(@.port>80)]", "[?(@.name)]"). Each step maps
// every value to zero or more values; Execute returns what is left. A
// missing field, an index out of range or a null yields no value rather
// than an error, as upstream's AllowMissingKeys(true), which the CRD table
// convertor sets.
//
// The expression may be wrapped in one pair of braces ("{.spec.x}") and
// may start with "$"; "." alone is the object itself.
//
// Upstream:
//   - k8s.io/client-go/util/jsonpath: parser.go (Parse), node.go (the
//     node kinds), jsonpath.go (FindResults, evalField, evalArray,
//     evalFilter, evalRecursive, evalWildcard)
//   - k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor:
//     how printer columns use it
//
// Differences from upstream:
//   - One expression only: no text around the braces, no several
//     {…}{…} templates, no range/end, no unions ("[0,2]", "['a','b']").
//   - Missing keys are always allowed (never an error).
//   - Filters compare numbers by value whatever their Go type, and values
//     of different kinds are simply unequal (upstream errors with
//     "incompatible types for comparison").
//   - Map wildcards and recursive descent visit keys in sorted order, so
//     results are deterministic.
package jsonpath
