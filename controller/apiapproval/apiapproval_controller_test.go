package apiapproval

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/controller/internal/controllertest"
)

func TestCalculateCondition(t *testing.T) {
	tests := []struct {
		name, group, annotation string
		wantStatus              apiextensionsv1.ConditionStatus
		wantReason              string
	}{
		{"UnprotectedGroup", "stable.example.com", "", "", ""},
		{"Missing", "widgets.k8s.io", "", apiextensionsv1.ConditionFalse, "MissingAnnotation"},
		{"Approved", "widgets.k8s.io", "https://github.com/kubernetes/kubernetes/pull/78458", apiextensionsv1.ConditionTrue, "ApprovedAnnotation"},
		{"Bypassed", "widgets.kubernetes.io", "unapproved, experimental-only", apiextensionsv1.ConditionFalse, "UnapprovedAnnotation"},
		{"Invalid", "widgets.k8s.io", "yes please", apiextensionsv1.ConditionFalse, "InvalidAnnotation"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			crd := &apiextensionsv1.CustomResourceDefinition{Spec: apiextensionsv1.CustomResourceDefinitionSpec{Group: tc.group}}
			if tc.annotation != "" {
				crd.Annotations = map[string]string{helpers.KubeAPIApprovedAnnotation: tc.annotation}
			}
			got := calculateCondition(crd)
			if tc.wantReason == "" {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, tc.wantStatus, got.Status)
			assert.Equal(t, tc.wantReason, got.Reason)
		})
	}
}

// TestNewKubernetesAPIApprovalPolicyConformantConditionController runs the
// controller the server runs: a CRD of a protected group without the
// annotation gets MissingAnnotation, and ApprovedAnnotation once it is
// annotated with a URL.
func TestNewKubernetesAPIApprovalPolicyConformantConditionController(t *testing.T) {
	inf := controllertest.NewInformer()
	client := controllertest.NewClient()
	c, err := NewKubernetesAPIApprovalPolicyConformantConditionController(inf, client, controller.Options{})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx, 1); close(done) }()
	defer func() { cancel(); <-done }()

	reason := func(name string) string {
		if got := helpers.FindCRDCondition(client.Get(name), apiextensionsv1.KubernetesAPIApprovalPolicyConformant); got != nil {
			return got.Reason
		}
		return ""
	}
	crd := client.Put(&apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.apps.k8s.io"},
		Spec:       apiextensionsv1.CustomResourceDefinitionSpec{Group: "apps.k8s.io"},
	})
	inf.Add(crd)
	require.Eventually(t, func() bool { return reason(crd.Name) == "MissingAnnotation" }, 5*time.Second, time.Millisecond)

	approved := client.Get(crd.Name)
	approved.Annotations = map[string]string{helpers.KubeAPIApprovedAnnotation: "https://github.com/kubernetes/kubernetes/pull/78458"}
	approved.ResourceVersion = ""
	inf.Update(client.Put(approved))
	require.Eventually(t, func() bool { return reason(crd.Name) == "ApprovedAnnotation" }, 5*time.Second, time.Millisecond)
}
