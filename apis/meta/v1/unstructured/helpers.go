package unstructured

import (
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/internal/deepcopy"
)

// NestedFieldNoCopy returns the value at the path fields, without copying it.
// found is false if a step is missing; err is set if a step is not a map.
func NestedFieldNoCopy(obj map[string]any, fields ...string) (value any, found bool, err error) {
	var v any = obj
	for i, f := range fields {
		m, ok := v.(map[string]any)
		if !ok {
			if v == nil {
				return nil, false, nil
			}
			return nil, false, fmt.Errorf("%v accessor error: %v is of the type %T, expected map[string]interface{}", jsonPath(fields[:i+1]), v, v)
		}
		v, ok = m[f]
		if !ok {
			return nil, false, nil
		}
	}
	return v, true, nil
}

// NestedFieldCopy is NestedFieldNoCopy with a deep copy of the value.
func NestedFieldCopy(obj map[string]any, fields ...string) (any, bool, error) {
	v, found, err := NestedFieldNoCopy(obj, fields...)
	if !found || err != nil {
		return nil, found, err
	}
	return deepcopy.CopyJSON(v), true, nil
}

// NestedString returns the string at the path.
func NestedString(obj map[string]any, fields ...string) (string, bool, error) {
	v, found, err := NestedFieldNoCopy(obj, fields...)
	if !found || err != nil {
		return "", found, err
	}
	s, ok := v.(string)
	if !ok {
		return "", false, fmt.Errorf("%v accessor error: %v is of the type %T, expected string", jsonPath(fields), v, v)
	}
	return s, true, nil
}

// NestedBool returns the bool at the path.
func NestedBool(obj map[string]any, fields ...string) (bool, bool, error) {
	v, found, err := NestedFieldNoCopy(obj, fields...)
	if !found || err != nil {
		return false, found, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, false, fmt.Errorf("%v accessor error: %v is of the type %T, expected bool", jsonPath(fields), v, v)
	}
	return b, true, nil
}

// NestedInt64 returns the whole number at the path (int64, or a float64
// without a fractional part).
func NestedInt64(obj map[string]any, fields ...string) (int64, bool, error) {
	v, found, err := NestedFieldNoCopy(obj, fields...)
	if !found || err != nil {
		return 0, found, err
	}
	switch n := v.(type) {
	case int64:
		return n, true, nil
	case int:
		return int64(n), true, nil
	case float64:
		if n == float64(int64(n)) {
			return int64(n), true, nil
		}
	}
	return 0, false, fmt.Errorf("%v accessor error: %v is of the type %T, expected int64", jsonPath(fields), v, v)
}

// NestedMap returns a deep copy of the map at the path.
func NestedMap(obj map[string]any, fields ...string) (map[string]any, bool, error) {
	v, found, err := NestedFieldNoCopy(obj, fields...)
	if !found || err != nil {
		return nil, found, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false, fmt.Errorf("%v accessor error: %v is of the type %T, expected map[string]interface{}", jsonPath(fields), v, v)
	}
	return deepcopy.CopyJSON(m).(map[string]any), true, nil
}

// NestedSlice returns a deep copy of the slice at the path.
func NestedSlice(obj map[string]any, fields ...string) ([]any, bool, error) {
	v, found, err := NestedFieldNoCopy(obj, fields...)
	if !found || err != nil {
		return nil, found, err
	}
	s, ok := v.([]any)
	if !ok {
		return nil, false, fmt.Errorf("%v accessor error: %v is of the type %T, expected []interface{}", jsonPath(fields), v, v)
	}
	return deepcopy.CopyJSON(s).([]any), true, nil
}

// NestedStringMap returns the map of strings at the path.
func NestedStringMap(obj map[string]any, fields ...string) (map[string]string, bool, error) {
	v, found, err := NestedFieldNoCopy(obj, fields...)
	if !found || err != nil || v == nil {
		return nil, found, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false, fmt.Errorf("%v accessor error: %v is of the type %T, expected map[string]interface{}", jsonPath(fields), v, v)
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		s, ok := e.(string)
		if !ok {
			return nil, false, fmt.Errorf("%v accessor error: contains non-string value in the map under key %q: %v is of the type %T, expected string", jsonPath(fields), k, e, e)
		}
		out[k] = s
	}
	return out, true, nil
}

// NestedStringSlice returns the slice of strings at the path.
func NestedStringSlice(obj map[string]any, fields ...string) ([]string, bool, error) {
	v, found, err := NestedFieldNoCopy(obj, fields...)
	if !found || err != nil || v == nil {
		return nil, found, err
	}
	s, ok := v.([]any)
	if !ok {
		return nil, false, fmt.Errorf("%v accessor error: %v is of the type %T, expected []interface{}", jsonPath(fields), v, v)
	}
	out := make([]string, 0, len(s))
	for _, e := range s {
		str, ok := e.(string)
		if !ok {
			return nil, false, fmt.Errorf("%v accessor error: contains non-string value in the slice: %v is of the type %T, expected string", jsonPath(fields), e, e)
		}
		out = append(out, str)
	}
	return out, true, nil
}

// SetNestedField sets value at the path, creating maps on the way. It fails
// if a step exists and is not a map.
func SetNestedField(obj map[string]any, value any, fields ...string) error {
	m := obj
	for i, f := range fields[:len(fields)-1] {
		if v, ok := m[f]; ok && v != nil {
			next, ok := v.(map[string]any)
			if !ok {
				return fmt.Errorf("value cannot be set because %v is not a map[string]interface{}", jsonPath(fields[:i+1]))
			}
			m = next
			continue
		}
		next := map[string]any{}
		m[f] = next
		m = next
	}
	m[fields[len(fields)-1]] = value
	return nil
}

// RemoveNestedField removes the value at the path, if present.
func RemoveNestedField(obj map[string]any, fields ...string) {
	m := obj
	for _, f := range fields[:len(fields)-1] {
		next, ok := m[f].(map[string]any)
		if !ok {
			return
		}
		m = next
	}
	delete(m, fields[len(fields)-1])
}

func jsonPath(fields []string) string { return "." + strings.Join(fields, ".") }
