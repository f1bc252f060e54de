// Package patch applies the two patch formats kube-apiserver accepts for
// custom resources: JSON merge patch (RFC 7386,
// application/merge-patch+json, what client-side `kubectl apply` and
// `kubectl patch --type merge` send) and JSON patch (RFC 6902,
// application/json-patch+json, `kubectl patch --type json`).
//
// Vocabulary: the document is the object being patched (its JSON); a merge
// patch is an object whose fields replace the document's, null deleting
// and objects merging recursively; a JSON patch is an array of operations
// (add, remove, replace, move, copy, test) addressed by JSON pointers
// (RFC 6901: "/spec/ports/0/name", "~1" for "/", "~0" for "~", "-" for the
// end of an array). Every error is an *Error whose Code says which HTTP
// answer the server owes (see Code).
//
// Numbers travel through untouched (as json.Number): a patch never turns
// 10000000000000001 into a float.
//
// Upstream:
//   - gopkg.in/evanphx/json-patch.v4: merge.go (MergePatch,
//     CreateMergePatch), patch.go (DecodePatch, Patch.Apply)
//   - k8s.io/apiserver/pkg/endpoints/handlers/patch.go
//     (jsonPatcher.applyJSPatch: maxJSONPatchOperations, which patch
//     errors are 400, 413 and 422)
//
// Differences from upstream:
//   - JSON patch follows RFC 6902 strictly where evanphx is lenient: no
//     negative array indexes, "value" is required for add/replace/test,
//     replace and remove of a missing member fail, an invalid "~" escape
//     fails, and a location cannot be moved into its own child.
//   - A merge patch on a document that is not an object replaces it with
//     the patch applied to {} (RFC 7386); CreateMergePatch takes objects
//     only.
//   - Limits are package constants (MaxOperations, MaxDepth, MaxCopyBytes),
//     not global variables.
//   - test compares numbers by value (1 equals 1.0); evanphx compares their
//     text.
package patch
