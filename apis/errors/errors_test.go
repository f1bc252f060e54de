package errors_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
)

var crontabs = scheme.GroupResource{Group: "stable.example.com", Resource: "crontabs"}

func TestConstructors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    *apierrors.StatusError
		code   int32
		reason metav1.StatusReason
		msg    string
		is     func(error) bool
	}{
		{"NotFound", apierrors.NewNotFound(crontabs, "a"), http.StatusNotFound, metav1.StatusReasonNotFound,
			`crontabs.stable.example.com "a" not found`, apierrors.IsNotFound},
		{"AlreadyExists", apierrors.NewAlreadyExists(crontabs, "a"), http.StatusConflict, metav1.StatusReasonAlreadyExists,
			`crontabs.stable.example.com "a" already exists`, apierrors.IsAlreadyExists},
		{"Conflict", apierrors.NewConflict(crontabs, "a", fmt.Errorf(apierrors.OptimisticLockErrorMsg)), http.StatusConflict, metav1.StatusReasonConflict,
			`Operation cannot be fulfilled on crontabs.stable.example.com "a": the object has been modified; please apply your changes to the latest version and try again`, apierrors.IsConflict},
		{"BadRequest", apierrors.NewBadRequest("bad"), http.StatusBadRequest, metav1.StatusReasonBadRequest, "bad", apierrors.IsBadRequest},
		{"MethodNotSupported", apierrors.NewMethodNotSupported(crontabs, "create"), http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed,
			`create is not supported on resources of kind "crontabs.stable.example.com"`, apierrors.IsMethodNotSupported},
		{"Expired", apierrors.NewResourceExpired("too old resource version: 1 (5)"), http.StatusGone, metav1.StatusReasonExpired,
			"too old resource version: 1 (5)", apierrors.IsResourceExpired},
		{"Gone", apierrors.NewGone("gone"), http.StatusGone, metav1.StatusReasonGone, "gone", apierrors.IsGone},
		{"TooManyRequests", apierrors.NewTooManyRequests("slow down", 1), http.StatusTooManyRequests, metav1.StatusReasonTooManyRequests,
			"slow down", apierrors.IsTooManyRequests},
		{"Unauthorized", apierrors.NewUnauthorized(""), http.StatusUnauthorized, metav1.StatusReasonUnauthorized, "not authorized", apierrors.IsUnauthorized},
		{"Forbidden", apierrors.NewForbidden(crontabs, "a", fmt.Errorf(`User "bob" cannot get resource`)), http.StatusForbidden, metav1.StatusReasonForbidden,
			`crontabs.stable.example.com "a" is forbidden: User "bob" cannot get resource`, apierrors.IsForbidden},
		{"Internal", apierrors.NewInternalError(fmt.Errorf("disk on fire")), http.StatusInternalServerError, metav1.StatusReasonInternalError,
			"Internal error occurred: disk on fire", apierrors.IsInternalError},
		{"UnsupportedMediaType", apierrors.NewUnsupportedMediaType("text/plain", []string{"application/json"}), http.StatusUnsupportedMediaType,
			metav1.StatusReasonUnsupportedMediaType, "the body of the request was in an unknown format - accepted media types include: application/json", apierrors.IsUnsupportedMediaType},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.err.Status()
			require.Equal(t, tc.code, s.Code)
			require.Equal(t, tc.reason, s.Reason)
			require.Equal(t, tc.msg, s.Message)
			require.Equal(t, metav1.StatusFailure, s.Status)
			require.Equal(t, "Status", s.Kind)
			require.Equal(t, "v1", s.APIVersion)
			require.True(t, tc.is(tc.err))
			// The helpers see through wrapping.
			wrapped := fmt.Errorf("while syncing: %w", tc.err)
			require.True(t, tc.is(wrapped))
			require.Equal(t, tc.reason, apierrors.ReasonForError(wrapped))
			require.Equal(t, tc.code, apierrors.CodeForError(wrapped))
		})
	}
}

