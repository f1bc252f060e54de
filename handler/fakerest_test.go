package handler_test

import (
	"context"
	"strconv"
	"sync"

	"github.com/crdlab/crdlab/apis/apiextensions"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
)

// memCRDREST is an in-memory stand-in for the CRD REST storage (internal
// objects), enough to test the HTTP layer on its own. status=true makes it
// the /status storage: updates then change only the status.
type memCRDREST struct {
	status bool
	db     *memDB
}

type memDB struct {
	mu       sync.Mutex
	rv       int
	objs     map[string]*apiextensions.CustomResourceDefinition
	watchers []*watch.FakeWatcher
	// panicOnGet makes Get panic (to test recovery).
	panicOnGet bool
	// block, if set, makes List wait for the context (to test timeouts).
	block bool
}

var (
	_ registry.Getter            = (*memCRDREST)(nil)
	_ registry.Lister            = (*memCRDREST)(nil)
	_ registry.Watcher           = (*memCRDREST)(nil)
	_ registry.Creater           = (*memCRDREST)(nil)
	_ registry.Updater           = (*memCRDREST)(nil)
	_ registry.GracefulDeleter   = (*memCRDREST)(nil)
	_ registry.CollectionDeleter = (*memCRDREST)(nil)
)

func newMemCRDREST() (*memCRDREST, *memCRDREST) {
	db := &memDB{objs: map[string]*apiextensions.CustomResourceDefinition{}}
	return &memCRDREST{db: db}, &memCRDREST{db: db, status: true}
}

var crdGR = scheme.GroupResource{Group: "apiextensions.k8s.io", Resource: "customresourcedefinitions"}

func (m *memCRDREST) New() scheme.Object { return &apiextensions.CustomResourceDefinition{} }
func (m *memCRDREST) Destroy()           {}
func (m *memCRDREST) NewList() scheme.Object {
	return &apiextensions.CustomResourceDefinitionList{}
}

func (m *memCRDREST) Get(ctx context.Context, name string, _ *metav1.GetOptions) (scheme.Object, error) {
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	if m.db.panicOnGet {
		panic("boom")
	}
	o, ok := m.db.objs[name]
	if !ok {
		return nil, apierrors.NewNotFound(crdGR, name)
	}
	return o.DeepCopyObject(), nil
}

func (m *memCRDREST) List(ctx context.Context, opts *metav1.ListOptions) (scheme.Object, error) {
	if m.db.block {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	l := &apiextensions.CustomResourceDefinitionList{}
	l.ResourceVersion = strconv.Itoa(m.db.rv)
	for _, name := range sortedKeys(m.db.objs) {
		l.Items = append(l.Items, *m.db.objs[name].DeepCopy())
	}
	return l, nil
}

func sortedKeys(m map[string]*apiextensions.CustomResourceDefinition) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

func (m *memCRDREST) Watch(ctx context.Context, opts *metav1.ListOptions) (watch.Interface, error) {
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	if opts.ResourceVersion == "1" {
		w := watch.NewFake()
		w.Error(&metav1.Status{Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired, Message: "too old resource version: 1 (5)"})
		return w, nil
	}
	w := watch.NewFake()
	m.db.watchers = append(m.db.watchers, w)
	return w, nil
}

// watchers counts the watches ever opened.
func (m *memCRDREST) watchers() int {
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	return len(m.db.watchers)
}

func (m *memCRDREST) notify(t watch.EventType, o *apiextensions.CustomResourceDefinition) {
	for _, w := range m.db.watchers {
		if !w.IsStopped() {
			w.Action(t, o.DeepCopyObject())
		}
	}
}

func (m *memCRDREST) Create(ctx context.Context, obj scheme.Object, _ registry.ValidateObjectFunc, opts *metav1.CreateOptions) (scheme.Object, error) {
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	o := obj.(*apiextensions.CustomResourceDefinition).DeepCopy()
	if _, ok := m.db.objs[o.Name]; ok {
		return nil, apierrors.NewAlreadyExists(crdGR, o.Name)
	}
	m.db.rv++
	o.ResourceVersion = strconv.Itoa(m.db.rv)
	o.UID = metav1.UID("uid-" + o.Name)
	o.CreationTimestamp = metav1.Now()
	if len(opts.DryRun) == 0 {
		m.db.objs[o.Name] = o
		m.notify(watch.Added, o)
	}
	return o.DeepCopyObject(), nil
}

func (m *memCRDREST) Update(ctx context.Context, name string, objInfo registry.UpdatedObjectInfo, _ registry.ValidateObjectFunc,
	_ registry.ValidateObjectUpdateFunc, forceAllowCreate bool, opts *metav1.UpdateOptions) (scheme.Object, bool, error) {
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	old, ok := m.db.objs[name]
	if !ok {
		return nil, false, apierrors.NewNotFound(crdGR, name)
	}
	newObj, err := objInfo.UpdatedObject(ctx, old.DeepCopyObject())
	if err != nil {
		return nil, false, err
	}
	n := newObj.(*apiextensions.CustomResourceDefinition).DeepCopy()
	if n.ResourceVersion != "" && n.ResourceVersion != old.ResourceVersion {
		return nil, false, apierrors.NewConflict(crdGR, name, errString(apierrors.OptimisticLockErrorMsg))
	}
	if m.status {
		o := old.DeepCopy()
		o.Status = n.Status
		n = o
	} else {
		n.Status = old.Status
	}
	m.db.rv++
	n.ResourceVersion = strconv.Itoa(m.db.rv)
	n.UID, n.CreationTimestamp = old.UID, old.CreationTimestamp
	m.db.objs[name] = n
	m.notify(watch.Modified, n)
	return n.DeepCopyObject(), false, nil
}

type errString string

func (e errString) Error() string { return string(e) }

func (m *memCRDREST) Delete(ctx context.Context, name string, _ registry.ValidateObjectFunc, opts *metav1.DeleteOptions) (scheme.Object, bool, error) {
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	o, ok := m.db.objs[name]
	if !ok {
		return nil, false, apierrors.NewNotFound(crdGR, name)
	}
	if p := opts.Preconditions; p != nil && p.ResourceVersion != nil && *p.ResourceVersion != o.ResourceVersion {
		return nil, false, apierrors.NewConflict(crdGR, name, errString("Precondition failed"))
	}
	if len(o.Finalizers) > 0 {
		now := metav1.Now()
		o.DeletionTimestamp = &now
		m.db.rv++
		o.ResourceVersion = strconv.Itoa(m.db.rv)
		return o.DeepCopyObject(), false, nil
	}
	delete(m.db.objs, name)
	m.notify(watch.Deleted, o)
	return o.DeepCopyObject(), true, nil
}

func (m *memCRDREST) DeleteCollection(ctx context.Context, _ registry.ValidateObjectFunc, opts *metav1.DeleteOptions, listOpts *metav1.ListOptions) (scheme.Object, error) {
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	l := &apiextensions.CustomResourceDefinitionList{}
	for _, name := range sortedKeys(m.db.objs) {
		l.Items = append(l.Items, *m.db.objs[name])
		delete(m.db.objs, name)
	}
	return l, nil
}

// ShortNames and Categories are those of the real CRD storage.
func (r *memCRDREST) ShortNames() []string { return []string{"crd", "crds"} }
func (r *memCRDREST) Categories() []string { return []string{"api-extensions"} }
