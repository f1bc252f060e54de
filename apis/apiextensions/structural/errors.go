package structural

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The FieldError types, spelled as upstream's field.ErrorType (and so as
// metav1.CauseType).
const (
	FieldValueRequired     = "FieldValueRequired"
	FieldValueInvalid      = "FieldValueInvalid"
	FieldValueNotSupported = "FieldValueNotSupported"
	FieldValueTypeInvalid  = "FieldValueTypeInvalid"
	FieldValueTooLong      = "FieldValueTooLong"
	FieldValueTooMany      = "FieldValueTooMany"
	FieldValueDuplicate    = "FieldValueDuplicate"
	FieldValueForbidden    = "FieldValueForbidden"
)

// FieldError is one thing wrong with one field of an object (or of a
// schema).
//
// Mirrors k8s.io/apimachinery/pkg/util/validation/field.Error.
type FieldError struct {
	// Type is one of the FieldValue* constants.
	Type string
	// Field is the path of the field: "spec.replicas",
	// "spec.ports[0].name", "metadata.labels.app". "<nil>" is upstream's
	// rendering of a missing path (an error about the whole object).
	Field string
	// BadValue is the offending value (not shown for Required, Forbidden
	// and TooLong).
	BadValue any
	// Detail says what is wrong.
	Detail string
}

// Error renders the error as upstream's field.Error does:
//
//	spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"
//	spec.cronSpec: Required value
//	spec.x: Unsupported value: "c": supported values: "a", "b"
func (e FieldError) Error() string { return e.Field + ": " + e.ErrorBody() }

// ErrorBody is Error without the field path. Mirrors
// (*field.Error).ErrorBody.
func (e FieldError) ErrorBody() string {
	var s string
	switch e.Type {
	case FieldValueRequired, FieldValueForbidden, FieldValueTooLong:
		s = typeString(e.Type)
	default:
		s = typeString(e.Type) + ": " + renderValue(e.BadValue)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func typeString(t string) string {
	switch t {
	case FieldValueRequired:
		return "Required value"
	case FieldValueInvalid, FieldValueTypeInvalid:
		return "Invalid value"
	case FieldValueNotSupported:
		return "Unsupported value"
	case FieldValueTooLong:
		return "Too long"
	case FieldValueTooMany:
		return "Too many"
	case FieldValueDuplicate:
		return "Duplicate value"
	case FieldValueForbidden:
		return "Forbidden"
	default:
		return fmt.Sprintf("<unknown error %q>", t)
	}
}

// renderValue prints a bad value as field.Error does: simple types plainly,
// strings quoted, anything else as JSON.
func renderValue(v any) string {
	switch t := v.(type) {
	case int64, int32, float64, float32, bool:
		return fmt.Sprint(t)
	case string:
		return strconv.Quote(t)
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	return fmt.Sprintf("%#v", v)
}

// Constructors, after upstream's field.Required, field.Invalid…

func required(field, detail string) FieldError {
	return FieldError{Type: FieldValueRequired, Field: orNil(field), BadValue: "", Detail: detail}
}

func invalid(field string, value any, detail string) FieldError {
	return FieldError{Type: FieldValueInvalid, Field: orNil(field), BadValue: value, Detail: detail}
}

func typeInvalid(field string, value any, detail string) FieldError {
	return FieldError{Type: FieldValueTypeInvalid, Field: orNil(field), BadValue: value, Detail: detail}
}

func forbidden(field, detail string) FieldError {
	return FieldError{Type: FieldValueForbidden, Field: orNil(field), BadValue: "", Detail: detail}
}

func duplicate(field string, value any) FieldError {
	return FieldError{Type: FieldValueDuplicate, Field: orNil(field), BadValue: value}
}

// notSupported lists the supported values quoted, as field.NotSupported.
func notSupported(field string, value any, supported []string) FieldError {
	quoted := make([]string, len(supported))
	for i, s := range supported {
		quoted[i] = strconv.Quote(s)
	}
	detail := ""
	if len(supported) > 0 {
		detail = "supported values: " + strings.Join(quoted, ", ")
	}
	return FieldError{Type: FieldValueNotSupported, Field: orNil(field), BadValue: value, Detail: detail}
}

// tooLong words a string beyond maxLength as field.TooLong.
func tooLong(field string, max int64) FieldError {
	unit := "bytes"
	if max == 1 {
		unit = "byte"
	}
	return FieldError{Type: FieldValueTooLong, Field: orNil(field), BadValue: "<value omitted>",
		Detail: fmt.Sprintf("may not be more than %d %s", max, unit)}
}

// tooMany words too many items (or properties) as field.TooMany.
func tooMany(field string, actual int, max int64) FieldError {
	unit := "items"
	if max == 1 {
		unit = "item"
	}
	return FieldError{Type: FieldValueTooMany, Field: orNil(field), BadValue: actual,
		Detail: fmt.Sprintf("must have at most %d %s", max, unit)}
}

// orNil renders an empty path as upstream prints a nil *field.Path.
func orNil(field string) string {
	if field == "" {
		return "<nil>"
	}
	return field
}

// ErrInvalidSchema is wrapped by the errors FromJSON returns.
var ErrInvalidSchema = errors.New("invalid schema")

// SchemaError is a schema FromJSON cannot read: not JSON, or a keyword
// with a value of the wrong JSON type.
type SchemaError struct {
	// Path is where in the schema, e.g. "properties[spec].minLength".
	Path string
	Msg  string
}

func (e *SchemaError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Unwrap makes errors.Is(err, ErrInvalidSchema) true.
func (e *SchemaError) Unwrap() error { return ErrInvalidSchema }
