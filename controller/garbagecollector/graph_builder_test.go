package garbagecollector

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/scheme"
)

var (
	crontabKind   = scheme.GroupVersionKind{Group: "stable.example.com", Version: "v1", Kind: "CronTab"}
	configMapKind = scheme.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
)

func obj(kind scheme.GroupVersionKind, name, uid string, owners ...metav1.OwnerReference) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": kind.GroupVersion().String(), "kind": kind.Kind}}
	u.SetNamespace("ns")
	u.SetName(name)
	u.SetUID(metav1.UID(uid))
	u.SetOwnerReferences(owners)
	return u
}

func refTo(o *unstructured.Unstructured, block bool) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: o.GetAPIVersion(), Kind: o.GetKind(), Name: o.GetName(), UID: o.GetUID(), BlockOwnerDeletion: &block}
}

// deleting returns a copy of o being deleted with finalizer f.
func deleting(o *unstructured.Unstructured, f string) *unstructured.Unstructured {
	c := o.DeepCopy()
	now := metav1.Now()
	c.SetDeletionTimestamp(&now)
	c.SetFinalizers([]string{f})
	return c
}

func newTestGraphBuilder() *GraphBuilder {
	return newDependencyGraphBuilder(nil, DefaultIgnoredResources(), controller.Options{}.WithDefaults("garbagecollector"))
}

// apply sends e through the GraphBuilder, as its one goroutine would.
func (gb *GraphBuilder) apply(t *testing.T, e *event) {
	t.Helper()
	gb.graphChanges.Add(e)
	require.True(t, gb.processGraphChanges())
}

// drain returns what q holds now, in order.
func drain(t *testing.T, gb *GraphBuilder, orphan bool) []string {
	t.Helper()
	q := gb.attemptToDelete
	if orphan {
		q = gb.attemptToOrphan
	}
	var out []string
	for q.Len() > 0 {
		n, _ := q.Get()
		out = append(out, n.identity.Name)
		q.Done(n)
	}
	return out
}

func TestGraphBuilder_ProcessGraphChanges(t *testing.T) {
	owner := obj(crontabKind, "owner", "u-owner")
	dep := obj(configMapKind, "dep", "u-dep", refTo(owner, true))

	t.Run("VirtualOwnerThenObserved", func(t *testing.T) {
		gb := newTestGraphBuilder()
		gb.apply(t, &event{eventType: addEvent, obj: dep, gvk: configMapKind})
		ownerNode, ok := gb.uidToNode.Read("u-owner")
		require.True(t, ok, "a virtual node stands for the owner")
		assert.False(t, ownerNode.isObserved())
		assert.Equal(t, "ns", ownerNode.identity.Namespace, "looked for in the dependent's namespace")
		assert.Equal(t, []string{"owner"}, drain(t, gb, false), "the collector checks whether it exists")

		gb.apply(t, &event{eventType: addEvent, obj: owner, gvk: crontabKind})
		ownerNode, _ = gb.uidToNode.Read("u-owner")
		assert.True(t, ownerNode.isObserved())
		assert.Equal(t, 1, ownerNode.dependentsLength())
		assert.Empty(t, drain(t, gb, false))
	})

	t.Run("OwnerDeleted", func(t *testing.T) {
		gb := newTestGraphBuilder()
		gb.apply(t, &event{eventType: addEvent, obj: owner, gvk: crontabKind})
		gb.apply(t, &event{eventType: addEvent, obj: dep, gvk: configMapKind})
		gb.apply(t, &event{eventType: deleteEvent, obj: owner, gvk: crontabKind})
		_, ok := gb.uidToNode.Read("u-owner")
		assert.False(t, ok)
		assert.Equal(t, []string{"dep"}, drain(t, gb, false), "the dependent may be garbage now")
		assert.True(t, gb.absentOwnerCache.Has(objectReference{OwnerReference: ownerReferenceCoordinates(refTo(owner, false)), Namespace: "ns"}))
	})

	t.Run("ForegroundStarts", func(t *testing.T) {
		gb := newTestGraphBuilder()
		gb.apply(t, &event{eventType: addEvent, obj: owner, gvk: crontabKind})
		gb.apply(t, &event{eventType: addEvent, obj: dep, gvk: configMapKind})
		gb.apply(t, &event{eventType: updateEvent, obj: deleting(owner, metav1.FinalizerDeleteDependents), oldObj: owner, gvk: crontabKind})
		ownerNode, _ := gb.uidToNode.Read("u-owner")
		assert.True(t, ownerNode.isDeletingDependents())
		assert.ElementsMatch(t, []string{"dep", "owner"}, drain(t, gb, false))
		require.Len(t, ownerNode.blockingDependents(), 1)

		// The same state again (a resync) starts nothing new.
		gb.apply(t, &event{eventType: updateEvent, obj: deleting(owner, metav1.FinalizerDeleteDependents), oldObj: deleting(owner, metav1.FinalizerDeleteDependents), gvk: crontabKind})
		assert.Empty(t, drain(t, gb, false))

		// The dependent goes: the waiting owner is looked at again.
		gb.apply(t, &event{eventType: deleteEvent, obj: dep, gvk: configMapKind})
		assert.Equal(t, []string{"owner"}, drain(t, gb, false))
		assert.Empty(t, ownerNode.blockingDependents())
	})

	t.Run("OrphanStarts", func(t *testing.T) {
		gb := newTestGraphBuilder()
		gb.apply(t, &event{eventType: addEvent, obj: owner, gvk: crontabKind})
		gb.apply(t, &event{eventType: updateEvent, obj: deleting(owner, metav1.FinalizerOrphanDependents), oldObj: owner, gvk: crontabKind})
		assert.Equal(t, []string{"owner"}, drain(t, gb, true))
		assert.Empty(t, drain(t, gb, false))
	})

	t.Run("UnblockedOwnerRequeued", func(t *testing.T) {
		gb := newTestGraphBuilder()
		gb.apply(t, &event{eventType: addEvent, obj: owner, gvk: crontabKind})
		gb.apply(t, &event{eventType: addEvent, obj: dep, gvk: configMapKind})
		drain(t, gb, false)
		unblocked := obj(configMapKind, "dep", "u-dep", refTo(owner, false))
		gb.apply(t, &event{eventType: updateEvent, obj: unblocked, oldObj: dep, gvk: configMapKind})
		assert.Equal(t, []string{"owner"}, drain(t, gb, false), "an owner in foreground deletion may wait for this one no more")
		ownerNode, _ := gb.uidToNode.Read("u-owner")
		assert.Empty(t, ownerNode.blockingDependents())
	})

	t.Run("VirtualDeleteKeepsRealNodeWithOtherIdentity", func(t *testing.T) {
		gb := newTestGraphBuilder()
		gb.apply(t, &event{eventType: addEvent, obj: owner, gvk: crontabKind})
		wrong := obj(crontabKind, "other-name", "u-owner")
		gb.enqueueVirtualDeleteEvent(objectReference{OwnerReference: refTo(wrong, false), Namespace: "ns"})
		require.True(t, gb.processGraphChanges())
		_, ok := gb.uidToNode.Read("u-owner")
		assert.True(t, ok)
	})
}

