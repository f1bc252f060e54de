package controller_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/trace"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// opts are the defaulted Options of a test controller.
var opts = controller.Options{Logger: quiet}.WithDefaults("test")

func TestProcessNextWorkItem(t *testing.T) {
	ctx := context.Background()
	q := controller.NewQueue[string]("test", controller.Options{})
	defer q.ShutDown()
	fail := errors.New("boom")
	syncFn := func(context.Context, string) error { return fail }

	t.Run("ErrRequeuedWithBackoff", func(t *testing.T) {
		q.Add("a")
		require.True(t, controller.ProcessNextWorkItem(ctx, q, syncFn, opts, ""))
		assert.Equal(t, 1, q.NumRequeues("a"))
	})
	t.Run("OKForgets", func(t *testing.T) {
		fail = nil
		q.Add("a")
		require.Eventually(t, func() bool { return q.Len() == 1 }, 5*time.Second, time.Millisecond)
		require.True(t, controller.ProcessNextWorkItem(ctx, q, syncFn, opts, ""))
		assert.Equal(t, 0, q.NumRequeues("a"))
	})
	t.Run("ShutDown", func(t *testing.T) {
		q.ShutDown()
		assert.False(t, controller.ProcessNextWorkItem(ctx, q, syncFn, opts, ""))
	})
}

func TestRunWorkers(t *testing.T) {
	q := controller.NewQueue[int]("test", controller.Options{})
	var running, maxRunning atomic.Int32
	var mu sync.Mutex
	seen := map[int]bool{}
	syncFn := func(_ context.Context, k int) error {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			m := maxRunning.Load()
			if n <= m || maxRunning.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(2 * time.Millisecond)
		mu.Lock()
		seen[k] = true
		mu.Unlock()
		return nil
	}
	for k := range 20 {
		q.Add(k)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		controller.RunWorkers(ctx, q, 4, func(ctx context.Context) bool {
			return controller.ProcessNextWorkItem(ctx, q, syncFn, opts, "")
		})
		close(done)
	}()
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(seen) == 20 }, 5*time.Second, time.Millisecond)
	assert.LessOrEqual(t, maxRunning.Load(), int32(4))
	assert.Greater(t, maxRunning.Load(), int32(1), "workers run in parallel")

	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("RunWorkers did not return after ctx ended")
	}
	assert.True(t, q.ShuttingDown())
}

func TestCRDFromObject(t *testing.T) {
	crd := &apiextensionsv1.CustomResourceDefinition{ObjectMeta: metav1.ObjectMeta{Name: "a.g"}}
	for name, obj := range map[string]any{
		"CRD":       crd,
		"Tombstone": informer.DeletedFinalStateUnknown{Key: "a.g", Obj: crd},
	} {
		got, ok := controller.CRDFromObject(obj)
		assert.True(t, ok, name)
		assert.Same(t, crd, got, name)
	}
	_, ok := controller.CRDFromObject("not a CRD")
	assert.False(t, ok)
	_, ok = controller.CRDFromObject((*apiextensionsv1.CustomResourceDefinition)(nil))
	assert.False(t, ok)
}

func TestProcessNextWorkItem_Trace(t *testing.T) {
	ctx := context.Background()
	tr := trace.New(trace.Options{})
	o := controller.Options{Logger: quiet, Tracer: tr}.WithDefaults("naming")
	q := controller.NewQueue[string]("crd_naming_condition_controller", o)
	defer q.ShutDown()
	const upstream = "k8s.io/apiextensions-apiserver/pkg/controller/status.(*NamingConditionController).sync"

	q.Add("a.g")
	require.True(t, controller.ProcessNextWorkItem(ctx, q, func(context.Context, string) error { return errors.New("boom") }, o, upstream))
	events := tr.Recent(0)
	var got []string
	for _, e := range events {
		got = append(got, e.Component+" "+e.Step+" "+e.Actor+" "+e.Key)
	}
	assert.Equal(t, []string{
		"workqueue add crd_naming_condition_controller a.g",
		"workqueue get crd_naming_condition_controller a.g",
		"controller sync naming a.g",
		"workqueue requeue crd_naming_condition_controller a.g",
		"workqueue done crd_naming_condition_controller a.g",
	}, got)
	sync := events[2]
	assert.Equal(t, "boom", sync.Err)
	assert.Equal(t, upstream, sync.Upstream)
}

func TestOptions_TraceStatus(t *testing.T) {
	tr := trace.New(trace.Options{})
	o := controller.Options{Logger: quiet, Tracer: tr}.WithDefaults("finalizer")
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "a.g", ResourceVersion: "7"},
		Status: apiextensionsv1.CustomResourceDefinitionStatus{Conditions: []apiextensionsv1.CustomResourceDefinitionCondition{
			{Type: apiextensionsv1.Terminating, Status: apiextensionsv1.ConditionFalse, Reason: "InstanceDeletionCompleted"},
		}},
	}
	o.TraceStatus(crd, "up", "finalizer removed", apiextensionsv1.Terminating, apiextensionsv1.NonStructuralSchema)
	controller.Options{}.WithDefaults("off").TraceStatus(crd, "up", "") // nil Tracer: nothing, no panic

	events := tr.Recent(0)
	require.Len(t, events, 1)
	e := events[0]
	assert.Equal(t, trace.Event{
		Seq: 1, Time: e.Time, Component: trace.Controller, Step: "status", Actor: "finalizer",
		Resource: "customresourcedefinitions.apiextensions.k8s.io", Key: "a.g", ResourceVersion: "7",
		Message:  "Terminating=False (InstanceDeletionCompleted), NonStructuralSchema removed, finalizer removed",
		Upstream: "up",
	}, e)
}

// TestCRDsOfGroup: the group index finds exactly the CRDs of a group, and
// follows a CRD that is deleted; AddGroupIndex is idempotent.
func TestCRDsOfGroup(t *testing.T) {
	inf := informer.NewSharedIndexInformer(nil, 0, nil)
	require.NoError(t, controller.AddGroupIndex(inf))
	require.NoError(t, controller.AddGroupIndex(inf), "a second controller adds it again")
	crd := func(name, group string) *apiextensionsv1.CustomResourceDefinition {
		c := &apiextensionsv1.CustomResourceDefinition{ObjectMeta: metav1.ObjectMeta{Name: name}}
		c.Spec.Group = group
		return c
	}
	idx := inf.GetIndexer()
	a, b, c := crd("as.g1.io", "g1.io"), crd("bs.g1.io", "g1.io"), crd("as.g2.io", "g2.io")
	for _, x := range []*apiextensionsv1.CustomResourceDefinition{a, b, c} {
		require.NoError(t, idx.Add(x))
	}
	names := func(group string) []string {
		crds, err := controller.CRDsOfGroup(idx, group)
		require.NoError(t, err)
		var out []string
		for _, x := range crds {
			out = append(out, x.Name)
		}
		return out
	}
	assert.ElementsMatch(t, []string{"as.g1.io", "bs.g1.io"}, names("g1.io"))
	assert.ElementsMatch(t, []string{"as.g2.io"}, names("g2.io"))
	assert.Empty(t, names("g3.io"))
	require.NoError(t, idx.Delete(b))
	assert.ElementsMatch(t, []string{"as.g1.io"}, names("g1.io"))
}
