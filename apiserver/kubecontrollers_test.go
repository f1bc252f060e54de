package apiserver

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/discovery"
	"github.com/crdlab/crdlab/client/dynamic"
	"github.com/crdlab/crdlab/scheme"
)

// These tests run the namespace controller and the garbage collector in a
// real server on a loopback port, over HTTP, as `crdlab serve` does.

var configMapsGVR = scheme.GroupVersionResource{Version: "v1", Resource: "configmaps"}

// kubeControllersServer starts a ready server with the CronTab CRD
// established, and returns its clients.
func kubeControllersServer(t *testing.T) (*testServer, *client.Clientset, *dynamic.DynamicClient) {
	t.Helper()
	ts, crds, dyn := lifecycleServer(t)
	cs, err := client.NewForConfig(&client.Config{Host: ts.url, QPS: -1})
	require.NoError(t, err)
	_, err = crds.Create(context.Background(), crontabCRD(), metav1.CreateOptions{})
	require.NoError(t, err)
	waitFor(t, crds, "crontabs."+group, 10*time.Second, established)
	// The namespace controller finds what to delete through discovery,
	// which the discovery controller updates just after Established: a
	// namespace deleted before discovery lists crontabs is emptied
	// without them, as upstream's would be (a CI run here did once).
	disc, err := discovery.NewDiscoveryClientForConfig(&client.Config{Host: ts.url, QPS: -1})
	require.NoError(t, err)
	within(t, 10*time.Second, "discovery lists crontabs", func() bool {
		rl, err := disc.ServerResourcesForGroupVersion(context.Background(), crontabsGVR.GroupVersion().String())
		return err == nil && slices.ContainsFunc(rl.APIResources, func(r metav1.APIResource) bool { return r.Name == "crontabs" })
	})
	return ts, cs, dyn
}

func createNamespace(t *testing.T, cs *client.Clientset, name string) {
	t.Helper()
	_, err := cs.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	require.NoError(t, err)
}

func configMap(ns, name string, owners ...metav1.OwnerReference) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"k": "v"}}}
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetOwnerReferences(owners)
	return u
}

