package establish

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
	"github.com/crdlab/crdlab/trace"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func crd(name string, conditions ...apiextensionsv1.CustomResourceDefinitionCondition) *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status:     apiextensionsv1.CustomResourceDefinitionStatus{Conditions: conditions},
	}
}

func cond(t apiextensionsv1.CustomResourceDefinitionConditionType, s apiextensionsv1.ConditionStatus) apiextensionsv1.CustomResourceDefinitionCondition {
	return apiextensionsv1.CustomResourceDefinitionCondition{Type: t, Status: s}
}

func newController(t *testing.T, fakeClock clock.Clock, crds ...*apiextensionsv1.CustomResourceDefinition) (*EstablishingController, *controllertest.Client) {
	t.Helper()
	inf := controllertest.NewInformer()
	client := controllertest.NewClient()
	for _, c := range crds {
		_ = inf.GetIndexer().Add(client.Put(c))
	}
	c := NewEstablishingController(inf, client, controller.Options{Clock: fakeClock})
	t.Cleanup(c.queue.ShutDown)
	return c, client
}

func TestEstablishingController_sync(t *testing.T) {
	ctx := context.Background()
	fakeClock := clock.NewFakeClock(t0)

	t.Run("OK", func(t *testing.T) {
		c, client := newController(t, fakeClock, crd("a.g",
			cond(apiextensionsv1.NamesAccepted, apiextensionsv1.ConditionTrue),
			cond(apiextensionsv1.Established, apiextensionsv1.ConditionFalse)))
		require.NoError(t, c.sync(ctx, "a.g"))
		got := client.Get("a.g")
		established := helpers.FindCRDCondition(got, apiextensionsv1.Established)
		require.NotNil(t, established)
		assert.Equal(t, apiextensionsv1.CustomResourceDefinitionCondition{
			Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue,
			Reason: "InitialNamesAccepted", Message: "the initial names have been accepted",
			LastTransitionTime: metav1.NewTime(t0),
		}, *established)
	})
	t.Run("NamesNotAccepted", func(t *testing.T) {
		c, client := newController(t, fakeClock, crd("a.g", cond(apiextensionsv1.NamesAccepted, apiextensionsv1.ConditionFalse)))
		require.NoError(t, c.sync(ctx, "a.g"))
		assert.Empty(t, client.Updates())
	})
	t.Run("AlreadyEstablished", func(t *testing.T) {
		c, client := newController(t, fakeClock, crd("a.g",
			cond(apiextensionsv1.NamesAccepted, apiextensionsv1.ConditionTrue),
			cond(apiextensionsv1.Established, apiextensionsv1.ConditionTrue)))
		require.NoError(t, c.sync(ctx, "a.g"))
		assert.Empty(t, client.Updates())
	})
	t.Run("NotFound", func(t *testing.T) {
		c, _ := newController(t, fakeClock)
		require.NoError(t, c.sync(ctx, "gone.g"))
	})
	t.Run("ConflictIsNotAnError", func(t *testing.T) {
		c, client := newController(t, fakeClock, crd("a.g", cond(apiextensionsv1.NamesAccepted, apiextensionsv1.ConditionTrue)))
		client.UpdateStatusHook = func(*apiextensionsv1.CustomResourceDefinition) error {
			return apierrors.NewConflict(apiextensionsv1.Resource("customresourcedefinitions"), "a.g", errors.New("stale"))
		}
		require.NoError(t, c.sync(ctx, "a.g"))
	})
	t.Run("ErrWrite", func(t *testing.T) {
		c, client := newController(t, fakeClock, crd("a.g", cond(apiextensionsv1.NamesAccepted, apiextensionsv1.ConditionTrue)))
		client.UpdateStatusHook = func(*apiextensionsv1.CustomResourceDefinition) error { return errors.New("connection refused") }
		require.Error(t, c.sync(ctx, "a.g"))
	})
}

