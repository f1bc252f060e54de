// Package labels parses and matches label selectors, the `?labelSelector=`
// of every list and watch (`kubectl get -l app=web,tier!=db`).
//
// Vocabulary: a Selector is an AND of Requirements; a Requirement is a key,
// an Operator and a set of values ("env in (prod,qa)", "tier!=db", "!canary",
// "replicas>2"); a Set is a plain map of labels, which SelectorFromSet turns
// into an equality selector. Parse turns the query-string form into a
// Selector; Selector.String turns it back, in a canonical form (requirements
// sorted by key, set values sorted).
//
// Grammar (mirrors the comment on upstream's Parse):
//
//	<selector>    ::= <requirement> | <requirement> "," <selector>
//	<requirement> ::= [!] KEY [ <set-based> | <exact-match> | <compare> ]
//	<set-based>   ::= ( "in" | "notin" ) "(" VALUE { "," VALUE } ")"
//	<exact-match> ::= ( "=" | "==" | "!=" ) VALUE
//	<compare>     ::= ( ">" | "<" ) INTEGER
//
// KEY is a qualified name ([DNS subdomain "/"] name, name ≤ 63 chars); VALUE
// is empty or ≤ 63 chars of [A-Za-z0-9-_.] starting and ending alphanumeric.
// Whitespace separates tokens and is otherwise ignored.
//
// Upstream:
//   - k8s.io/apimachinery/pkg/labels: selector.go (Parse, Lexer, Parser,
//     Requirement, internalSelector), labels.go (Set)
//   - k8s.io/apimachinery/pkg/selection: operator.go (Operator)
//   - k8s.io/apimachinery/pkg/util/validation: IsQualifiedName,
//     IsValidLabelValue (in machinery/validation, shared with apis/validation)
//
// Differences from upstream:
//   - Matches takes a map[string]string, not a Labels interface.
//   - The Selector interface has no Add or DeepCopySelector; selectors are
//     immutable values.
//   - Errors are *Error values wrapping ErrInvalidSelector (upstream returns
//     plain fmt errors); their messages are upstream's.
//   - No field.Path options: errors about the key print "<nil>" as the path,
//     just as upstream's Parse does when called without a path.
package labels
