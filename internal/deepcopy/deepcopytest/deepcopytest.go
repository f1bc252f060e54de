package deepcopytest

import (
	"fmt"
	"math/rand/v2"
	"reflect"
)

// Fill sets every exported field reachable from v (a pointer) to a
// random non-zero value: pointers, slices and maps are made (slices and
// maps of one or two elements), interfaces get a JSON value (a map, a
// list, a string, a number, a bool). Recursive types stop at depth.
func Fill(v any, r *rand.Rand, depth int) {
	fill(reflect.ValueOf(v).Elem(), r, depth)
}

func fill(v reflect.Value, r *rand.Rand, depth int) {
	switch v.Kind() {
	case reflect.Pointer:
		if depth <= 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), r, depth-1)
		v.Set(p)
	case reflect.Slice:
		if depth <= 0 {
			return
		}
		n := 1 + r.IntN(2)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(s.Index(i), r, depth-1)
		}
		v.Set(s)
	case reflect.Map:
		if depth <= 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for i := range 1 + r.IntN(2) {
			k := reflect.New(v.Type().Key()).Elem()
			fill(k, r, depth-1)
			if k.Kind() == reflect.String {
				k.SetString(fmt.Sprintf("k%d-%d", i, r.IntN(1000)))
			}
			e := reflect.New(v.Type().Elem()).Elem()
			fill(e, r, depth-1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), r, depth)
			}
		}
	case reflect.Interface:
		if depth <= 0 {
			return
		}
		v.Set(reflect.ValueOf(jsonValue(r, depth)))
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", r.IntN(1_000_000)))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1 + r.Int64N(100))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1 + r.Uint64N(100))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(0.5 + float64(r.IntN(100)))
	}
}

func jsonValue(r *rand.Rand, depth int) any {
	switch r.IntN(6) {
	case 0:
		if depth > 1 {
			return map[string]any{"a": jsonValue(r, depth-1), "b": []any{jsonValue(r, depth-1)}}
		}
	case 1:
		if depth > 1 {
			return []any{jsonValue(r, depth-1), "x"}
		}
	case 2:
		return int64(r.IntN(100))
	case 3:
		return float64(r.IntN(100)) + 0.5
	case 4:
		return true
	}
	return "v"
}

// Shared returns the paths at which a and b (values of the same type)
// share memory: the same non-nil pointer (to a type of non-zero size: Go
// may give every zero-size value one address), map, or slice backing
// array of non-zero capacity.
func Shared(a, b any) []string {
	var out []string
	shared(reflect.ValueOf(a), reflect.ValueOf(b), "", &out)
	return out
}

func shared(a, b reflect.Value, path string, out *[]string) {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return
		}
		if a.Pointer() == b.Pointer() && a.Type().Elem().Size() > 0 {
			*out = append(*out, path)
			return
		}
		shared(a.Elem(), b.Elem(), path, out)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return
		}
		shared(a.Elem(), b.Elem(), path, out)
	case reflect.Slice:
		if a.IsNil() || b.IsNil() {
			return
		}
		if a.Cap() > 0 && a.Pointer() == b.Pointer() {
			*out = append(*out, path)
			return
		}
		for i := range min(a.Len(), b.Len()) {
			shared(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), out)
		}
	case reflect.Map:
		if a.IsNil() || b.IsNil() {
			return
		}
		if a.Pointer() == b.Pointer() {
			*out = append(*out, path)
			return
		}
		for it := a.MapRange(); it.Next(); {
			if e := b.MapIndex(it.Key()); e.IsValid() {
				shared(it.Value(), e, fmt.Sprintf("%s[%v]", path, it.Key()), out)
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() {
				shared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, out)
			}
		}
	}
}
