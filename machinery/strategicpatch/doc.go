// Package strategicpatch applies a strategic merge patch
// (application/strategic-merge-patch+json, what `kubectl patch` sends by
// default and what client-side `kubectl apply` and Helm 3 send for
// built-in kinds) to a JSON object, with the patch metadata of the Go type
// it is an object of.
//
// Vocabulary:
//   - A strategic merge patch is a JSON merge patch (package
//     machinery/patch) whose lists may merge instead of being replaced,
//     and which may carry directives.
//   - Patch metadata (PatchMeta) says how one field's value merges: its
//     patch strategies (the Go struct tag `patchStrategy`: "merge",
//     "replace", "retainKeys") and, for a list of objects, its merge key
//     (`patchMergeKey`: the field that names an element, "uid" for
//     ownerReferences, "type" for conditions). A list without the "merge"
//     strategy is replaced whole.
//   - LookupPatchMeta finds the metadata of a field by its JSON name, one
//     level at a time; PatchMetaFromStruct reads it from struct tags.
//   - Directives: `$patch: replace|delete|merge` in an object or a list
//     element, `$retainKeys: [...]` (fields not listed are cleared),
//     `$setElementOrder/<list>: [...]` (the order of the merged list) and
//     `$deleteFromPrimitiveList/<list>: [...]` (values to remove from a
//     merging list of scalars).
//
// Layout: meta.go (the metadata lookup), patch.go (StrategicMergePatch,
// mergeMap, mergeSlice and the directives), errors.go.
//
// Upstream:
//   - k8s.io/apimachinery/pkg/util/strategicpatch: patch.go
//     (StrategicMergePatch, StrategicMergeMapPatchUsingLookupPatchMeta,
//     mergeMap, mergeSlice, mergePatchIntoOriginal,
//     applyRetainKeysDirective, normalizeElementOrder), meta.go
//     (PatchMetaFromStruct, LookupPatchMeta)
//   - k8s.io/apimachinery/third_party/forked/golang/json/fields.go
//     (LookupPatchMetadataForStruct)
//   - k8s.io/apimachinery/pkg/util/mergepatch/errors.go (the errors)
//
// Differences from upstream:
//   - Only applying a patch: creating one (CreateTwoWayMergePatch,
//     CreateThreeWayMergePatch) is the client's work; metadata comes from
//     struct tags only, not from OpenAPI extensions.
//   - The fields of a patch are merged in sorted order (upstream: Go's
//     map order), so a result never depends on chance.
//   - Numbers stay json.Number; a list mixing integers and decimals
//     merges (upstream: int64 and float64 are different types, an error).
//   - Input upstream panics on (a merge key or $retainKeys value that is
//     an object or list, a list of nulls) is an error here.
package strategicpatch
