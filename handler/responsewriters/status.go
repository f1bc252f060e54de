package responsewriters

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// MaxRequestBodyBytes is the largest request body crdlab reads: 3 MiB, as
// upstream's DefaultMaxRequestSizeBytes.
const MaxRequestBodyBytes = 3 * 1024 * 1024

// errorRow is one row of the table below: which errors it matches and the
// Status they are answered with.
type errorRow struct {
	name   string
	match  func(err error) bool
	status func(err error) *apierrors.StatusError
}

// errorTable maps every error that reaches a response to the Status sent
// to the client. The first matching row wins; an error no row matches is a
// 500 InternalError. API errors (apis/errors) carry their Status already:
// the registry turns storage errors into them (registry/errors.go, as
// upstream's storage/errors), so the rows below the first are only the
// errors of the request itself.
//
// Mirrors ErrorToAPIStatus in responsewriters/status.go.
var errorTable = []errorRow{
	{"APIStatus (already a Status: NotFound, Conflict, Invalid …)",
		func(err error) bool { var s apierrors.APIStatus; return errors.As(err, &s) },
		func(err error) *apierrors.StatusError {
			var s apierrors.APIStatus
			errors.As(err, &s)
			st := s.Status()
			if st.Code == 0 {
				st.Code = codeForReason(st.Reason)
			}
			if st.Status == "" {
				st.Status = metav1.StatusFailure
			}
			st.Kind, st.APIVersion = "Status", "v1"
			return &apierrors.StatusError{ErrStatus: st}
		}},
	{"request body over the limit → 413 RequestEntityTooLarge",
		func(err error) bool { var m *http.MaxBytesError; return errors.As(err, &m) },
		func(err error) *apierrors.StatusError {
			var m *http.MaxBytesError
			errors.As(err, &m)
			return apierrors.NewRequestEntityTooLarge(fmt.Sprintf("limit is %d", m.Limit))
		}},
	{"request deadline passed → 504 Timeout",
		func(err error) bool { return errors.Is(err, context.DeadlineExceeded) },
		func(err error) *apierrors.StatusError {
			return apierrors.NewTimeoutError("request did not complete within requested timeout - "+err.Error(), 0)
		}},
}

// ErrorToStatus returns the Status err is answered with.
//
// Mirrors ErrorToAPIStatus in responsewriters/status.go.
func ErrorToStatus(err error) *apierrors.StatusError {
	for _, row := range errorTable {
		if row.match(err) {
			return row.status(err)
		}
	}
	return apierrors.NewInternalError(err)
}

// codeForReason fills the code of a Status that came without one.
func codeForReason(r metav1.StatusReason) int32 {
	switch r {
	case metav1.StatusReasonNotFound:
		return http.StatusNotFound
	case metav1.StatusReasonAlreadyExists, metav1.StatusReasonConflict:
		return http.StatusConflict
	case metav1.StatusReasonInvalid:
		return http.StatusUnprocessableEntity
	case metav1.StatusReasonBadRequest:
		return http.StatusBadRequest
	case metav1.StatusReasonGone, metav1.StatusReasonExpired:
		return http.StatusGone
	case metav1.StatusReasonMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case metav1.StatusReasonNotAcceptable:
		return http.StatusNotAcceptable
	case metav1.StatusReasonUnsupportedMediaType:
		return http.StatusUnsupportedMediaType
	case metav1.StatusReasonRequestEntityTooLarge:
		return http.StatusRequestEntityTooLarge
	case metav1.StatusReasonUnauthorized:
		return http.StatusUnauthorized
	case metav1.StatusReasonForbidden:
		return http.StatusForbidden
	case metav1.StatusReasonTooManyRequests:
		return http.StatusTooManyRequests
	case metav1.StatusReasonTimeout:
		return http.StatusGatewayTimeout
	case metav1.StatusReasonServerTimeout:
		return http.StatusInternalServerError
	case metav1.StatusReasonServiceUnavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}
