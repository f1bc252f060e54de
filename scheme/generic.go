package scheme

// Typed registration helpers: an API package registers its functions with
// their real signatures, and the helpers wrap them in the untyped forms the
// Scheme keeps. Upstream's generated RegisterConversions and
// RegisterDefaults do the same with one closure per function.

// AddConversion registers fn, which converts *In into *Out, in s.
func AddConversion[In, Out Object](s *Scheme, fn func(in In, out Out) error) {
	var in In
	var out Out
	s.AddConversionFunc(in, out, func(a, b Object) error { return fn(a.(In), b.(Out)) })
}

// AddDefaulting registers fn as the defaulting function of T in s.
func AddDefaulting[T Object](s *Scheme, fn func(T)) {
	var zero T
	s.AddTypeDefaultingFunc(zero, func(obj Object) { fn(obj.(T)) })
}

// ConvertSlice converts the items of a list one by one with fn, as the
// generated conversion of a list's Items does. A nil slice stays nil.
func ConvertSlice[A, B any](in []A, fn func(*A, *B) error) ([]B, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]B, len(in))
	for i := range in {
		if err := fn(&in[i], &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}
