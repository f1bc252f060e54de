package labels

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	utilvalidation "github.com/crdlab/crdlab/machinery/validation"
)

// Selector says whether a set of labels is selected.
//
// A Selector is immutable and safe for concurrent use. It satisfies
// storage.LabelSelector.
//
// Mirrors labels.Selector (without Add and DeepCopySelector).
type Selector interface {
	// Matches reports whether labels (nil means no labels) satisfy every
	// requirement.
	Matches(labels map[string]string) bool
	// Empty reports whether the selector selects everything.
	Empty() bool
	// String is the canonical text form, which Parse reads back to an equal
	// selector ("" for Everything).
	String() string
	// RequiresExactMatch returns the value label must have, if the selector
	// demands one through =, == or a one-value in.
	RequiresExactMatch(label string) (value string, found bool)
	// Requirements returns the requirements, sorted by key; selectable is
	// false for Nothing.
	Requirements() (reqs []Requirement, selectable bool)
}

// Operator relates a Requirement's key to its values.
//
// Mirrors k8s.io/apimachinery/pkg/selection.Operator; the values are
// upstream's.
type Operator string

// The operators a selector may use.
const (
	DoesNotExist Operator = "!"
	Equals       Operator = "="
	DoubleEquals Operator = "=="
	In           Operator = "in"
	NotEquals    Operator = "!="
	NotIn        Operator = "notin"
	Exists       Operator = "exists"
	GreaterThan  Operator = "gt"
	LessThan     Operator = "lt"
)

// binaryOperators is the order upstream lists them in its error messages.
var binaryOperators = []Operator{In, NotIn, Equals, DoubleEquals, NotEquals, GreaterThan, LessThan}

// Requirement is one condition of a selector: a key, an operator and the
// values the operator compares with. The zero Requirement is invalid: build
// one with NewRequirement or Parse.
//
// Mirrors labels.Requirement.
type Requirement struct {
	key      string
	operator Operator
	// values is sorted and without duplicates when built by Parse; it
	// holds one value for =, ==, !=, gt and lt and none for exists and !.
	values []string
}

// NewRequirement validates and builds a Requirement. The rules are
// upstream's: a qualified-name key; at least one value for in/notin;
// exactly one for =, ==, != (and an integer for gt/lt); none for exists
// and !; every value a valid label value.
//
// Mirrors labels.NewRequirement.
func NewRequirement(key string, op Operator, values []string) (*Requirement, error) {
	var msgs []string
	if m := validateKey(key, "key"); m != "" {
		msgs = append(msgs, m)
	}
	switch op {
	case In, NotIn:
		if len(values) == 0 {
			msgs = append(msgs, invalid("values", values, "for 'in', 'notin' operators, values set can't be empty"))
		}
	case Equals, DoubleEquals, NotEquals:
		if len(values) != 1 {
			msgs = append(msgs, invalid("values", values, "exact-match compatibility requires one single value"))
		}
	case Exists, DoesNotExist:
		if len(values) != 0 {
			msgs = append(msgs, invalid("values", values, "values set must be empty for exists and does not exist"))
		}
	case GreaterThan, LessThan:
		if len(values) != 1 {
			msgs = append(msgs, invalid("values", values, "for 'Gt', 'Lt' operators, exactly one value is required"))
		}
		for i, v := range values {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				msgs = append(msgs, invalid("values["+strconv.Itoa(i)+"]", v, "for 'Gt', 'Lt' operators, the value must be an integer"))
			}
		}
	default:
		quoted := make([]string, 0, len(binaryOperators)+2)
		for _, o := range append(slices.Clone(binaryOperators), Exists, DoesNotExist) {
			quoted = append(quoted, strconv.Quote(string(o)))
		}
		msgs = append(msgs, "operator: Unsupported value: "+strconv.Quote(string(op))+": supported values: "+strings.Join(quoted, ", "))
	}
	for i, v := range values {
		if errs := utilvalidation.IsValidLabelValue(v); len(errs) > 0 {
			msgs = append(msgs, invalid("values["+strconv.Itoa(i)+"]["+key+"]", v, strings.Join(errs, "; ")))
		}
	}
	r := &Requirement{key: key, operator: op, values: slices.Clone(values)}
	if err := aggregate(msgs); err != nil {
		return r, err
	}
	return r, nil
}

// Key returns the label key the requirement is about.
func (r Requirement) Key() string { return r.key }

// Operator returns the requirement's operator.
func (r Requirement) Operator() Operator { return r.operator }

// Values returns a copy of the requirement's values.
func (r Requirement) Values() []string { return slices.Clone(r.values) }

// Matches reports whether labels satisfy the requirement:
//   - in, =, ==: the key is present and its value is one of the values;
//   - notin, !=: the key is absent, or its value is none of the values;
//   - exists / !: the key is present / absent;
//   - gt, lt: the key is present and its value, read as an integer, is
//     greater / less than the requirement's integer.
//
// Mirrors (*labels.Requirement).Matches.
func (r Requirement) Matches(labels map[string]string) bool {
	v, has := labels[r.key]
	switch r.operator {
	case In, Equals, DoubleEquals:
		return has && slices.Contains(r.values, v)
	case NotIn, NotEquals:
		return !has || !slices.Contains(r.values, v)
	case Exists:
		return has
	case DoesNotExist:
		return !has
	case GreaterThan, LessThan:
		if !has || len(r.values) != 1 {
			return false
		}
		got, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		want, err := strconv.ParseInt(r.values[0], 10, 64)
		if err != nil {
			return false
		}
		if r.operator == GreaterThan {
			return got > want
		}
		return got < want
	default:
		return false
	}
}

