package finalizer

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/controller/internal/controllertest"
	"github.com/crdlab/crdlab/machinery/clock"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// fakeInstances is a ListerCollectionDeleter over in-memory instances.
type fakeInstances struct {
	mu sync.Mutex // guards the fields below
	// items maps namespace to instance names.
	items map[string][]string
	// stuck instances survive DeleteCollection (they have finalizers).
	stuck map[string]bool
	// deletes lists the namespaces DeleteCollection was called for; lists
	// the continue token of each List.
	deletes, lists     []string
	listErr, deleteErr error
}

func (f *fakeInstances) GetCustomResourceListerCollectionDeleter(*apiextensionsv1.CustomResourceDefinition) (ListerCollectionDeleter, error) {
	return f, nil
}

// List pages through the instances in namespace then name order, as
// storage's keys sort; the continue token is the offset. It records each
// call's continue token.
func (f *fakeInstances) List(_ context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lists = append(f.lists, opts.Continue)
	if f.listErr != nil {
		return nil, f.listErr
	}
	var all []metav1.PartialObjectMetadata
	for ns, names := range f.items {
		for _, n := range names {
			all = append(all, metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: n}})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i].ObjectMeta, all[j].ObjectMeta
		return a.Namespace < b.Namespace || a.Namespace == b.Namespace && a.Name < b.Name
	})
	from, _ := strconv.Atoi(opts.Continue)
	from = min(from, len(all))
	list := &metav1.PartialObjectMetadataList{Items: all[from:]}
	if limit := int(opts.Limit); limit > 0 && from+limit < len(all) {
		list.Items, list.Continue = all[from:from+limit], strconv.Itoa(from+limit)
	}
	return list, nil
}

func (f *fakeInstances) DeleteCollection(_ context.Context, ns string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deletes = append(f.deletes, ns)
	if f.deleteErr != nil {
		return f.deleteErr
	}
	var kept []string
	for _, n := range f.items[ns] {
		if f.stuck[n] {
			kept = append(kept, n)
		}
	}
	f.items[ns] = kept
	if len(kept) == 0 {
		delete(f.items, ns)
	}
	return nil
}

func deletedCRD(conditions ...apiextensionsv1.ConditionStatus) *apiextensionsv1.CustomResourceDefinition {
	ts := metav1.NewTime(t0)
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{
			Name: "crontabs.stable.example.com", UID: "u1",
			DeletionTimestamp: &ts,
			Finalizers:        []string{apiextensionsv1.CustomResourceCleanupFinalizer},
		},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "stable.example.com",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "crontabs", Kind: "CronTab"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
				{Name: "v1", Served: true, Storage: true},
			},
		},
		Status: apiextensionsv1.CustomResourceDefinitionStatus{
			AcceptedNames: apiextensionsv1.CustomResourceDefinitionNames{Plural: "crontabs", Kind: "CronTab"},
			Conditions: []apiextensionsv1.CustomResourceDefinitionCondition{{
				Type: apiextensionsv1.Terminating, Status: apiextensionsv1.ConditionTrue,
				Reason:  "InstanceDeletionPending",
				Message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
			}},
		},
	}
	if len(conditions) > 0 {
		crd.Status.Conditions = append(crd.Status.Conditions, apiextensionsv1.CustomResourceDefinitionCondition{
			Type: apiextensionsv1.Established, Status: conditions[0],
		})
	}
	return crd
}

func newFinalizer(t *testing.T, instances *fakeInstances, fakeClock clock.Clock, crds ...*apiextensionsv1.CustomResourceDefinition) (*CRDFinalizer, *controllertest.Informer, *controllertest.Client) {
	t.Helper()
	inf := controllertest.NewInformer()
	client := controllertest.NewClient()
	for _, crd := range crds {
		_ = inf.GetIndexer().Add(client.Put(crd))
	}
	c, err := NewCRDFinalizer(inf, client, instances, controller.Options{Clock: fakeClock})
	require.NoError(t, err)
	t.Cleanup(c.queue.ShutDown)
	return c, inf, client
}

func terminating(crd *apiextensionsv1.CustomResourceDefinition) apiextensionsv1.CustomResourceDefinitionCondition {
	c := helpers.FindCRDCondition(crd, apiextensionsv1.Terminating)
	if c == nil {
		return apiextensionsv1.CustomResourceDefinitionCondition{}
	}
	out := *c
	out.LastTransitionTime = metav1.Time{}
	return out
}

