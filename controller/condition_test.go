package controller_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/controller/internal/controllertest"
	"github.com/crdlab/crdlab/machinery/clock"
)

// testCondition is the condition of the tests' controller: a CRD should
// have it iff it carries the "want" label, whose value is the reason.
const testCondition apiextensionsv1.CustomResourceDefinitionConditionType = "Test"

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func testConditionSpec(removeWhenNone bool) controller.Condition {
	return controller.Condition{
		Name: "test", Queue: "test", Type: testCondition, RemoveWhenNone: removeWhenNone,
		Calculate: func(crd *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinitionCondition {
			reason, ok := crd.Labels["want"]
			if !ok {
				return nil
			}
			return &apiextensionsv1.CustomResourceDefinitionCondition{Type: testCondition, Status: apiextensionsv1.ConditionTrue, Reason: reason}
		},
		Input: func(crd *apiextensionsv1.CustomResourceDefinition) string { return crd.Labels["want"] },
	}
}

func labelled(reason string) *apiextensionsv1.CustomResourceDefinition {
	crd := &apiextensionsv1.CustomResourceDefinition{ObjectMeta: metav1.ObjectMeta{Name: "a.g"}}
	if reason != "" {
		crd.Labels = map[string]string{"want": reason}
	}
	return crd
}

func newConditionController(t *testing.T, removeWhenNone bool, crd *apiextensionsv1.CustomResourceDefinition) (*controller.ConditionController, *controllertest.Informer, *controllertest.Client) {
	t.Helper()
	inf := controllertest.NewInformer()
	client := controllertest.NewClient()
	require.NoError(t, inf.GetIndexer().Add(client.Put(crd)))
	c, err := controller.NewConditionController(inf, client, controller.Options{Logger: quiet, Clock: clock.NewFakeClock(t0)}, testConditionSpec(removeWhenNone))
	require.NoError(t, err)
	t.Cleanup(c.ShutDown)
	return c, inf, client
}

// change stores crd in client and informer as the server would: the
// stored copy (with a new resourceVersion) reaches the informer.
func change(inf *controllertest.Informer, client *controllertest.Client, crd *apiextensionsv1.CustomResourceDefinition) {
	crd.ResourceVersion = ""
	inf.Update(client.Put(crd))
}

func TestConditionController_sync(t *testing.T) {
	ctx := context.Background()

	t.Run("SetsCondition", func(t *testing.T) {
		c, _, client := newConditionController(t, true, labelled("Because"))
		require.NoError(t, c.Sync(ctx, "a.g"))
		got := helpers.FindCRDCondition(client.Get("a.g"), testCondition)
		require.NotNil(t, got)
		assert.Equal(t, "Because", got.Reason)
		assert.Equal(t, t0, got.LastTransitionTime.Time, "from the controller's clock")
	})
	t.Run("SameInputSkipped", func(t *testing.T) {
		c, inf, client := newConditionController(t, true, labelled("Because"))
		require.NoError(t, c.Sync(ctx, "a.g"))
		// The condition is gone from the cached CRD (another writer, say)
		// but the input has not changed: not looked at again.
		change(inf, client, labelled("Because"))
		require.NoError(t, c.Sync(ctx, "a.g"))
		assert.Len(t, client.Updates(), 1)
	})
	t.Run("UnchangedConditionNotWritten", func(t *testing.T) {
		crd := labelled("Because")
		crd.Status.Conditions = []apiextensionsv1.CustomResourceDefinitionCondition{{Type: testCondition, Status: apiextensionsv1.ConditionTrue, Reason: "Because"}}
		c, _, client := newConditionController(t, true, crd)
		require.NoError(t, c.Sync(ctx, "a.g"))
		assert.Empty(t, client.Updates())
	})
	t.Run("RemoveWhenNone", func(t *testing.T) {
		c, inf, client := newConditionController(t, true, labelled("Because"))
		require.NoError(t, c.Sync(ctx, "a.g"))
		next := client.Get("a.g")
		next.Labels = nil
		change(inf, client, next)
		require.NoError(t, c.Sync(ctx, "a.g"))
		assert.Nil(t, helpers.FindCRDCondition(client.Get("a.g"), testCondition))
	})
	t.Run("KeptWithoutRemoveWhenNone", func(t *testing.T) {
		c, inf, client := newConditionController(t, false, labelled("Because"))
		require.NoError(t, c.Sync(ctx, "a.g"))
		next := client.Get("a.g")
		next.Labels = nil
		change(inf, client, next)
		require.NoError(t, c.Sync(ctx, "a.g"))
		assert.NotNil(t, helpers.FindCRDCondition(client.Get("a.g"), testCondition))
		assert.Len(t, client.Updates(), 1)
	})
	t.Run("ConflictIsNotAnError", func(t *testing.T) {
		c, _, client := newConditionController(t, true, labelled("Because"))
		client.UpdateStatusHook = func(*apiextensionsv1.CustomResourceDefinition) error {
			return apierrors.NewConflict(apiextensionsv1.Resource("customresourcedefinitions"), "a.g", errors.New("stale"))
		}
		require.NoError(t, c.Sync(ctx, "a.g"))
		assert.Zero(t, c.Remembered(), "a conflict writes nothing: the CRD must be looked at again")
	})
	t.Run("ErrWrite", func(t *testing.T) {
		c, _, client := newConditionController(t, true, labelled("Because"))
		client.UpdateStatusHook = func(*apiextensionsv1.CustomResourceDefinition) error { return errors.New("connection refused") }
		require.Error(t, c.Sync(ctx, "a.g"))
		assert.Zero(t, c.Remembered())
	})
	t.Run("DeleteForgets", func(t *testing.T) {
		c, inf, client := newConditionController(t, true, labelled("Because"))
		require.NoError(t, c.Sync(ctx, "a.g"))
		require.Equal(t, 1, c.Remembered())
		inf.Delete(client.Get("a.g"))
		assert.Zero(t, c.Remembered())
	})
}

// TestConditionController_CalculatedOncePerInput: a CRD's status writes
// bring it back with the same input, and the condition is not calculated
// again (for the NonStructuralSchema condition that is a structural schema
// of every version), but it is still compared with what the CRD has.
func TestConditionController_CalculatedOncePerInput(t *testing.T) {
	ctx := context.Background()
	inf := controllertest.NewInformer()
	client := controllertest.NewClient()
	crd := labelled("")
	crd.UID = "uid-1"
	require.NoError(t, inf.GetIndexer().Add(client.Put(crd)))
	spec := testConditionSpec(true)
	calls := 0
	calculate := spec.Calculate
	spec.Calculate = func(crd *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinitionCondition {
		calls++
		return calculate(crd)
	}
	c, err := controller.NewConditionController(inf, client, controller.Options{Logger: quiet, Clock: clock.NewFakeClock(t0)}, spec)
	require.NoError(t, err)
	t.Cleanup(c.ShutDown)

	require.NoError(t, c.Sync(ctx, "a.g"))
	assert.Empty(t, client.Updates(), "no condition wanted, none there")
	// Status-only changes (another controller's condition): same input.
	for _, other := range []apiextensionsv1.CustomResourceDefinitionConditionType{"NamesAccepted", "Established"} {
		next := client.Get("a.g")
		next.Status.Conditions = append(next.Status.Conditions, apiextensionsv1.CustomResourceDefinitionCondition{Type: other, Status: apiextensionsv1.ConditionTrue})
		change(inf, client, next)
		require.NoError(t, c.Sync(ctx, "a.g"))
	}
	assert.Equal(t, 1, calls, "calculated once for one input")
	assert.Empty(t, client.Updates())

	// Someone writes the condition by hand: still compared, and removed,
	// without calculating again.
	next := client.Get("a.g")
	next.Status.Conditions = append(next.Status.Conditions, apiextensionsv1.CustomResourceDefinitionCondition{Type: testCondition, Status: apiextensionsv1.ConditionTrue, Reason: "ByHand"})
	change(inf, client, next)
	require.NoError(t, c.Sync(ctx, "a.g"))
	assert.Nil(t, helpers.FindCRDCondition(client.Get("a.g"), testCondition), "removed again")
	assert.Equal(t, 1, calls)

	// A new input is calculated.
	next = client.Get("a.g")
	next.Labels = map[string]string{"want": "Because"}
	change(inf, client, next)
	require.NoError(t, c.Sync(ctx, "a.g"))
	assert.Equal(t, 2, calls)
	require.NotNil(t, helpers.FindCRDCondition(client.Get("a.g"), testCondition))

}

func TestConditionController_Run(t *testing.T) {
	c, inf, client := newConditionController(t, true, labelled("Because"))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx, 2); close(done) }()

	inf.Add(client.Get("a.g"))
	require.Eventually(t, func() bool {
		return helpers.IsCRDConditionTrue(client.Get("a.g"), testCondition)
	}, 5*time.Second, time.Millisecond)

	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after ctx ended")
	}
}
