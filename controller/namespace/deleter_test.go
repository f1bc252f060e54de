package namespace

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client/discovery"
	"github.com/crdlab/crdlab/client/metadata"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/machinery/clock"
	"github.com/crdlab/crdlab/scheme"
)

// These tests run the deleter against in-memory stand-ins of the two
// clients; apiserver's TestNamespaceDeletion runs it against a real server.

var (
	configMaps = scheme.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	crontabs   = scheme.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}
)

// discoverBoth is a discovery with ConfigMaps (deletecollection) and
// CronTabs (no deletecollection: list and delete each).
func discoverBoth(context.Context) ([]*metav1.APIResourceList, error) {
	return []*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{
			{Name: "configmaps", Namespaced: true, Verbs: []string{"create", "delete", "deletecollection", "get", "list"}},
		}},
		{GroupVersion: "stable.example.com/v1", APIResources: []metav1.APIResource{
			{Name: "crontabs", Namespaced: true, Verbs: []string{"delete", "get", "list"}},
		}},
	}, nil
}

// fakeNamespaces holds namespaces by name and counts the writes.
type fakeNamespaces struct {
	mu        sync.Mutex
	items     map[string]*corev1.Namespace
	rv        int
	finalizes int
	// conflictFinalize makes the next n Finalize calls fail with a Conflict.
	conflictFinalize int
}

func newFakeNamespaces(nss ...*corev1.Namespace) *fakeNamespaces {
	f := &fakeNamespaces{items: map[string]*corev1.Namespace{}}
	for _, ns := range nss {
		f.rv++
		ns.ResourceVersion = strings.Repeat("1", f.rv)
		f.items[ns.Name] = ns
	}
	return f
}

func (f *fakeNamespaces) Get(_ context.Context, name string, _ metav1.GetOptions) (*corev1.Namespace, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ns, ok := f.items[name]
	if !ok {
		return nil, apierrors.NewNotFound(scheme.GroupResource{Resource: "namespaces"}, name)
	}
	return ns.DeepCopyObject().(*corev1.Namespace), nil
}

func (f *fakeNamespaces) write(ns *corev1.Namespace, change func(stored *corev1.Namespace)) (*corev1.Namespace, error) {
	stored, ok := f.items[ns.Name]
	if !ok {
		return nil, apierrors.NewNotFound(scheme.GroupResource{Resource: "namespaces"}, ns.Name)
	}
	if ns.ResourceVersion != stored.ResourceVersion {
		return nil, apierrors.NewConflict(scheme.GroupResource{Resource: "namespaces"}, ns.Name, errors.New("stale"))
	}
	change(stored)
	f.rv++
	stored.ResourceVersion = strings.Repeat("1", f.rv)
	if stored.DeletionTimestamp != nil && len(stored.Spec.Finalizers) == 0 {
		delete(f.items, ns.Name) // as the namespace storage does
	}
	return stored.DeepCopyObject().(*corev1.Namespace), nil
}

func (f *fakeNamespaces) UpdateStatus(_ context.Context, ns *corev1.Namespace, _ metav1.UpdateOptions) (*corev1.Namespace, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.write(ns, func(stored *corev1.Namespace) { stored.Status = ns.Status })
}

func (f *fakeNamespaces) Finalize(_ context.Context, ns *corev1.Namespace, _ metav1.UpdateOptions) (*corev1.Namespace, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.conflictFinalize > 0 {
		f.conflictFinalize--
		f.rv++
		f.items[ns.Name].ResourceVersion = strings.Repeat("1", f.rv) // someone else wrote it
		return nil, apierrors.NewConflict(scheme.GroupResource{Resource: "namespaces"}, ns.Name, errors.New("stale"))
	}
	out, err := f.write(ns, func(stored *corev1.Namespace) { stored.Spec.Finalizers = ns.Spec.Finalizers })
	if err == nil {
		f.finalizes++
	}
	return out, err
}

// fakeMetadata holds objects by resource; a delete removes an object
// without finalizers and marks one with finalizers, as the registry does.
type fakeMetadata struct {
	mu      sync.Mutex
	objects map[scheme.GroupVersionResource][]*unstructured.Unstructured
	calls   []string
}

func (f *fakeMetadata) Resource(gvr scheme.GroupVersionResource) metadata.Getter {
	return &fakeResource{f: f, gvr: gvr}
}

func (f *fakeMetadata) add(gvr scheme.GroupVersionResource, ns, name string, finalizers ...string) {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetFinalizers(finalizers)
	f.objects[gvr] = append(f.objects[gvr], u)
}

func (f *fakeMetadata) count(gvr scheme.GroupVersionResource, ns string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, u := range f.objects[gvr] {
		if u.GetNamespace() == ns {
			n++
		}
	}
	return n
}

