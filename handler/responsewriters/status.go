package responsewriters

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
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

// errorTable maps every error the handler can meet to the Status sent to
// the client. The first matching row wins; an error no row matches is a
// 500 InternalError. This is the one place crdlab decides an error's HTTP
// code (STYLE habit 6).
//
// Mirrors ErrorToAPIStatus in responsewriters/status.go and the storage
// error interpretation of k8s.io/apiserver/pkg/storage/errors.
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
	{"strict decoding (fieldValidation=Strict) → 400 BadRequest",
		func(err error) bool { var s *scheme.StrictDecodingError; return errors.As(err, &s) },
		func(err error) *apierrors.StatusError { return apierrors.NewBadRequest(err.Error()) }},
	{"storage: key not found → 404 NotFound",
		func(err error) bool { return storage.IsNotFound(err) },
		func(err error) *apierrors.StatusError {
			return apierrors.NewNotFound(scheme.GroupResource{}, storageKey(err))
		}},
	{"storage: key exists → 409 AlreadyExists",
		func(err error) bool { return storage.IsAlreadyExists(err) },
		func(err error) *apierrors.StatusError {
			return apierrors.NewAlreadyExists(scheme.GroupResource{}, storageKey(err))
		}},
	{"storage: resourceVersion conflict → 409 Conflict",
		func(err error) bool { return storage.IsConflict(err) },
		func(err error) *apierrors.StatusError {
			return apierrors.NewConflict(scheme.GroupResource{}, storageKey(err), err)
		}},
	{"storage: compacted resourceVersion → 410 Expired",
		func(err error) bool { return storage.IsExpired(err) },
		func(err error) *apierrors.StatusError { return apierrors.NewResourceExpired(storageMsg(err)) }},
	{"storage: resourceVersion not reached yet → 504 Timeout (upstream: \"Too large resource version\")",
		func(err error) bool { return errors.Is(err, storage.ErrTooLargeResourceVersion) },
		func(err error) *apierrors.StatusError {
			e := apierrors.NewTimeoutError(storageMsg(err), 1)
			e.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: metav1.CauseTypeResourceVersionTooLarge, Message: storageMsg(err)}}
			return e
		}},
	{"storage: bad request (e.g. malformed continue token) → 400 BadRequest",
		func(err error) bool { return errors.Is(err, storage.ErrBadRequest) },
		func(err error) *apierrors.StatusError { return apierrors.NewBadRequest(storageMsg(err)) }},
	{"storage: invalid object → 500 InternalError",
		func(err error) bool { return errors.Is(err, storage.ErrInvalidObject) },
		func(err error) *apierrors.StatusError { return apierrors.NewInternalError(err) }},
	{"request timeout → 504 Timeout",
		func(err error) bool {
			return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, storage.ErrTimeout)
		},
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

func storageKey(err error) string {
	var se *storage.Error
	if errors.As(err, &se) {
		return se.Key
	}
	return ""
}

func storageMsg(err error) string {
	var se *storage.Error
	if errors.As(err, &se) && se.Msg != "" {
		return se.Msg
	}
	return err.Error()
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
