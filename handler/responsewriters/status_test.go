package responsewriters_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

func TestErrorToStatus(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		code   int32
		reason metav1.StatusReason
	}{
		{"APIStatus", apierrors.NewNotFound(scheme.GroupResource{Resource: "x"}, "a"), 404, metav1.StatusReasonNotFound},
		{"WrappedAPIStatus", fmt.Errorf("ctx: %w", apierrors.NewConflict(scheme.GroupResource{}, "a", errors.New("x"))), 409, metav1.StatusReasonConflict},
		{"MaxBytes", &http.MaxBytesError{Limit: 3}, 413, metav1.StatusReasonRequestEntityTooLarge},
		{"Strict", &scheme.StrictDecodingError{Msg: `unknown field "x"`}, 400, metav1.StatusReasonBadRequest},
		{"StorageNotFound", storage.NewNotFoundError("/k"), 404, metav1.StatusReasonNotFound},
		{"StorageExists", storage.NewAlreadyExistsError("/k"), 409, metav1.StatusReasonAlreadyExists},
		{"StorageConflict", storage.NewConflictError("/k", "x"), 409, metav1.StatusReasonConflict},
		{"StorageExpired", storage.NewExpiredError(1, 5), 410, metav1.StatusReasonExpired},
		{"Deadline", context.DeadlineExceeded, 504, metav1.StatusReasonTimeout},
		{"Other", errors.New("boom"), 500, metav1.StatusReasonInternalError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := responsewriters.ErrorToStatus(tt.err).ErrStatus
			if st.Code != tt.code || st.Reason != tt.reason || st.Kind != "Status" || st.Status != metav1.StatusFailure {
				t.Fatalf("got %+v", st)
			}
		})
	}
}
