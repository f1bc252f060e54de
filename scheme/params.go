package scheme

import (
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"strings"
)

// DecodeParameters fills the options struct into (a pointer, e.g.
// *metav1.ListOptions) from URL query values, matching each field's json
// name. Supported field types: string (and named strings), bool, int64,
// int32, their pointers, and []string. Unknown parameters are ignored, as
// upstream's parameter codec ignores them.
//
// Mirrors k8s.io/apimachinery/pkg/runtime.ParameterCodec (queryparams).
func DecodeParameters(values url.Values, into any) error {
	v := reflect.ValueOf(into)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("scheme: DecodeParameters needs a pointer to a struct, got %T", into)
	}
	return decodeParams(values, v.Elem())
}

func decodeParams(values url.Values, v reflect.Value) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, inline := jsonName(f)
		if inline && f.Type.Kind() == reflect.Struct {
			if err := decodeParams(values, v.Field(i)); err != nil {
				return err
			}
			continue
		}
		raw, ok := values[name]
		if name == "" || !ok || len(raw) == 0 {
			continue
		}
		if err := setParam(v.Field(i), raw, name); err != nil {
			return err
		}
	}
	return nil
}

func setParam(field reflect.Value, raw []string, name string) error {
	if field.Kind() == reflect.Pointer {
		p := reflect.New(field.Type().Elem())
		if err := setParam(p.Elem(), raw, name); err != nil {
			return err
		}
		field.Set(p)
		return nil
	}
	s := raw[0]
	switch field.Kind() {
	case reflect.String:
		field.SetString(s)
	case reflect.Bool:
		if s == "" {
			field.SetBool(true)
			return nil
		}
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("invalid value for %s: %q is not a boolean", name, s)
		}
		field.SetBool(b)
	case reflect.Int64, reflect.Int32, reflect.Int:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("invalid value for %s: %q is not an integer", name, s)
		}
		field.SetInt(n)
	case reflect.Slice:
		if field.Type().Elem().Kind() != reflect.String {
			return fmt.Errorf("scheme: unsupported parameter type %v", field.Type())
		}
		sl := reflect.MakeSlice(field.Type(), len(raw), len(raw))
		for i, r := range raw {
			sl.Index(i).SetString(r)
		}
		field.Set(sl)
	default:
		return fmt.Errorf("scheme: unsupported parameter type %v", field.Type())
	}
	return nil
}

// EncodeParameters is the inverse of DecodeParameters: zero values are left out.
func EncodeParameters(obj any) url.Values {
	out := url.Values{}
	v := reflect.ValueOf(obj)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return out
		}
		v = v.Elem()
	}
	encodeParams(out, v)
	return out
}

func encodeParams(out url.Values, v reflect.Value) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, inline := jsonName(f)
		if inline {
			continue // TypeMeta is not a parameter
		}
		fv := v.Field(i)
		if name == "" || fv.IsZero() {
			continue
		}
		if fv.Kind() == reflect.Pointer {
			fv = fv.Elem()
		}
		switch fv.Kind() {
		case reflect.String:
			out.Set(name, fv.String())
		case reflect.Bool:
			out.Set(name, strconv.FormatBool(fv.Bool()))
		case reflect.Int64, reflect.Int32, reflect.Int:
			out.Set(name, strconv.FormatInt(fv.Int(), 10))
		case reflect.Slice:
			for j := 0; j < fv.Len(); j++ {
				out.Add(name, fv.Index(j).String())
			}
		}
	}
}

func jsonName(f reflect.StructField) (name string, inline bool) {
	tag := f.Tag.Get("json")
	parts := strings.Split(tag, ",")
	for _, p := range parts[1:] {
		if p == "inline" {
			return "", true
		}
	}
	if f.Anonymous && parts[0] == "" {
		return "", true
	}
	if parts[0] == "-" {
		return "", false
	}
	return parts[0], false
}