func TestReferencesDiffs(t *testing.T) {
	a := metav1.OwnerReference{UID: "a", Name: "a"}
	b := metav1.OwnerReference{UID: "b", Name: "b"}
	yes := true
	b2 := metav1.OwnerReference{UID: "b", Name: "b", BlockOwnerDeletion: &yes}
	c := metav1.OwnerReference{UID: "c", Name: "c"}
	added, removed, changed := referencesDiffs([]metav1.OwnerReference{a, b}, []metav1.OwnerReference{b2, c})
	assert.Equal(t, []metav1.OwnerReference{c}, added)
	assert.Equal(t, []metav1.OwnerReference{a}, removed)
	assert.Equal(t, []ownerRefPair{{oldRef: b, newRef: b2}}, changed)

	added, removed, changed = referencesDiffs(nil, nil)
	assert.Empty(t, added)
	assert.Empty(t, removed)
	assert.Empty(t, changed)
}

func TestReferenceCache(t *testing.T) {
	c := newReferenceCache(2)
	ref := func(uid string) objectReference {
		return objectReference{OwnerReference: metav1.OwnerReference{UID: metav1.UID(uid)}}
	}
	c.Add(ref("1"))
	c.Add(ref("2"))
	assert.True(t, c.Has(ref("1"))) // 1 is now the most recent
	c.Add(ref("3"))                 // evicts 2
	assert.True(t, c.Has(ref("1")))
	assert.False(t, c.Has(ref("2")))
	assert.True(t, c.Has(ref("3")))
}

func TestRestMapper(t *testing.T) {
	m := &restMapper{}
	m.reset([]*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{{Name: "configmaps", Kind: "ConfigMap", Namespaced: true}, {Name: "namespaces", Kind: "Namespace"}}},
		{GroupVersion: "stable.example.com/v2", APIResources: []metav1.APIResource{{Name: "crontabs", Kind: "CronTab", Namespaced: true}}},
	})
	gvr, namespaced, err := m.apiResource("stable.example.com/v1", "CronTab")
	require.NoError(t, err)
	assert.Equal(t, scheme.GroupVersionResource{Group: "stable.example.com", Version: "v2", Resource: "crontabs"}, gvr, "any version maps to the preferred one")
	assert.True(t, namespaced)
	_, namespaced, err = m.apiResource("v1", "Namespace")
	require.NoError(t, err)
	assert.False(t, namespaced)
	_, _, err = m.apiResource("v1", "Pod")
	var mappingErr *restMappingError
	assert.ErrorAs(t, err, &mappingErr)
}

// TestGraphBuilder_Concurrent reads the graph from "workers" while the
// builder writes it (run with -race).
func TestGraphBuilder_Concurrent(t *testing.T) {
	gb := newTestGraphBuilder()
	owner := obj(crontabKind, "owner", "u-owner")
	done := make(chan struct{})
	go func() {
		defer close(done)
		deadline := time.Now().Add(200 * time.Millisecond)
		for time.Now().Before(deadline) {
			if n, ok := gb.uidToNode.Read("u-owner"); ok {
				_ = n.blockingDependents()
				_ = n.isDeletingDependents()
			}
		}
	}()
	for i := range 200 {
		d := obj(configMapKind, "dep", "u-dep-"+string(rune('a'+i%26))+string(rune('a'+i/26)), refTo(owner, true))
		gb.apply(t, &event{eventType: addEvent, obj: d, gvk: configMapKind})
		if i%2 == 1 {
			gb.apply(t, &event{eventType: deleteEvent, obj: d, gvk: configMapKind})
		}
	}
	<-done
	n, ok := gb.uidToNode.Read("u-owner")
	require.True(t, ok)
	assert.Equal(t, 100, n.dependentsLength())
}