func TestCRDFinalizer_sync(t *testing.T) {
	ctx := context.Background()
	fakeClock := clock.NewFakeClock(t0)
	name := "crontabs.stable.example.com"

	t.Run("OK", func(t *testing.T) {
		instances := &fakeInstances{items: map[string][]string{"a": {"x", "y"}, "b": {"z"}}}
		c, _, client := newFinalizer(t, instances, fakeClock, deletedCRD(apiextensionsv1.ConditionTrue))

		require.NoError(t, c.sync(ctx, name))

		assert.Equal(t, []string{"a", "b"}, instances.deletes, "one DeleteCollection per namespace")
		updates := client.Updates()
		require.Len(t, updates, 2)
		assert.Equal(t, "InstanceDeletionInProgress", terminating(updates[0]).Reason)
		assert.Equal(t, apiextensionsv1.CustomResourceDefinitionCondition{
			Type: apiextensionsv1.Terminating, Status: apiextensionsv1.ConditionFalse,
			Reason: "InstanceDeletionCompleted", Message: "removed all instances",
		}, terminating(updates[1]))
		assert.Empty(t, updates[1].Finalizers)
		assert.Nil(t, client.Get(name), "finalizer removed: the CRD is gone")
	})

	t.Run("Pages", func(t *testing.T) {
		// A namespace is deleted as soon as a page names it, and the
		// list starts again; a page of instances that finalizers keep is
		// paged past.
		names := func(prefix string, n int) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = fmt.Sprintf("%s%04d", prefix, i)
			}
			return out
		}
		held := names("held", ListPageSize+100)
		instances := &fakeInstances{
			items: map[string][]string{"a": append(names("x", 2*ListPageSize), held...), "b": {"y"}, "c": {"z"}},
			stuck: map[string]bool{},
		}
		for _, n := range held {
			instances.stuck[n] = true
		}
		c, _, client := newFinalizer(t, instances, fakeClock, deletedCRD(apiextensionsv1.ConditionTrue))

		err := c.sync(ctx, name)
		require.ErrorIs(t, err, ErrInstancesRemain)
		assert.Equal(t, fmt.Sprintf("custom resources remain: crontabs.stable.example.com waiting for %d items to be removed", len(held)), err.Error())
		assert.Equal(t, []string{"a", "b", "c"}, instances.deletes, "one DeleteCollection per namespace")
		assert.Equal(t, []string{
			"",        // a's first page: delete a, start again
			"", "500", // a's held instances, then b and c: delete them, start again
			"", "500", // only held instances: done
			"", "500", // the count
		}, instances.lists)
		assert.NotNil(t, client.Get(name), "the CRD waits for its held instances")
	})

	t.Run("ClusterScoped", func(t *testing.T) {
		crd := deletedCRD(apiextensionsv1.ConditionTrue)
		crd.Spec.Scope = apiextensionsv1.ClusterScoped
		instances := &fakeInstances{items: map[string][]string{"": {"x"}}}
		c, _, client := newFinalizer(t, instances, fakeClock, crd)
		require.NoError(t, c.sync(ctx, name))
		assert.Equal(t, []string{""}, instances.deletes)
		assert.Nil(t, client.Get(name))
	})

	t.Run("NeverEstablished", func(t *testing.T) {
		instances := &fakeInstances{items: map[string][]string{}}
		c, _, client := newFinalizer(t, instances, fakeClock, deletedCRD())
		require.NoError(t, c.sync(ctx, name))
		assert.Empty(t, instances.deletes)
		updates := client.Updates()
		require.NotEmpty(t, updates)
		assert.Equal(t, "NeverEstablished", terminating(updates[len(updates)-1]).Reason)
		assert.Nil(t, client.Get(name))
	})

	t.Run("OverlappingBuiltInResource", func(t *testing.T) {
		crd := deletedCRD(apiextensionsv1.ConditionTrue)
		crd.Name = "customresourcedefinitions.apiextensions.k8s.io"
		crd.Spec.Group = "apiextensions.k8s.io"
		crd.Spec.Names.Plural = "customresourcedefinitions"
		instances := &fakeInstances{items: map[string][]string{"": {"every-crd"}}}
		c, _, client := newFinalizer(t, instances, fakeClock, crd)
		require.NoError(t, c.sync(ctx, crd.Name))
		assert.Empty(t, instances.deletes, "must not delete the built-in's objects")
		updates := client.Updates()
		assert.Equal(t, "OverlappingBuiltInResource", terminating(updates[len(updates)-1]).Reason)
		assert.Nil(t, client.Get(crd.Name))
	})

	t.Run("ErrInstancesRemain", func(t *testing.T) {
		instances := &fakeInstances{items: map[string][]string{"a": {"x", "stuck"}}, stuck: map[string]bool{"stuck": true}}
		c, _, client := newFinalizer(t, instances, fakeClock, deletedCRD(apiextensionsv1.ConditionTrue))

		err := c.sync(ctx, name)
		require.ErrorIs(t, err, ErrInstancesRemain)
		assert.Len(t, client.Updates(), 1, "only InstanceDeletionInProgress was written")
		got := client.Get(name)
		require.NotNil(t, got)
		assert.Equal(t, "InstanceDeletionInProgress", terminating(got).Reason)
		assert.Equal(t, []string{apiextensionsv1.CustomResourceCleanupFinalizer}, got.Finalizers)

		// The next try, from the written copy, does not write InProgress
		// again.
		c2, _, client2 := newFinalizer(t, instances, fakeClock, got)
		require.ErrorIs(t, c2.sync(ctx, name), ErrInstancesRemain)
		assert.Empty(t, client2.Updates())

		// The stuck instance goes: the next try finishes.
		instances.stuck = nil
		require.NoError(t, c2.sync(ctx, name))
		assert.Nil(t, client2.Get(name))
	})

	t.Run("ErrDeleteCollection", func(t *testing.T) {
		instances := &fakeInstances{items: map[string][]string{"a": {"x"}}, deleteErr: errors.New("boom")}
		c, _, client := newFinalizer(t, instances, fakeClock, deletedCRD(apiextensionsv1.ConditionTrue))
		require.EqualError(t, c.sync(ctx, name), "boom")
		got := client.Get(name)
		assert.Equal(t, apiextensionsv1.CustomResourceDefinitionCondition{
			Type: apiextensionsv1.Terminating, Status: apiextensionsv1.ConditionTrue,
			Reason: "InstanceDeletionFailed", Message: "could not issue all deletes: boom",
		}, terminating(got))
		assert.NotEmpty(t, got.Finalizers)
	})

	t.Run("ErrList", func(t *testing.T) {
		instances := &fakeInstances{listErr: errors.New("boom")}
		c, _, client := newFinalizer(t, instances, fakeClock, deletedCRD(apiextensionsv1.ConditionTrue))
		require.Error(t, c.sync(ctx, name))
		assert.Equal(t, "InstanceDeletionFailed", terminating(client.Get(name)).Reason)
	})

	t.Run("NotDeleted", func(t *testing.T) {
		crd := deletedCRD(apiextensionsv1.ConditionTrue)
		crd.DeletionTimestamp = nil
		instances := &fakeInstances{items: map[string][]string{"a": {"x"}}}
		c, _, client := newFinalizer(t, instances, fakeClock, crd)
		require.NoError(t, c.sync(ctx, name))
		assert.Empty(t, client.Updates())
		assert.Empty(t, instances.deletes)
	})

	t.Run("NotFound", func(t *testing.T) {
		c, _, _ := newFinalizer(t, &fakeInstances{}, fakeClock)
		require.NoError(t, c.sync(ctx, name))
	})
}