// fakeResource implements the calls the deleter makes; the rest of
// metadata.ResourceInterface is left nil and panics if called.
type fakeResource struct {
	metadata.ResourceInterface
	f   *fakeMetadata
	gvr scheme.GroupVersionResource
	ns  string
}

func (r *fakeResource) Namespace(ns string) metadata.ResourceInterface {
	return &fakeResource{f: r.f, gvr: r.gvr, ns: ns}
}

func (r *fakeResource) deleteWhere(match func(*unstructured.Unstructured) bool) {
	var kept []*unstructured.Unstructured
	now := metav1.Now()
	for _, u := range r.f.objects[r.gvr] {
		switch {
		case !match(u):
			kept = append(kept, u)
		case len(u.GetFinalizers()) > 0:
			u.SetDeletionTimestamp(&now)
			kept = append(kept, u)
		}
	}
	r.f.objects[r.gvr] = kept
}

func (r *fakeResource) DeleteCollection(_ context.Context, opts metav1.DeleteOptions, _ metav1.ListOptions) error {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	r.f.calls = append(r.f.calls, "deletecollection "+r.gvr.Resource+" "+string(*opts.PropagationPolicy))
	r.deleteWhere(func(u *unstructured.Unstructured) bool { return u.GetNamespace() == r.ns })
	return nil
}

func (r *fakeResource) Delete(_ context.Context, name string, opts metav1.DeleteOptions, _ ...string) error {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	r.f.calls = append(r.f.calls, "delete "+r.gvr.Resource+" "+name+" "+string(*opts.PropagationPolicy))
	r.deleteWhere(func(u *unstructured.Unstructured) bool { return u.GetNamespace() == r.ns && u.GetName() == name })
	return nil
}

func (r *fakeResource) List(context.Context, metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	list := &metav1.PartialObjectMetadataList{}
	for _, u := range r.f.objects[r.gvr] {
		if u.GetNamespace() == r.ns {
			list.Items = append(list.Items, metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
				Namespace: u.GetNamespace(), Name: u.GetName(), Finalizers: u.GetFinalizers(), DeletionTimestamp: u.GetDeletionTimestamp(),
			}})
		}
	}
	return list, nil
}

func deletedNamespace(name string) *corev1.Namespace {
	now := metav1.Now()
	return &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: "uid-" + metav1.UID(name), DeletionTimestamp: &now},
		Spec:       corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{corev1.FinalizerKubernetes}},
		Status:     corev1.NamespaceStatus{Phase: corev1.NamespaceActive},
	}
}

func newDeleter(nss *fakeNamespaces, dyn metadata.Interface, discover DiscoverResourcesFunc) *NamespacedResourcesDeleter {
	opts := controller.Options{Clock: clock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}.WithDefaults("namespace")
	return NewNamespacedResourcesDeleter(nss, dyn, discover, corev1.FinalizerKubernetes, opts)
}

func conditionOf(ns *corev1.Namespace, t corev1.NamespaceConditionType) corev1.NamespaceCondition {
	if c := getCondition(ns.Status.Conditions, t); c != nil {
		return *c
	}
	return corev1.NamespaceCondition{}
}

