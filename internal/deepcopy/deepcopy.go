package deepcopy

import (
	"reflect"
	"sync"
)

// copiers are the typed copy functions of pointer types (Register), by
// the pointer's reflect.Type.
var copiers sync.Map // reflect.Type -> func(reflect.Value) reflect.Value

// Register makes Copy use copy for every *T it meets, at the top or
// anywhere inside a value, instead of reflection. copy must return a
// value sharing no memory with its argument (nil for nil). A package
// registers in its init the types that are big and copied often: a CRD's
// schema has thousands of nodes, and reflection visits each field of each.
func Register[T any](copy func(*T) *T) {
	copiers.Store(reflect.TypeFor[*T](), func(v reflect.Value) reflect.Value {
		return reflect.ValueOf(copy(v.Interface().(*T)))
	})
}

// Copy returns a deep copy of v.
//
// The optional scalars and string lists of API types (a schema's
// *int64 maximum, a []string of required fields) are copied without
// reflection: converting a real-size CRD between versions copies tens of
// thousands of them, most nil, and the reflective path allocated for each.
func Copy[T any](v T) T {
	switch x := any(v).(type) {
	case *int64:
		if x != nil {
			c := *x
			return any(&c).(T)
		}
		return v
	case *float64:
		if x != nil {
			c := *x
			return any(&c).(T)
		}
		return v
	case *string:
		if x != nil {
			c := *x
			return any(&c).(T)
		}
		return v
	case *bool:
		if x != nil {
			c := *x
			return any(&c).(T)
		}
		return v
	case []string:
		if x != nil {
			return any(append(make([]string, 0, len(x)), x...)).(T)
		}
		return v
	}
	src := reflect.ValueOf(&v).Elem()
	if src.Kind() == reflect.Pointer {
		if c, ok := copiers.Load(src.Type()); ok {
			return c.(func(reflect.Value) reflect.Value)(src).Interface().(T)
		}
	}
	dst := reflect.New(src.Type()).Elem()
	copyValue(dst, src)
	return dst.Interface().(T)
}

func copyValue(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		if c, ok := copiers.Load(src.Type()); ok {
			dst.Set(c.(func(reflect.Value) reflect.Value)(src))
			return
		}
		p := reflect.New(src.Type().Elem())
		copyValue(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		inner := src.Elem()
		c := reflect.New(inner.Type()).Elem()
		copyValue(c, inner)
		dst.Set(c)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			copyValue(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		iter := src.MapRange()
		for iter.Next() {
			v := reflect.New(iter.Value().Type()).Elem()
			copyValue(v, iter.Value())
			m.SetMapIndex(iter.Key(), v)
		}
		dst.Set(m)
	case reflect.Struct:
		// Copy by value first so that structs with unexported fields
		// (time.Time) keep them; then deepen every exported field.
		dst.Set(src)
		for i := 0; i < src.NumField(); i++ {
			if !dst.Field(i).CanSet() {
				continue
			}
			copyValue(dst.Field(i), src.Field(i))
		}
	case reflect.Array:
		for i := 0; i < src.Len(); i++ {
			copyValue(dst.Index(i), src.Index(i))
		}
	default:
		dst.Set(src)
	}
}

// CopyJSON deep-copies a value made of JSON types only: map[string]any,
// []any, string, float64, int64, bool and nil. It is what Unstructured uses.
func CopyJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = CopyJSON(e)
		}
		return m
	case []any:
		s := make([]any, len(v))
		for i, e := range v {
			s[i] = CopyJSON(e)
		}
		return s
	default:
		return v
	}
}
