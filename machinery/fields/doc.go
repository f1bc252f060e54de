// Package fields parses and matches field selectors, the `?fieldSelector=`
// of lists and watches (`kubectl get --field-selector metadata.name=web`,
// and what `kubectl wait` and `kubectl delete --wait` send).
//
// Vocabulary: a Selector is an AND of terms; a term is a field, "=" / "=="
// (has the value) or "!=" (does not have it), and a value. Fields are the
// flat names a resource makes selectable ("metadata.name",
// "metadata.namespace", "status.phase"); a field the object does not have
// reads as "". In values, "\", "," and "=" are escaped with a backslash
// (EscapeValue, UnescapeValue).
//
// Upstream:
//   - k8s.io/apimachinery/pkg/fields: selector.go (ParseSelector, hasTerm,
//     notHasTerm, andTerm, EscapeValue, UnescapeValue), fields.go (Set)
//
// Differences from upstream:
//   - Matches takes a map[string]string, not a Fields interface.
//   - No Transform / TransformFunc and no Requirements: the server checks
//     which fields a resource supports itself.
//   - SelectorFromSet sorts its terms, so String is deterministic.
//   - Errors are *Error values wrapping ErrInvalidSelector; their messages
//     are upstream's.
package fields
