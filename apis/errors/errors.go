package errors

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
)

// StatusError is an error that carries the metav1.Status the server answers
// (or answered) with. Every API error in crdlab is one.
//
// Mirrors k8s.io/apimachinery/pkg/api/errors.StatusError.
type StatusError struct {
	ErrStatus metav1.Status
}

func (e *StatusError) Error() string { return e.ErrStatus.Message }

// Status returns the Status to send.
func (e *StatusError) Status() metav1.Status { return e.ErrStatus }

// APIStatus is implemented by errors that know their Status.
type APIStatus interface {
	Status() metav1.Status
}

var _ APIStatus = (*StatusError)(nil)

func newError(code int32, reason metav1.StatusReason, msg string, details *metav1.StatusDetails) *StatusError {
	return &StatusError{metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     code,
		Reason:   reason,
		Message:  msg,
		Details:  details,
	}}
}

// FromObject returns the error a Status received from a server stands for.
func FromObject(s *metav1.Status) *StatusError {
	if s.Code == 0 {
		s.Code = http.StatusInternalServerError
	}
	return &StatusError{ErrStatus: *s}
}

// NewNotFound: 404, `crontabs.stable.example.com "x" not found`.
func NewNotFound(gr scheme.GroupResource, name string) *StatusError {
	return newError(http.StatusNotFound, metav1.StatusReasonNotFound,
		fmt.Sprintf("%s %q not found", gr.String(), name),
		&metav1.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// NewAlreadyExists: 409, `crontabs.stable.example.com "x" already exists`.
func NewAlreadyExists(gr scheme.GroupResource, name string) *StatusError {
	return newError(http.StatusConflict, metav1.StatusReasonAlreadyExists,
		fmt.Sprintf("%s %q already exists", gr.String(), name),
		&metav1.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// OptimisticLockErrorMsg is upstream's message for a stale resourceVersion.
const OptimisticLockErrorMsg = "the object has been modified; please apply your changes to the latest version and try again"

// NewConflict: 409, `Operation cannot be fulfilled on crontabs.stable.example.com "x": <err>`.
func NewConflict(gr scheme.GroupResource, name string, err error) *StatusError {
	return newError(http.StatusConflict, metav1.StatusReasonConflict,
		fmt.Sprintf("Operation cannot be fulfilled on %s %q: %v", gr.String(), name, err),
		&metav1.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// NewApplyConflict: 409 Conflict of a server-side apply, one
// FieldManagerConflict cause per field another manager owns.
func NewApplyConflict(causes []metav1.StatusCause, message string) *StatusError {
	return newError(http.StatusConflict, metav1.StatusReasonConflict, message, &metav1.StatusDetails{Causes: causes})
}

// The bounds of a 422 (upstream has none: it lists every error, each with
// its whole value, twice — in the causes and in the message). A body with
// 10,000 violations used to come back as a 7 MB Status.
const (
	// MaxInvalidCauses is how many causes a 422 lists at most; a last
	// cause says how many more there were.
	MaxInvalidCauses = 100
	// MaxInvalidCauseBytes bounds the messages of the listed causes
	// together: a message that would go past it is cut (a bad value it
	// echoes is usually what makes it long), and the causes after it are
	// counted as left out.
	MaxInvalidCauseBytes = 64 << 10
)

// NewInvalid: 422 with one cause per field error. Each cause's Message is
// the error without its field path; the summary joins "field: message",
// each distinct line once (as upstream's ErrorList.ToAggregate).
// Beyond MaxInvalidCauses causes or MaxInvalidCauseBytes of messages, the
// rest are left out and a last cause (without a field) says how many.
func NewInvalid(gk scheme.GroupKind, name string, causes []metav1.StatusCause) *StatusError {
	causes = boundCauses(causes)
	var parts []string
	seen := map[string]bool{}
	for _, c := range causes {
		part := c.Message
		if c.Field != "" {
			part = c.Field + ": " + c.Message
		}
		if !seen[part] {
			seen[part] = true
			parts = append(parts, part)
		}
	}
	msg := fmt.Sprintf("%s %q is invalid", gk.String(), name)
	switch len(parts) {
	case 0:
	case 1:
		msg += ": " + parts[0]
	default:
		msg += ": [" + strings.Join(parts, ", ") + "]"
	}
	return newError(http.StatusUnprocessableEntity, metav1.StatusReasonInvalid, msg,
		&metav1.StatusDetails{Group: gk.Group, Kind: gk.Kind, Name: name, Causes: causes})
}

// boundCauses keeps the causes within MaxInvalidCauses and
// MaxInvalidCauseBytes, cutting the message that reaches the byte bound,
// and appends a cause counting those left out.
func boundCauses(causes []metav1.StatusCause) []metav1.StatusCause {
	if len(causes) <= MaxInvalidCauses && totalBytes(causes) <= MaxInvalidCauseBytes {
		return causes
	}
	out := make([]metav1.StatusCause, 0, MaxInvalidCauses+1)
	budget := MaxInvalidCauseBytes
	for i, c := range causes {
		if i == MaxInvalidCauses || budget <= 0 {
			return append(out, omittedCause(len(causes)-i))
		}
		if len(c.Field)+len(c.Message) > budget {
			c.Message = truncate(c.Message, max(budget-len(c.Field), 0))
		}
		budget -= len(c.Field) + len(c.Message)
		out = append(out, c)
	}
	return out
}

func totalBytes(causes []metav1.StatusCause) int {
	n := 0
	for _, c := range causes {
		n += len(c.Field) + len(c.Message)
	}
	return n
}

// omittedCause says how many causes were left out, and why.
func omittedCause(n int) metav1.StatusCause {
	noun := "errors"
	if n == 1 {
		noun = "error"
	}
	return metav1.StatusCause{Message: fmt.Sprintf("%d more %s not listed: crdlab lists at most %d causes and %d KiB of messages (upstream lists them all)",
		n, noun, MaxInvalidCauses, MaxInvalidCauseBytes>>10)}
}

// truncate cuts s to at most n bytes (on a rune boundary) and says how
// much was cut.
func truncate(s string, n int) string {
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d more bytes not shown)", len(s)-cut)
}

// NewBadRequest: 400.
func NewBadRequest(msg string) *StatusError {
	return newError(http.StatusBadRequest, metav1.StatusReasonBadRequest, msg, nil)
}

// NewMethodNotSupported: 405, `<verb> is not supported on resources of kind "crontabs.stable.example.com"`.
func NewMethodNotSupported(gr scheme.GroupResource, verb string) *StatusError {
	return newError(http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed,
		fmt.Sprintf("%s is not supported on resources of kind %q", verb, gr.String()),
		&metav1.StatusDetails{Group: gr.Group, Kind: gr.Resource})
}

// NewNotAcceptable: 406.
func NewNotAcceptable(msg string) *StatusError {
	return newError(http.StatusNotAcceptable, metav1.StatusReasonNotAcceptable, msg, nil)
}

// NewUnsupportedMediaType: 415, `the body of the request was in an unknown format - accepted media types include: ...`.
func NewUnsupportedMediaType(contentType string, accepted []string) *StatusError {
	return newError(http.StatusUnsupportedMediaType, metav1.StatusReasonUnsupportedMediaType,
		fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: %s", strings.Join(accepted, ", ")),
		nil)
}

// NewRequestEntityTooLarge: 413.
func NewRequestEntityTooLarge(msg string) *StatusError {
	return newError(http.StatusRequestEntityTooLarge, metav1.StatusReasonRequestEntityTooLarge,
		"Request entity too large: "+msg, nil)
}

// NewResourceExpired: 410 Expired, for a too-old resourceVersion or continue token.
func NewResourceExpired(msg string) *StatusError {
	return newError(http.StatusGone, metav1.StatusReasonExpired, msg, nil)
}

// NewGone: 410 Gone.
func NewGone(msg string) *StatusError {
	return newError(http.StatusGone, metav1.StatusReasonGone, msg, nil)
}

// NewTooManyRequests: 429 with Retry-After seconds.
func NewTooManyRequests(msg string, retryAfterSeconds int) *StatusError {
	return newError(http.StatusTooManyRequests, metav1.StatusReasonTooManyRequests, msg,
		&metav1.StatusDetails{RetryAfterSeconds: int32(retryAfterSeconds)})
}

// NewUnauthorized: 401.
func NewUnauthorized(msg string) *StatusError {
	if msg == "" {
		msg = "not authorized"
	}
	return newError(http.StatusUnauthorized, metav1.StatusReasonUnauthorized, msg, nil)
}

// NewForbidden: 403, `crontabs.stable.example.com "x" is forbidden: <err>`.
func NewForbidden(gr scheme.GroupResource, name string, err error) *StatusError {
	var msg string
	switch {
	case gr.Resource == "" && name == "":
		msg = fmt.Sprintf("forbidden: %v", err)
	case name == "":
		msg = fmt.Sprintf("%s is forbidden: %v", gr.String(), err)
	default:
		msg = fmt.Sprintf("%s %q is forbidden: %v", gr.String(), name, err)
	}
	return newError(http.StatusForbidden, metav1.StatusReasonForbidden, msg,
		&metav1.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// NewTimeoutError: 504 Timeout.
func NewTimeoutError(msg string, retryAfterSeconds int) *StatusError {
	return newError(http.StatusGatewayTimeout, metav1.StatusReasonTimeout,
		"Timeout: "+msg, &metav1.StatusDetails{RetryAfterSeconds: int32(retryAfterSeconds)})
}

// NewServiceUnavailable: 503.
func NewServiceUnavailable(msg string) *StatusError {
	return newError(http.StatusServiceUnavailable, metav1.StatusReasonServiceUnavailable, msg, nil)
}

// NewInternalError: 500, `Internal error occurred: <err>`.
func NewInternalError(err error) *StatusError {
	return newError(http.StatusInternalServerError, metav1.StatusReasonInternalError,
		fmt.Sprintf("Internal error occurred: %v", err),
		&metav1.StatusDetails{Causes: []metav1.StatusCause{{Message: err.Error()}}})
}

// ReasonForError returns the reason of err, or "" if it carries no Status.
// It sees through wrapping.
func ReasonForError(err error) metav1.StatusReason {
	var s APIStatus
	if errors.As(err, &s) {
		return s.Status().Reason
	}
	return metav1.StatusReasonUnknown
}

// CodeForError returns the HTTP code of err, 500 if it carries no Status.
func CodeForError(err error) int32 {
	var s APIStatus
	if errors.As(err, &s) {
		return s.Status().Code
	}
	return http.StatusInternalServerError
}

// ToStatus returns the Status to answer err with: its own if it has one,
// else an InternalError.
func ToStatus(err error) metav1.Status {
	var s APIStatus
	if errors.As(err, &s) {
		return s.Status()
	}
	return NewInternalError(err).ErrStatus
}

func IsNotFound(err error) bool      { return ReasonForError(err) == metav1.StatusReasonNotFound }
func IsAlreadyExists(err error) bool { return ReasonForError(err) == metav1.StatusReasonAlreadyExists }
func IsConflict(err error) bool      { return ReasonForError(err) == metav1.StatusReasonConflict }
func IsInvalid(err error) bool       { return ReasonForError(err) == metav1.StatusReasonInvalid }
func IsBadRequest(err error) bool    { return ReasonForError(err) == metav1.StatusReasonBadRequest }
func IsGone(err error) bool          { return ReasonForError(err) == metav1.StatusReasonGone }
func IsResourceExpired(err error) bool {
	return ReasonForError(err) == metav1.StatusReasonExpired
}
func IsMethodNotSupported(err error) bool {
	return ReasonForError(err) == metav1.StatusReasonMethodNotAllowed
}
func IsUnsupportedMediaType(err error) bool {
	return ReasonForError(err) == metav1.StatusReasonUnsupportedMediaType
}
func IsTooManyRequests(err error) bool {
	return ReasonForError(err) == metav1.StatusReasonTooManyRequests
}
func IsForbidden(err error) bool    { return ReasonForError(err) == metav1.StatusReasonForbidden }
func IsUnauthorized(err error) bool { return ReasonForError(err) == metav1.StatusReasonUnauthorized }
func IsInternalError(err error) bool {
	return ReasonForError(err) == metav1.StatusReasonInternalError
}