// String renders the requirement as Parse reads it: "!k", "k", "k=v",
// "k==v", "k!=v", "k in (a,b)", "k notin (a,b)", "k>1", "k<1".
//
// Mirrors (*labels.Requirement).String.
func (r Requirement) String() string {
	var b strings.Builder
	if r.operator == DoesNotExist {
		b.WriteString("!")
	}
	b.WriteString(r.key)
	switch r.operator {
	case Exists, DoesNotExist:
		return b.String()
	case Equals, DoubleEquals, NotEquals:
		b.WriteString(string(r.operator))
	case In, NotIn:
		b.WriteString(" " + string(r.operator) + " (")
	case GreaterThan:
		b.WriteString(">")
	case LessThan:
		b.WriteString("<")
	}
	vals := r.values
	if !slices.IsSorted(vals) {
		vals = slices.Sorted(slices.Values(vals))
	}
	b.WriteString(strings.Join(vals, ","))
	if r.operator == In || r.operator == NotIn {
		b.WriteString(")")
	}
	return b.String()
}

// internalSelector is an AND of requirements, sorted by key. nil or empty
// selects everything.
//
// Mirrors labels.internalSelector.
type internalSelector []Requirement

func (s internalSelector) Matches(labels map[string]string) bool {
	for _, r := range s {
		if !r.Matches(labels) {
			return false
		}
	}
	return true
}

func (s internalSelector) Empty() bool { return len(s) == 0 }

func (s internalSelector) String() string {
	parts := make([]string, len(s))
	for i, r := range s {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

// RequiresExactMatch looks at the first requirement on label only, as
// upstream does.
func (s internalSelector) RequiresExactMatch(label string) (string, bool) {
	for _, r := range s {
		if r.key != label {
			continue
		}
		switch r.operator {
		case Equals, DoubleEquals, In:
			if len(r.values) == 1 {
				return r.values[0], true
			}
		}
		return "", false
	}
	return "", false
}

func (s internalSelector) Requirements() ([]Requirement, bool) {
	return slices.Clone([]Requirement(s)), true
}

// nothingSelector selects nothing. Mirrors labels.nothingSelector.
type nothingSelector struct{}

func (nothingSelector) Matches(map[string]string) bool           { return false }
func (nothingSelector) Empty() bool                              { return false }
func (nothingSelector) String() string                           { return "" }
func (nothingSelector) RequiresExactMatch(string) (string, bool) { return "", false }
func (nothingSelector) Requirements() ([]Requirement, bool)      { return nil, false }

// Everything returns the selector that selects every set of labels.
func Everything() Selector { return internalSelector(nil) }

// Nothing returns a selector that selects no set of labels. It has no
// text form: String returns "", which Parse reads as Everything.
func Nothing() Selector { return nothingSelector{} }

// NewSelector builds a selector from requirements (sorted by key here).
func NewSelector(reqs ...Requirement) Selector {
	s := internalSelector(slices.Clone(reqs))
	sortByKey(s)
	return s
}

func sortByKey(s internalSelector) {
	sort.SliceStable(s, func(i, j int) bool { return s[i].key < s[j].key })
}

// Set is a map of labels, as an object carries them.
//
// Mirrors labels.Set.
type Set map[string]string

// String renders the set as an equality selector, keys sorted: "a=1,b=2".
func (ls Set) String() string {
	keys := slices.Sorted(maps.Keys(ls))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + ls[k]
	}
	return strings.Join(parts, ",")
}

// SelectorFromSet returns the selector that requires every label of ls to
// have its value. A nil or empty set gives Everything. It does not validate
// keys or values (the server rejects bad ones when it parses String()).
//
// Mirrors labels.SelectorFromSet.
func SelectorFromSet(ls map[string]string) Selector {
	if len(ls) == 0 {
		return Everything()
	}
	s := make(internalSelector, 0, len(ls))
	for k, v := range ls {
		s = append(s, Requirement{key: k, operator: Equals, values: []string{v}})
	}
	sortByKey(s)
	return s
}

// ValidatedSelectorFromSet is SelectorFromSet, but it rejects invalid keys
// and values.
//
// Mirrors labels.ValidatedSelectorFromSet.
func ValidatedSelectorFromSet(ls map[string]string) (Selector, error) {
	if len(ls) == 0 {
		return Everything(), nil
	}
	s := make(internalSelector, 0, len(ls))
	for _, k := range slices.Sorted(maps.Keys(ls)) {
		r, err := NewRequirement(k, Equals, []string{ls[k]})
		if err != nil {
			return nil, err
		}
		s = append(s, *r)
	}
	sortByKey(s)
	return s, nil
}