func TestNamespacedResourcesDeleter_Delete(t *testing.T) {
	ctx := context.Background()

	t.Run("EmptiesAndFinalizes", func(t *testing.T) {
		nss := newFakeNamespaces(deletedNamespace("x"), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "other"}})
		dyn := &fakeMetadata{objects: map[scheme.GroupVersionResource][]*unstructured.Unstructured{}}
		dyn.add(configMaps, "x", "a")
		dyn.add(configMaps, "x", "b")
		dyn.add(configMaps, "other", "keep")
		dyn.add(crontabs, "x", "c")
		d := newDeleter(nss, dyn, discoverBoth)

		require.NoError(t, d.Delete(ctx, "x"))
		assert.Equal(t, 0, dyn.count(configMaps, "x"))
		assert.Equal(t, 0, dyn.count(crontabs, "x"))
		assert.Equal(t, 1, dyn.count(configMaps, "other"), "another namespace's objects stay")
		assert.Equal(t, []string{"deletecollection configmaps Background", "delete crontabs c Background"}, dyn.calls)
		// The finalize removed the last finalizer: the namespace is gone.
		_, err := nss.Get(ctx, "x", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "namespace deleted by its last finalize, got %v", err)
		assert.Equal(t, 1, nss.finalizes)
	})

	t.Run("NotDeleting", func(t *testing.T) {
		nss := newFakeNamespaces(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "x"},
			Spec: corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{corev1.FinalizerKubernetes}}})
		dyn := &fakeMetadata{objects: map[scheme.GroupVersionResource][]*unstructured.Unstructured{}}
		dyn.add(configMaps, "x", "a")
		require.NoError(t, newDeleter(nss, dyn, discoverBoth).Delete(ctx, "x"))
		assert.Equal(t, 1, dyn.count(configMaps, "x"))
		assert.Empty(t, dyn.calls)
	})

	t.Run("Gone", func(t *testing.T) {
		dyn := &fakeMetadata{objects: map[scheme.GroupVersionResource][]*unstructured.Unstructured{}}
		assert.NoError(t, newDeleter(newFakeNamespaces(), dyn, discoverBoth).Delete(ctx, "x"))
	})

	t.Run("FinalizersRemain", func(t *testing.T) {
		nss := newFakeNamespaces(deletedNamespace("x"))
		dyn := &fakeMetadata{objects: map[scheme.GroupVersionResource][]*unstructured.Unstructured{}}
		dyn.add(configMaps, "x", "held", "example.com/hold")
		dyn.add(configMaps, "x", "free")
		d := newDeleter(nss, dyn, discoverBoth)

		err := d.Delete(ctx, "x")
		var remaining *ResourcesRemainingError
		require.ErrorAs(t, err, &remaining)
		assert.Equal(t, finalizerEstimateSeconds, remaining.Estimate)
		assert.Equal(t, 1, dyn.count(configMaps, "x"))
		assert.Zero(t, nss.finalizes, "not finalized while content remains")

		ns, err := nss.Get(ctx, "x", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, corev1.NamespaceTerminating, ns.Status.Phase)
		c := conditionOf(ns, nsContentRemaining)
		assert.Equal(t, metav1.ConditionTrue, c.Status)
		assert.Equal(t, "SomeResourcesRemain", c.Reason)
		assert.Equal(t, "Some resources are remaining: configmaps. has 1 resource instances", c.Message)
		c = conditionOf(ns, nsFinalizersRemaining)
		assert.Equal(t, metav1.ConditionTrue, c.Status)
		assert.Equal(t, "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances", c.Message)
		c = conditionOf(ns, nsDeletionContentFailure)
		assert.Equal(t, metav1.ConditionFalse, c.Status)
		assert.Equal(t, "ContentDeleted", c.Reason)

		// The finalizer goes: the next pass empties and finalizes.
		dyn.mu.Lock()
		dyn.objects[configMaps][0].SetFinalizers(nil)
		dyn.objects[configMaps] = nil
		dyn.mu.Unlock()
		require.NoError(t, d.Delete(ctx, "x"))
		assert.Equal(t, 1, nss.finalizes)
	})

	t.Run("DiscoveryFailsForSomeGroups", func(t *testing.T) {
		nss := newFakeNamespaces(deletedNamespace("x"))
		dyn := &fakeMetadata{objects: map[scheme.GroupVersionResource][]*unstructured.Unstructured{}}
		dyn.add(configMaps, "x", "a")
		partial := func(ctx context.Context) ([]*metav1.APIResourceList, error) {
			all, _ := discoverBoth(ctx)
			return all[:1], &discovery.ErrGroupDiscoveryFailed{Groups: map[scheme.GroupVersion]error{
				{Group: "stable.example.com", Version: "v1"}: errors.New("boom")}}
		}
		err := newDeleter(nss, dyn, partial).Delete(ctx, "x")
		require.Error(t, err)
		assert.Equal(t, 0, dyn.count(configMaps, "x"), "what was discovered is deleted")
		assert.Zero(t, nss.finalizes, "not finalized: a group may still hold objects")
		ns, _ := nss.Get(ctx, "x", metav1.GetOptions{})
		c := conditionOf(ns, nsDeletionDiscoveryFailure)
		assert.Equal(t, metav1.ConditionTrue, c.Status)
		assert.Equal(t, "DiscoveryFailed", c.Reason)
		assert.Contains(t, c.Message, "Discovery failed for some groups, 1 failing")
	})

	t.Run("UnexpectedRemains", func(t *testing.T) {
		// A resource whose deletes do nothing: objects without finalizers
		// remain, which is an error (retried with backoff).
		nss := newFakeNamespaces(deletedNamespace("x"))
		dyn := &fakeMetadata{objects: map[scheme.GroupVersionResource][]*unstructured.Unstructured{}}
		dyn.add(crontabs, "x", "c")
		noDelete := func(context.Context) ([]*metav1.APIResourceList, error) {
			return []*metav1.APIResourceList{{GroupVersion: "stable.example.com/v1", APIResources: []metav1.APIResource{
				{Name: "crontabs", Namespaced: true, Verbs: []string{"delete"}}}}}, nil // no list: nothing to delete each
		}
		require.NoError(t, newDeleter(nss, dyn, noDelete).Delete(ctx, "x"), "a resource that cannot be listed cannot be checked")

		nss = newFakeNamespaces(deletedNamespace("y"))
		dyn.add(crontabs, "y", "c")
		sticky := &stickyMetadata{fakeMetadata: dyn}
		err := newDeleter(nss, sticky, discoverBoth).Delete(ctx, "y")
		require.Error(t, err)
		var remaining *ResourcesRemainingError
		assert.False(t, errors.As(err, &remaining))
		assert.Contains(t, err.Error(), "unexpected items still remain in namespace: y")
		ns, _ := nss.Get(ctx, "y", metav1.GetOptions{})
		assert.Equal(t, metav1.ConditionTrue, conditionOf(ns, nsDeletionContentFailure).Status)
		assert.Equal(t, "ContentDeletionFailed", conditionOf(ns, nsDeletionContentFailure).Reason)
	})

	t.Run("FinalizeRetriesOnConflict", func(t *testing.T) {
		nss := newFakeNamespaces(deletedNamespace("x"))
		nss.conflictFinalize = 2
		dyn := &fakeMetadata{objects: map[scheme.GroupVersionResource][]*unstructured.Unstructured{}}
		require.NoError(t, newDeleter(nss, dyn, discoverBoth).Delete(ctx, "x"))
		assert.Equal(t, 1, nss.finalizes)
		_, err := nss.Get(ctx, "x", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err))
	})

	t.Run("KeepsOtherFinalizers", func(t *testing.T) {
		ns := deletedNamespace("x")
		ns.Spec.Finalizers = append(ns.Spec.Finalizers, "example.com/mine")
		nss := newFakeNamespaces(ns)
		dyn := &fakeMetadata{objects: map[scheme.GroupVersionResource][]*unstructured.Unstructured{}}
		require.NoError(t, newDeleter(nss, dyn, discoverBoth).Delete(ctx, "x"))
		got, err := nss.Get(ctx, "x", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, []corev1.FinalizerName{"example.com/mine"}, got.Spec.Finalizers)
		for _, ct := range conditionTypes {
			assert.Equal(t, metav1.ConditionFalse, conditionOf(got, ct).Status, "%s", ct)
		}
		assert.Equal(t, "ContentRemoved", conditionOf(got, nsContentRemaining).Reason)
	})
}