func TestEstablishingController_QueueCRD(t *testing.T) {
	t.Run("NoDelay", func(t *testing.T) {
		c, _ := newController(t, clock.NewFakeClock(t0))
		c.QueueCRD("a.g")
		assert.Equal(t, 1, c.queue.Len(), "one server: ready at once")
	})
	t.Run("HADelay", func(t *testing.T) {
		fakeClock := clock.NewFakeClock(t0)
		c, _ := newController(t, fakeClock)
		c.EstablishDelay = HAEstablishDelay
		c.QueueCRD("a.g")
		assert.Equal(t, 0, c.queue.Len())
		fakeClock.Step(HAEstablishDelay - time.Millisecond)
		assert.Never(t, func() bool { return c.queue.Len() > 0 }, 50*time.Millisecond, 5*time.Millisecond)
		fakeClock.Step(time.Millisecond)
		assert.Eventually(t, func() bool { return c.queue.Len() == 1 }, 5*time.Second, time.Millisecond)
	})
}

func TestEstablishingController_processNextWorkItem(t *testing.T) {
	ctx := context.Background()
	c, _ := newController(t, clock.NewFakeClock(t0))
	err := errors.New("boom")
	c.syncFn = func(context.Context, string) error { return err }

	c.queue.Add("a.g")
	require.True(t, c.processNextWorkItem(ctx))
	assert.Equal(t, 1, c.queue.NumRequeues("a.g"), "failure: requeued with backoff")

	err = nil
	c.queue.Add("a.g")
	require.True(t, c.processNextWorkItem(ctx))
	assert.Equal(t, 0, c.queue.NumRequeues("a.g"), "success: forgotten")

	c.queue.ShutDown()
	assert.False(t, c.processNextWorkItem(ctx))
}

func TestEstablishingController_Run(t *testing.T) {
	c, client := newController(t, nil, crd("a.g", cond(apiextensionsv1.NamesAccepted, apiextensionsv1.ConditionTrue)))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx, 2); close(done) }()
	c.QueueCRD("a.g")
	require.Eventually(t, func() bool {
		got := client.Get("a.g")
		return helpers.IsCRDConditionTrue(got, apiextensionsv1.Established)
	}, 5*time.Second, time.Millisecond)
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after ctx ended")
	}
}

func TestEstablishingController_Trace(t *testing.T) {
	tr := trace.New(trace.Options{})
	inf := controllertest.NewInformer()
	client := controllertest.NewClient()
	_ = inf.GetIndexer().Add(client.Put(crd("a.g", cond(apiextensionsv1.NamesAccepted, apiextensionsv1.ConditionTrue))))
	c := NewEstablishingController(inf, client, controller.Options{Clock: clock.NewFakeClock(t0), Tracer: tr})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx, 1); close(done) }()
	defer func() { cancel(); <-done }()

	c.QueueCRD("a.g")
	var events []trace.Event
	require.Eventually(t, func() bool { events = tr.Recent(0); return len(events) >= 5 }, 5*time.Second, time.Millisecond)
	var got []string
	for _, e := range events {
		got = append(got, e.Component+" "+e.Step+" "+e.Actor+" "+e.Key)
	}
	assert.Equal(t, []string{
		"workqueue add crdEstablishing a.g",
		"workqueue get crdEstablishing a.g",
		"controller status establishing a.g",
		"controller sync establishing a.g",
		"workqueue done crdEstablishing a.g",
	}, got)
	status := events[2]
	assert.Equal(t, "Established=True (InitialNamesAccepted)", status.Message)
	assert.Equal(t, client.Get("a.g").ResourceVersion, status.ResourceVersion)
	assert.Equal(t, "customresourcedefinitions.apiextensions.k8s.io", status.Resource)
	assert.Equal(t, upstreamSync, status.Upstream)
	assert.Equal(t, "synced", events[3].Message)
	assert.Empty(t, events[3].Err)
}