func TestNewInvalid(t *testing.T) {
	gk := scheme.GroupKind{Group: "stable.example.com", Kind: "CronTab"}
	t.Run("OneCause", func(t *testing.T) {
		err := apierrors.NewInvalid(gk, "a", []metav1.StatusCause{{Type: metav1.CauseTypeFieldValueRequired, Field: "spec.cronSpec", Message: "Required value"}})
		require.Equal(t, `CronTab.stable.example.com "a" is invalid: spec.cronSpec: Required value`, err.Error())
		require.Equal(t, int32(422), err.Status().Code)
		require.Len(t, err.Status().Details.Causes, 1)
		require.Equal(t, "CronTab", err.Status().Details.Kind)
	})
	t.Run("ManyCauses", func(t *testing.T) {
		err := apierrors.NewInvalid(gk, "a", []metav1.StatusCause{
			{Field: "spec.a", Message: "Required value"},
			{Field: "spec.b", Message: `Invalid value: "x"`},
		})
		require.Equal(t, `CronTab.stable.example.com "a" is invalid: [spec.a: Required value, spec.b: Invalid value: "x"]`, err.Error())
		require.True(t, apierrors.IsInvalid(err))
	})
	t.Run("RepeatedLinesOnceInMessage", func(t *testing.T) {
		c := metav1.StatusCause{Field: "spec.a", Message: "Required value"}
		err := apierrors.NewInvalid(gk, "a", []metav1.StatusCause{c, c})
		require.Equal(t, `CronTab.stable.example.com "a" is invalid: spec.a: Required value`, err.Error())
		require.Len(t, err.Status().Details.Causes, 2)
	})
	// Issue 21, finding 11: 10,000 violations made a 7 MB answer that
	// echoed every value. At most MaxInvalidCauses are listed, and a last
	// cause counts the rest.
	t.Run("BoundedCauses", func(t *testing.T) {
		var causes []metav1.StatusCause
		for i := range 10000 {
			causes = append(causes, metav1.StatusCause{Type: metav1.CauseTypeFieldValueInvalid, Field: fmt.Sprintf("spec.items[%d]", i),
				Message: fmt.Sprintf(`Invalid value: %q: spec.items[%d] in body should match '^a$'`, strings.Repeat("v", 100), i)})
		}
		st := apierrors.NewInvalid(gk, "a", causes).Status()
		got := st.Details.Causes
		require.Len(t, got, apierrors.MaxInvalidCauses+1)
		require.Equal(t, causes[:apierrors.MaxInvalidCauses], got[:apierrors.MaxInvalidCauses])
		last := got[apierrors.MaxInvalidCauses]
		require.Empty(t, last.Field)
		require.Equal(t, "9900 more errors not listed: crdlab lists at most 100 causes and 64 KiB of messages (upstream lists them all)", last.Message)
		require.True(t, strings.HasSuffix(st.Message, ", 9900 more errors not listed: crdlab lists at most 100 causes and 64 KiB of messages (upstream lists them all)]"), st.Message[len(st.Message)-200:])
		b, err := json.Marshal(st)
		require.NoError(t, err)
		require.Less(t, len(b), 64<<10, "the Status is %d bytes", len(b))
	})
	t.Run("BoundedBytes", func(t *testing.T) {
		huge := strings.Repeat("é", 100<<10) // 200 KiB
		causes := []metav1.StatusCause{
			{Field: "spec.a", Message: "Invalid value: " + huge},
			{Field: "spec.b", Message: "Required value"},
		}
		st := apierrors.NewInvalid(gk, "a", causes).Status()
		got := st.Details.Causes
		require.Len(t, got, 2)
		require.LessOrEqual(t, len(got[0].Message), apierrors.MaxInvalidCauseBytes+64)
		require.True(t, utf8.ValidString(got[0].Message))
		require.Contains(t, got[0].Message, "more bytes not shown)")
		require.Equal(t, "1 more error not listed: crdlab lists at most 100 causes and 64 KiB of messages (upstream lists them all)", got[1].Message)
	})
}

func TestToStatus(t *testing.T) {
	t.Run("PlainErrorIsInternal", func(t *testing.T) {
		s := apierrors.ToStatus(fmt.Errorf("boom"))
		require.Equal(t, int32(500), s.Code)
		require.Equal(t, metav1.StatusReasonInternalError, s.Reason)
		require.False(t, apierrors.IsNotFound(fmt.Errorf("boom")))
	})
	t.Run("FromObject", func(t *testing.T) {
		err := apierrors.FromObject(&metav1.Status{Reason: metav1.StatusReasonNotFound, Message: "x"})
		require.True(t, apierrors.IsNotFound(err))
		require.Equal(t, int32(500), err.Status().Code, "a Status without a code is a 500")
	})
}
