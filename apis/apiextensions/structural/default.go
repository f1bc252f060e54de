package structural

// Default sets, in obj and everything below it, each field the schema gives
// a default to and that is missing — or null where the schema does not
// allow null. Defaults are deep-copied, so objects never share them. It
// walks properties, additionalProperties and array items, and a default
// just set is itself defaulted below.
//
// Default runs after decoding and before validation (on create, update and
// read from storage); a null in a nullable field is kept.
//
// Mirrors defaulting.Default (structural defaulting, algorithm.go).
func Default(s *Structural, obj map[string]any) {
	defaultValue(obj, s)
}

// nonNullableNull says x is a null the schema does not allow. Mirrors
// isNonNullableNull.
func nonNullableNull(x any, s *Structural) bool {
	return x == nil && s != nil && !s.Nullable
}

func defaultValue(x any, s *Structural) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for k, prop := range s.Properties {
			if prop == nil || prop.Default == nil {
				continue
			}
			if v, found := x[k]; !found || nonNullableNull(v, prop) {
				x[k] = deepCopyJSON(prop.Default)
			}
		}
		for k, v := range x {
			if prop, found := s.Properties[k]; found {
				defaultValue(v, prop)
			} else if ap := s.AdditionalProperties; ap != nil {
				if nonNullableNull(v, ap) && ap.Default != nil {
					x[k] = deepCopyJSON(ap.Default)
				}
				defaultValue(x[k], ap)
			}
		}
	case []any:
		for i, v := range x {
			if nonNullableNull(v, s.Items) && s.Items.Default != nil {
				x[i] = deepCopyJSON(s.Items.Default)
			}
			defaultValue(x[i], s.Items)
		}
	}
}