// stickyMetadata is a fakeMetadata whose deletes delete nothing.
type stickyMetadata struct{ *fakeMetadata }

func (s *stickyMetadata) Resource(gvr scheme.GroupVersionResource) metadata.Getter {
	return &stickyResource{fakeResource: fakeResource{f: s.fakeMetadata, gvr: gvr}}
}

type stickyResource struct{ fakeResource }

func (r *stickyResource) Namespace(ns string) metadata.ResourceInterface {
	return &stickyResource{fakeResource: fakeResource{f: r.f, gvr: r.gvr, ns: ns}}
}
func (r *stickyResource) Delete(context.Context, string, metav1.DeleteOptions, ...string) error {
	return nil
}
func (r *stickyResource) DeleteCollection(context.Context, metav1.DeleteOptions, metav1.ListOptions) error {
	return nil
}

func TestNamespaceConditionUpdater_Update(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := t0
	ns := &corev1.Namespace{}

	u := &namespaceConditionUpdater{now: func() time.Time { return now }}
	u.ProcessDeleteContentErr(errors.New("b failed"))
	u.ProcessDeleteContentErr(errors.New("a failed"))
	require.True(t, u.Update(ns))
	require.Len(t, ns.Status.Conditions, len(conditionTypes))
	c := conditionOf(ns, nsDeletionContentFailure)
	assert.Equal(t, "Failed to delete all resource types, 2 remaining: a failed, b failed", c.Message)
	assert.Equal(t, t0, c.LastTransitionTime.Time)

	// The same again: nothing changes.
	now = t0.Add(time.Minute)
	u = &namespaceConditionUpdater{now: func() time.Time { return now }}
	u.ProcessDeleteContentErr(errors.New("a failed"))
	u.ProcessDeleteContentErr(errors.New("b failed"))
	assert.False(t, u.Update(ns))

	// It works now: False, with a new transition time.
	u = &namespaceConditionUpdater{now: func() time.Time { return now }}
	assert.True(t, u.Update(ns))
	c = conditionOf(ns, nsDeletionContentFailure)
	assert.Equal(t, metav1.ConditionFalse, c.Status)
	assert.Equal(t, now, c.LastTransitionTime.Time)
	assert.Len(t, ns.Status.Conditions, len(conditionTypes))
}
