package apiapproval

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/controller/internal/controllertest"
)

func TestIsProtectedCommunityGroup(t *testing.T) {
	for group, want := range map[string]bool{
		"k8s.io": true, "apps.k8s.io": true, "kubernetes.io": true, "x.kubernetes.io": true,
		"stable.example.com": false, "notk8s.io": false, "k8s.io.example.com": false,
	} {
		assert.Equal(t, want, IsProtectedCommunityGroup(group), group)
	}
}

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
				crd.Annotations = map[string]string{KubeAPIApprovedAnnotation: tc.annotation}
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

func TestController_sync(t *testing.T) {
	ctx := context.Background()
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.apps.k8s.io"},
		Spec:       apiextensionsv1.CustomResourceDefinitionSpec{Group: "apps.k8s.io"},
	}
	inf := controllertest.NewInformer()
	client := controllertest.NewClient()
	_ = inf.GetIndexer().Add(client.Put(crd))
	c, err := NewKubernetesAPIApprovalPolicyConformantConditionController(inf, client, controller.Options{})
	require.NoError(t, err)
	defer c.queue.ShutDown()

	require.NoError(t, c.sync(ctx, crd.Name))
	got := helpers.FindCRDCondition(client.Get(crd.Name), apiextensionsv1.KubernetesAPIApprovalPolicyConformant)
	require.NotNil(t, got)
	assert.Equal(t, "MissingAnnotation", got.Reason)

	t.Run("SameAnnotationNotRecomputed", func(t *testing.T) {
		require.NoError(t, c.sync(ctx, crd.Name))
		assert.Len(t, client.Updates(), 1)
	})
	t.Run("DeleteForgets", func(t *testing.T) {
		inf.Delete(crd)
		assert.Empty(t, c.lastSeenProtectedAnnotation)
	})
}