func TestCRDFinalizer_eventHandlers(t *testing.T) {
	c, inf, _ := newFinalizer(t, &fakeInstances{}, clock.NewFakeClock(t0))
	live := deletedCRD(apiextensionsv1.ConditionTrue)
	live.DeletionTimestamp, live.Finalizers = nil, nil
	live.ResourceVersion = "1"

	t.Run("AddLiveIgnored", func(t *testing.T) {
		inf.Add(live)
		assert.Equal(t, 0, c.queue.Len())
	})
	t.Run("DeleteQueued", func(t *testing.T) {
		deleted := deletedCRD(apiextensionsv1.ConditionTrue)
		deleted.ResourceVersion = "2"
		inf.Update(deleted)
		require.Equal(t, 1, c.queue.Len())
		key, _ := c.queue.Get()
		c.queue.Done(key)
	})
	t.Run("OwnTerminatingWriteIgnored", func(t *testing.T) {
		next := deletedCRD(apiextensionsv1.ConditionTrue)
		next.ResourceVersion = "3"
		helpers.SetCRDCondition(next, apiextensionsv1.CustomResourceDefinitionCondition{
			Type: apiextensionsv1.Terminating, Status: apiextensionsv1.ConditionTrue, Reason: "InstanceDeletionInProgress",
		})
		inf.Update(next)
		assert.Equal(t, 0, c.queue.Len(), "requeueing our own write would hot-loop")
	})
	t.Run("ResyncQueued", func(t *testing.T) {
		cached, _, _ := inf.GetIndexer().GetByKey(live.Name)
		inf.Update(cached.(*apiextensionsv1.CustomResourceDefinition))
		assert.Equal(t, 1, c.queue.Len())
	})
}

func TestCRDFinalizer_retryWithBackoff(t *testing.T) {
	fakeClock := clock.NewFakeClock(t0)
	instances := &fakeInstances{items: map[string][]string{"a": {"stuck"}}, stuck: map[string]bool{"stuck": true}}
	c, _, _ := newFinalizer(t, instances, fakeClock, deletedCRD(apiextensionsv1.ConditionTrue))
	ctx := context.Background()

	c.queue.Add("crontabs.stable.example.com")
	require.True(t, c.processNextWorkItem(ctx))
	assert.Equal(t, 1, c.queue.NumRequeues("crontabs.stable.example.com"))
	assert.Equal(t, 0, c.queue.Len(), "waits its backoff")
	fakeClock.Step(5 * time.Millisecond)
	require.Eventually(t, func() bool { return c.queue.Len() == 1 }, 5*time.Second, time.Millisecond)
}
