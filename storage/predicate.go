package storage

// LabelSelector matches an object's labels. Package labels parses them.
type LabelSelector interface {
	Matches(labels map[string]string) bool
	Empty() bool
	String() string
}

// FieldSelector matches an object's selectable fields. Package fields
// parses them.
type FieldSelector interface {
	Matches(fields map[string]string) bool
	Empty() bool
	String() string
	// RequiresExactMatch returns the value field must equal, if the
	// selector demands one (lets a store narrow metadata.name lookups).
	RequiresExactMatch(field string) (value string, found bool)
}

// AttrFunc returns the labels and fields of obj that selectors look at.
type AttrFunc func(obj Object) (labels map[string]string, fields map[string]string, err error)

// DefaultAttrs returns obj's labels and its metadata.name and
// metadata.namespace fields.
func DefaultAttrs(obj Object) (map[string]string, map[string]string, error) {
	return obj.GetLabels(), map[string]string{
		"metadata.name":      obj.GetName(),
		"metadata.namespace": obj.GetNamespace(),
	}, nil
}

// SelectionPredicate selects objects by label and field, and pages lists.
//
// Mirrors k8s.io/apiserver/pkg/storage.SelectionPredicate.
type SelectionPredicate struct {
	// Label and Field may be nil: nil matches everything.
	Label LabelSelector
	Field FieldSelector
	// GetAttrs overrides ResourceConfig.AttrFunc when set.
	GetAttrs AttrFunc
	// Limit is the maximum number of items of a list page; 0 means all.
	Limit int64
	// Continue is the token of the page to read, from a previous page.
	Continue string
	// AllowWatchBookmarks lets a watch send BOOKMARK events.
	AllowWatchBookmarks bool
}

// Empty reports whether p matches everything.
func (p SelectionPredicate) Empty() bool {
	return (p.Label == nil || p.Label.Empty()) && (p.Field == nil || p.Field.Empty())
}

// Matches reports whether obj is selected, using attrs for its attributes.
func (p SelectionPredicate) Matches(obj Object, attrs AttrFunc) (bool, error) {
	if p.Empty() {
		return true, nil
	}
	if p.GetAttrs != nil {
		attrs = p.GetAttrs
	}
	if attrs == nil {
		attrs = DefaultAttrs
	}
	l, f, err := attrs(obj)
	if err != nil {
		return false, err
	}
	if p.Label != nil && !p.Label.Empty() && !p.Label.Matches(l) {
		return false, nil
	}
	if p.Field != nil && !p.Field.Empty() && !p.Field.Matches(f) {
		return false, nil
	}
	return true, nil
}