// createAll creates objs with 16 requests in flight.
func createAll(t *testing.T, dyn *dynamic.DynamicClient, gvr scheme.GroupVersionResource, objs []*unstructured.Unstructured) {
	t.Helper()
	var (
		wg   sync.WaitGroup
		next = make(chan *unstructured.Unstructured)
		mu   sync.Mutex
		errs []error
	)
	for range 16 {
		wg.Go(func() {
			for o := range next {
				if _, err := dyn.Resource(gvr).Namespace(o.GetNamespace()).Create(context.Background(), o, metav1.CreateOptions{}); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for _, o := range objs {
		next <- o
	}
	close(next)
	wg.Wait()
	require.Empty(t, errs)
}

func count(t *testing.T, dyn *dynamic.DynamicClient, gvr scheme.GroupVersionResource, ns string) int {
	t.Helper()
	list, err := dyn.Resource(gvr).Namespace(ns).List(context.Background(), metav1.ListOptions{})
	require.NoError(t, err)
	return len(list.Items)
}

// within polls cond every 10ms for up to d.
func within(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, d)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func namespaceGone(cs *client.Clientset, name string) func() bool {
	return func() bool {
		_, err := cs.CoreV1().Namespaces().Get(context.Background(), name, metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	}
}

// TestNamespaceDeletion deletes a namespace that holds 1,000 custom
// resources and 100 ConfigMaps: the namespace controller empties it
// through discovery and then finalizes it.
func TestNamespaceDeletion(t *testing.T) {
	ts, cs, dyn := kubeControllersServer(t)
	ctx := context.Background()
	createNamespace(t, cs, "doomed")
	createNamespace(t, cs, "kept")

	var crs, cms []*unstructured.Unstructured
	for i := range 1000 {
		crs = append(crs, crontab("doomed", fmt.Sprintf("ct-%04d", i)))
	}
	for i := range 100 {
		cms = append(cms, configMap("doomed", fmt.Sprintf("cm-%03d", i)))
	}
	createAll(t, dyn, crontabsGVR, append(crs, crontab("kept", "survivor")))
	createAll(t, dyn, configMapsGVR, append(cms, configMap("kept", "survivor")))
	require.Equal(t, 1000, count(t, dyn, crontabsGVR, "doomed"))

	start := time.Now()
	require.NoError(t, cs.CoreV1().Namespaces().Delete(ctx, "doomed", metav1.DeleteOptions{}))
	ns, err := cs.CoreV1().Namespaces().Get(ctx, "doomed", metav1.GetOptions{})
	if err == nil { // the controller may be that fast
		assert.Equal(t, corev1.NamespaceTerminating, ns.Status.Phase)
		assert.NotNil(t, ns.DeletionTimestamp)
	}
	within(t, 60*time.Second, "namespace doomed deleted", namespaceGone(cs, "doomed"))
	t.Logf("namespace with 1,000 custom resources and 100 ConfigMaps deleted in %v", time.Since(start))

	assert.Zero(t, count(t, dyn, crontabsGVR, "doomed"), "custom resources left")
	assert.Zero(t, count(t, dyn, configMapsGVR, "doomed"), "ConfigMaps left")
	assert.Equal(t, 1, count(t, dyn, crontabsGVR, "kept"), "another namespace's custom resource")
	assert.Equal(t, 1, count(t, dyn, configMapsGVR, "kept"), "another namespace's ConfigMap")
	_ = ts

	// The name is free again, and the new namespace is empty.
	createNamespace(t, cs, "doomed")
	assert.Zero(t, count(t, dyn, crontabsGVR, "doomed"))
}

// TestNamespaceDeletion_FinalizersRemain: an object held by a finalizer
// of its own keeps its namespace Terminating, with upstream's conditions,
// until the finalizer goes.
func TestNamespaceDeletion_FinalizersRemain(t *testing.T) {
	_, cs, dyn := kubeControllersServer(t)
	ctx := context.Background()
	createNamespace(t, cs, "held")
	held := crontab("held", "held")
	held.SetFinalizers([]string{"example.com/hold"})
	createAll(t, dyn, crontabsGVR, []*unstructured.Unstructured{held, crontab("held", "free")})

	require.NoError(t, cs.CoreV1().Namespaces().Delete(ctx, "held", metav1.DeleteOptions{}))
	var ns *corev1.Namespace
	within(t, 10*time.Second, "conditions say what remains", func() bool {
		var err error
		ns, err = cs.CoreV1().Namespaces().Get(ctx, "held", metav1.GetOptions{})
		require.NoError(t, err)
		return nsCondition(ns, "NamespaceFinalizersRemaining").Status == metav1.ConditionTrue
	})
	assert.Equal(t, corev1.NamespaceTerminating, ns.Status.Phase)
	c := nsCondition(ns, "NamespaceContentRemaining")
	assert.Equal(t, metav1.ConditionTrue, c.Status)
	assert.Equal(t, "SomeResourcesRemain", c.Reason)
	assert.Equal(t, "Some resources are remaining: crontabs.stable.example.com has 1 resource instances", c.Message)
	assert.Equal(t, "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances",
		nsCondition(ns, "NamespaceFinalizersRemaining").Message)
	assert.Equal(t, metav1.ConditionFalse, nsCondition(ns, "NamespaceDeletionDiscoveryFailure").Status)
	assert.Equal(t, 1, count(t, dyn, crontabsGVR, "held"), "only the held one is left")

	// The finalizer goes: the controller looks again (at the latest 8 s
	// after the last pass, half upstream's 15 s estimate) and lets the
	// namespace go.
	_, err := dyn.Resource(crontabsGVR).Namespace("held").Patch(ctx, "held", client.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
	require.NoError(t, err)
	within(t, 30*time.Second, "namespace held deleted", namespaceGone(cs, "held"))
}

func nsCondition(ns *corev1.Namespace, t string) corev1.NamespaceCondition {
	for _, c := range ns.Status.Conditions {
		if string(c.Type) == t {
			return c
		}
	}
	return corev1.NamespaceCondition{}
}

// TestGarbageCollector_Propagation deletes a CronTab that owns two
// ConfigMaps, one of which owns a third, with each propagation policy.
func TestGarbageCollector_Propagation(t *testing.T) {
	ts, cs, dyn := kubeControllersServer(t)
	ctx := context.Background()
	createNamespace(t, cs, "gc")
	collector := ts.Server.kubeControllers.collector.Load()
	require.NotNil(t, collector)

	yes := true
	ownerRef := func(o *unstructured.Unstructured) metav1.OwnerReference {
		return metav1.OwnerReference{APIVersion: o.GetAPIVersion(), Kind: o.GetKind(), Name: o.GetName(), UID: o.GetUID(),
			Controller: &yes, BlockOwnerDeletion: &yes}
	}
	create := func(gvr scheme.GroupVersionResource, o *unstructured.Unstructured) *unstructured.Unstructured {
		out, err := dyn.Resource(gvr).Namespace("gc").Create(ctx, o, metav1.CreateOptions{})
		require.NoError(t, err)
		return out
	}
	get := func(gvr scheme.GroupVersionResource, name string) (*unstructured.Unstructured, bool) {
		u, err := dyn.Resource(gvr).Namespace("gc").Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil, false
		}
		require.NoError(t, err)
		return u, true
	}
	// tree builds owner → cm-1 → cm-1-a and owner → cm-2, and waits
	// until the collector's graph holds all four.
	tree := func(prefix string) {
		owner := create(crontabsGVR, crontab("gc", prefix))
		cm1 := create(configMapsGVR, configMap("gc", prefix+"-cm-1", ownerRef(owner)))
		cm2 := create(configMapsGVR, configMap("gc", prefix+"-cm-2", ownerRef(owner)))
		cm1a := create(configMapsGVR, configMap("gc", prefix+"-cm-1-a", ownerRef(cm1)))
		within(t, 40*time.Second, "the graph holds the tree", func() bool {
			for _, o := range []*unstructured.Unstructured{owner, cm1, cm2, cm1a} {
				if !collector.GraphHasUID(o.GetUID()) {
					return false
				}
			}
			return true
		})
	}
	dependents := []string{"-cm-1", "-cm-2", "-cm-1-a"}
	deleteOwner := func(name string, p metav1.DeletionPropagation) {
		require.NoError(t, dyn.Resource(crontabsGVR).Namespace("gc").Delete(ctx, name, metav1.DeleteOptions{PropagationPolicy: &p}))
	}

	t.Run("Background", func(t *testing.T) {
		tree("bg")
		deleteOwner("bg", metav1.DeletePropagationBackground)
		_, exists := get(crontabsGVR, "bg")
		assert.False(t, exists, "the owner goes at once")
		within(t, 20*time.Second, "dependents collected", func() bool {
			for _, d := range dependents {
				if _, ok := get(configMapsGVR, "bg"+d); ok {
					return false
				}
			}
			return true
		})
	})

	t.Run("Foreground", func(t *testing.T) {
		tree("fg")
		deleteOwner("fg", metav1.DeletePropagationForeground)
		if owner, ok := get(crontabsGVR, "fg"); ok { // the collector may already be done
			assert.NotNil(t, owner.GetDeletionTimestamp())
			assert.Contains(t, owner.GetFinalizers(), metav1.FinalizerDeleteDependents)
		}
		// The owner stays until its blocking dependents, and theirs, are
		// gone: whenever it is seen, it is never seen without them first
		// going.
		within(t, 20*time.Second, "owner deleted", func() bool {
			_, ownerLeft := get(crontabsGVR, "fg")
			if !ownerLeft {
				return true
			}
			return false
		})
		for _, d := range dependents {
			_, ok := get(configMapsGVR, "fg"+d)
			assert.False(t, ok, "fg%s still there after its owner went", d)
		}
	})

	t.Run("ForegroundBlocks", func(t *testing.T) {
		// A blocking dependent that cannot go (a finalizer of its own)
		// keeps the owner in foreground deletion.
		owner := create(crontabsGVR, crontab("gc", "stuck"))
		held := configMap("gc", "stuck-cm", ownerRef(owner))
		held.SetFinalizers([]string{"example.com/hold"})
		held = create(configMapsGVR, held)
		within(t, 40*time.Second, "the graph holds both", func() bool {
			return collector.GraphHasUID(owner.GetUID()) && collector.GraphHasUID(held.GetUID())
		})
		deleteOwner("stuck", metav1.DeletePropagationForeground)
		within(t, 20*time.Second, "the dependent is being deleted", func() bool {
			cm, ok := get(configMapsGVR, "stuck-cm")
			return ok && cm.GetDeletionTimestamp() != nil
		})
		o, ok := get(crontabsGVR, "stuck")
		require.True(t, ok, "the owner waits for its blocking dependent")
		assert.Equal(t, []string{metav1.FinalizerDeleteDependents}, o.GetFinalizers())

		_, err := dyn.Resource(configMapsGVR).Namespace("gc").Patch(ctx, "stuck-cm", client.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
		require.NoError(t, err)
		within(t, 20*time.Second, "owner deleted once its dependent is", func() bool {
			_, ok := get(crontabsGVR, "stuck")
			return !ok
		})
	})

	t.Run("Orphan", func(t *testing.T) {
		tree("or")
		deleteOwner("or", metav1.DeletePropagationOrphan)
		within(t, 20*time.Second, "owner deleted", func() bool {
			_, ok := get(crontabsGVR, "or")
			return !ok
		})
		for _, d := range []string{"-cm-1", "-cm-2"} {
			cm, ok := get(configMapsGVR, "or"+d)
			require.True(t, ok, "or%s orphaned, not deleted", d)
			assert.Empty(t, cm.GetOwnerReferences(), "or%s keeps no reference to the deleted owner", d)
		}
		cm1a, ok := get(configMapsGVR, "or-cm-1-a")
		require.True(t, ok)
		refs := cm1a.GetOwnerReferences()
		require.Len(t, refs, 1, "cm-1-a keeps its owner, which was not deleted")
		assert.Equal(t, "or-cm-1", refs[0].Name)
	})

	t.Run("DanglingOwner", func(t *testing.T) {
		// An owner that never existed: the collector asks the server, and
		// the dependent is garbage.
		orphan := create(configMapsGVR, configMap("gc", "dangling", metav1.OwnerReference{
			APIVersion: group + "/v1", Kind: "CronTab", Name: "never", UID: "00000000-0000-0000-0000-000000000000"}))
		_ = orphan
		within(t, 20*time.Second, "dependent of a missing owner collected", func() bool {
			_, ok := get(configMapsGVR, "dangling")
			return !ok
		})
	})

	t.Run("SolidOwnerKeeps", func(t *testing.T) {
		owner := create(crontabsGVR, crontab("gc", "alive"))
		cm := create(configMapsGVR, configMap("gc", "alive-cm", ownerRef(owner), metav1.OwnerReference{
			APIVersion: group + "/v1", Kind: "CronTab", Name: "gone", UID: "11111111-1111-1111-1111-111111111111"}))
		// One owner is there, the other never was: the dependent stays and
		// loses only its dangling reference.
		within(t, 20*time.Second, "dangling reference removed", func() bool {
			u, ok := get(configMapsGVR, "alive-cm")
			require.True(t, ok, "a dependent with a live owner is kept")
			return len(u.GetOwnerReferences()) == 1
		})
		u, _ := get(configMapsGVR, "alive-cm")
		assert.True(t, slices.ContainsFunc(u.GetOwnerReferences(), func(r metav1.OwnerReference) bool { return r.UID == owner.GetUID() }))
		_ = cm
	})
}

// TestGarbageCollector_ForegroundCRDDelete: a CRD deleted in foreground
// (as client-go users do) carries both the collector's finalizer and the
// CRD finalizer's, and goes once both have done their part.
func TestGarbageCollector_ForegroundCRDDelete(t *testing.T) {
	_, cs, dyn := kubeControllersServer(t)
	ctx := context.Background()
	createNamespace(t, cs, "ns")
	createAll(t, dyn, crontabsGVR, []*unstructured.Unstructured{crontab("ns", "a")})
	crds := cs.ApiextensionsV1().CustomResourceDefinitions()
	p := metav1.DeletePropagationForeground
	require.NoError(t, crds.Delete(ctx, "crontabs."+group, metav1.DeleteOptions{PropagationPolicy: &p}))
	within(t, 30*time.Second, "CRD deleted", func() bool {
		_, err := crds.Get(ctx, "crontabs."+group, metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	})
}
