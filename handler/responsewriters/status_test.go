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
		{"NoCode", &apierrors.StatusError{ErrStatus: metav1.Status{Reason: metav1.StatusReasonMethodNotAllowed}}, 405, metav1.StatusReasonMethodNotAllowed},
		{"WrappedDeadline", fmt.Errorf("list: %w", context.DeadlineExceeded), 504, metav1.StatusReasonTimeout},
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
