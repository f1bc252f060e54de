package labels

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrInvalidSelector is wrapped by every error Parse and NewRequirement
// return: errors.Is(err, labels.ErrInvalidSelector).
var ErrInvalidSelector = errors.New("invalid label selector")

// Error is a selector that does not parse or a requirement that is not
// valid. Msg is upstream's message, word for word.
type Error struct {
	Msg string
}

func (e *Error) Error() string { return e.Msg }

// Unwrap makes errors.Is(err, ErrInvalidSelector) true.
func (e *Error) Unwrap() error { return ErrInvalidSelector }

func errorf(format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// invalid renders one field.Invalid error the way upstream's
// field.Error.Error does: `path: Invalid value: "v": detail`.
func invalid(path string, value any, detail string) string {
	var v string
	switch t := value.(type) {
	case string:
		v = fmt.Sprintf("%q", t)
	default:
		b, _ := json.Marshal(t)
		v = string(b)
	}
	return fmt.Sprintf("%s: Invalid value: %s: %s", path, v, detail)
}

// aggregate joins messages as upstream's utilerrors aggregate does: one
// message alone, several (deduplicated) as "[a, b]".
func aggregate(msgs []string) *Error {
	var uniq []string
	seen := map[string]bool{}
	for _, m := range msgs {
		if !seen[m] {
			seen[m] = true
			uniq = append(uniq, m)
		}
	}
	switch len(uniq) {
	case 0:
		return nil
	case 1:
		return &Error{Msg: uniq[0]}
	default:
		return &Error{Msg: "[" + strings.Join(uniq, ", ") + "]"}
	}
}
