package handler

import (
	"context"
	"testing"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/handler/admission"
)

// A terminating CRD's admission refuses creates, and asks its delegate
// about the rest only if the delegate handles them.
func TestForbidCreateAdmission_Handles(t *testing.T) {
	lifecycle := &admission.NamespaceLifecycle{}
	for _, tc := range []struct {
		name     string
		delegate admission.Interface
		want     map[admission.Operation]bool
	}{
		{"NoDelegate", nil, map[admission.Operation]bool{admission.Create: true, admission.Update: false, admission.Delete: false}},
		{"Lifecycle", lifecycle, map[admission.Operation]bool{admission.Create: true, admission.Update: false, admission.Delete: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := forbidCreateAdmission{delegate: tc.delegate}
			for op, want := range tc.want {
				if got := admission.Handles(f, op); got != want {
					t.Errorf("Handles(%s) = %v, want %v", op, got, want)
				}
			}
			if err := f.Admit(context.Background(), admission.Attributes{Operation: admission.Create, Name: "a"}); !apierrors.IsForbidden(err) {
				t.Errorf("create: err = %v, want a 403", err)
			}
		})
	}
}
