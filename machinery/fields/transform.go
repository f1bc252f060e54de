package fields

// TransformFunc rewrites one term's field and value (a field label
// conversion: events.k8s.io's "regarding.name" is core's
// "involvedObject.name"); an error rejects the selector.
type TransformFunc func(field, value string) (newField, newValue string, err error)

// Transform returns the selector with every term rewritten by fn.
//
// Mirrors fields.Selector.Transform.
func Transform(s Selector, fn TransformFunc) (Selector, error) {
	switch t := s.(type) {
	case hasTerm:
		f, v, err := fn(t.field, t.value)
		if err != nil {
			return nil, err
		}
		return hasTerm{field: f, value: v}, nil
	case notHasTerm:
		f, v, err := fn(t.field, t.value)
		if err != nil {
			return nil, err
		}
		return notHasTerm{field: f, value: v}, nil
	case andTerm:
		out := make(andTerm, 0, len(t))
		for _, term := range t {
			n, err := Transform(term, fn)
			if err != nil {
				return nil, err
			}
			out = append(out, n)
		}
		return out, nil
	}
	return s, nil
}
