package field

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ErrorType says what is wrong with a field. Its values are the strings
// upstream sends as the "reason" of a Status cause.
type ErrorType string

const (
	ErrorTypeNotFound     ErrorType = "FieldValueNotFound"
	ErrorTypeRequired     ErrorType = "FieldValueRequired"
	ErrorTypeDuplicate    ErrorType = "FieldValueDuplicate"
	ErrorTypeInvalid      ErrorType = "FieldValueInvalid"
	ErrorTypeNotSupported ErrorType = "FieldValueNotSupported"
	ErrorTypeForbidden    ErrorType = "FieldValueForbidden"
	ErrorTypeTooLong      ErrorType = "FieldValueTooLong"
	ErrorTypeTooMany      ErrorType = "FieldValueTooMany"
	ErrorTypeInternal     ErrorType = "InternalError"
	ErrorTypeTypeInvalid  ErrorType = "FieldValueTypeInvalid"
)

// String is the human wording of the type, as in "Required value".
func (t ErrorType) String() string {
	switch t {
	case ErrorTypeNotFound:
		return "Not found"
	case ErrorTypeRequired:
		return "Required value"
	case ErrorTypeDuplicate:
		return "Duplicate value"
	case ErrorTypeInvalid:
		return "Invalid value"
	case ErrorTypeNotSupported:
		return "Unsupported value"
	case ErrorTypeForbidden:
		return "Forbidden"
	case ErrorTypeTooLong:
		return "Too long"
	case ErrorTypeTooMany:
		return "Too many"
	case ErrorTypeInternal:
		return "Internal error"
	case ErrorTypeTypeInvalid:
		return "Invalid value"
	default:
		return fmt.Sprintf("<unknown error %q>", string(t))
	}
}

// OmitValueType is the type of OmitValue.
type OmitValueType struct{}

// OmitValue is a BadValue that is not printed: "Invalid value" alone, as
// upstream's field.OmitValueType{} (TooMany with an unknown count, a CEL
// rule failing on an object or a list).
var OmitValue = OmitValueType{}

var omitValue = OmitValue

// Error is one validation failure of one field.
//
// Mirrors k8s.io/apimachinery/pkg/util/validation/field.Error.
type Error struct {
	Type     ErrorType
	Field    string
	BadValue any
	Detail   string
}

var _ error = (*Error)(nil)

// Error renders "spec.names.plural: Invalid value: \"X\": detail".
func (v *Error) Error() string {
	return fmt.Sprintf("%s: %s", v.Field, v.ErrorBody())
}

// ErrorBody is Error without the field path. The bad value is printed as
// upstream prints it: numbers and booleans plainly, strings quoted,
// anything else as JSON (a nil value is null).
func (v *Error) ErrorBody() string {
	var s string
	switch v.Type {
	case ErrorTypeRequired, ErrorTypeForbidden, ErrorTypeTooLong, ErrorTypeInternal:
		s = v.Type.String()
	default:
		if v.BadValue == omitValue {
			s = v.Type.String()
			break
		}
		s = v.Type.String() + ": " + RenderValue(v.BadValue)
	}
	if len(v.Detail) != 0 {
		s += ": " + v.Detail
	}
	return s
}

// RenderValue prints a bad value as upstream's ErrorBody does.
func RenderValue(value any) string {
	switch t := value.(type) {
	case int64, int32, float64, float32, bool:
		return fmt.Sprint(t)
	case string:
		return strconv.Quote(t)
	}
	if b, err := json.Marshal(value); err == nil {
		return string(b)
	}
	if st, ok := value.(fmt.Stringer); ok {
		return st.String()
	}
	return fmt.Sprintf("%#v", value)
}

// NotFound says a value (an item of a list, a key) was not found.
func NotFound(field *Path, value any) *Error {
	return &Error{ErrorTypeNotFound, field.String(), value, ""}
}

// Required says a required field is missing or empty.
func Required(field *Path, detail string) *Error {
	return &Error{ErrorTypeRequired, field.String(), "", detail}
}

// Duplicate says a value that must be unique is repeated.
func Duplicate(field *Path, value any) *Error {
	return &Error{ErrorTypeDuplicate, field.String(), value, ""}
}

// Invalid says a value is malformed or out of range.
func Invalid(field *Path, value any, detail string) *Error {
	return &Error{ErrorTypeInvalid, field.String(), value, detail}
}

// NotSupported says a value is not one of validValues.
func NotSupported[T ~string](field *Path, value any, validValues []T) *Error {
	detail := ""
	if len(validValues) > 0 {
		quoted := make([]string, len(validValues))
		for i, v := range validValues {
			quoted[i] = strconv.Quote(string(v))
		}
		detail = "supported values: " + strings.Join(quoted, ", ")
	}
	return &Error{ErrorTypeNotSupported, field.String(), value, detail}
}

// Forbidden says a field may not be set here (or by this user).
func Forbidden(field *Path, detail string) *Error {
	return &Error{ErrorTypeForbidden, field.String(), "", detail}
}

// TooLong says a string or list is longer than maxLength (negative:
// unknown). The value is not kept.
func TooLong(field *Path, _ any, maxLength int) *Error {
	msg := "value is too long"
	if maxLength >= 0 {
		unit := "bytes"
		if maxLength == 1 {
			unit = "byte"
		}
		msg = fmt.Sprintf("may not be more than %d %s", maxLength, unit)
	}
	return &Error{ErrorTypeTooLong, field.String(), "<value omitted>", msg}
}

// TooMany says a list has more than maxQuantity items.
func TooMany(field *Path, actualQuantity, maxQuantity int) *Error {
	msg := "has too many items"
	if maxQuantity >= 0 {
		unit := "items"
		if maxQuantity == 1 {
			unit = "item"
		}
		msg = fmt.Sprintf("must have at most %d %s", maxQuantity, unit)
	}
	var actual any = omitValue
	if actualQuantity >= 0 {
		actual = actualQuantity
	}
	return &Error{ErrorTypeTooMany, field.String(), actual, msg}
}

// TypeInvalid says a value has the wrong JSON type.
func TypeInvalid(field *Path, value any, detail string) *Error {
	return &Error{ErrorTypeTypeInvalid, field.String(), value, detail}
}

// InternalError says validation itself failed.
func InternalError(field *Path, err error) *Error {
	return &Error{ErrorTypeInternal, field.String(), nil, err.Error()}
}

// ErrorList is the result of validating an object; empty means valid.
type ErrorList []*Error

// ToAggregate returns the list as one error (nil when empty), formatted as
// upstream's aggregate: the single message, or "[msg1, msg2]". Repeated
// messages are printed once.
func (list ErrorList) ToAggregate() error {
	if len(list) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var msgs []string
	for _, e := range list {
		m := e.Error()
		if !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	return &AggregateError{List: list, msgs: msgs}
}

// AggregateError is an ErrorList seen as one error.
type AggregateError struct {
	List ErrorList
	msgs []string
}

func (a *AggregateError) Error() string {
	if len(a.msgs) == 1 {
		return a.msgs[0]
	}
	return "[" + strings.Join(a.msgs, ", ") + "]"
}

// Unwrap lets errors.As find the individual *Error values.
func (a *AggregateError) Unwrap() []error {
	out := make([]error, len(a.List))
	for i, e := range a.List {
		out[i] = e
	}
	return out
}

// Filter returns the errors for which keep is true.
func (list ErrorList) Filter(keep func(*Error) bool) ErrorList {
	var out ErrorList
	for _, e := range list {
		if keep(e) {
			out = append(out, e)
		}
	}
	return out
}
