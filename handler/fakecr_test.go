package handler_test

import (
	"context"
	"sort"
	"strconv"
	"sync"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
)

// memCR is an in-memory custom resource storage keyed by namespace/name,
// standing in for registry/customresource in tests of the HTTP layer.
type memCR struct {
	gr     scheme.GroupResource
	status bool
	db     *memCRDB
	// validate is the handler's schema check, which the real storage's
	// strategy runs on create and update.
	validate handler.CustomResourceValidator
}

type memCRDB struct {
	mu       sync.Mutex
	rv       int
	objs     map[string]*unstructured.Unstructured
	watchers []*watch.FakeWatcher
	destroys int
}

func newMemCRStorage(crd *apiextensionsv1.CustomResourceDefinition, validate handler.CustomResourceValidator) (*handler.CustomResourceStorage, *memCRDB) {
	db := &memCRDB{objs: map[string]*unstructured.Unstructured{}}
	gr := scheme.GroupResource{Group: crd.Spec.Group, Resource: crd.Spec.Names.Plural}
	return &handler.CustomResourceStorage{Main: &memCR{gr: gr, db: db, validate: validate}, Status: &memCR{gr: gr, db: db, status: true, validate: validate}}, db
}

// invalid runs the schema check, as the real strategy's ValidateCauses.
func (m *memCR) invalid(ctx context.Context, obj, old *unstructured.Unstructured) error {
	if m.validate == nil {
		return nil
	}
	if causes := m.validate(ctx, obj, old); len(causes) > 0 {
		return apierrors.NewInvalid(scheme.GroupKind{Group: m.gr.Group, Kind: obj.GetKind()}, obj.GetName(), causes)
	}
	return nil
}

func (m *memCR) New() scheme.Object     { return &unstructured.Unstructured{} }
func (m *memCR) NewList() scheme.Object { return &unstructured.UnstructuredList{} }
func (m *memCR) Destroy() {
	m.db.mu.Lock()
	m.db.destroys++
	m.db.mu.Unlock()
}

func key(ctx context.Context, name string) string { return registry.NamespaceFrom(ctx) + "/" + name }

func (m *memCR) Get(ctx context.Context, name string, _ *metav1.GetOptions) (scheme.Object, error) {
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	o, ok := m.db.objs[key(ctx, name)]
	if !ok {
		return nil, apierrors.NewNotFound(m.gr, name)
	}
	return o.DeepCopy(), nil
}

func (m *memCR) List(ctx context.Context, opts *metav1.ListOptions) (scheme.Object, error) {
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	ns := registry.NamespaceFrom(ctx)
	l := &unstructured.UnstructuredList{Object: map[string]any{}}
	l.SetResourceVersion(strconv.Itoa(m.db.rv))
	var keys []string
	for k := range m.db.objs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		o := m.db.objs[k]
		if ns != "" && o.GetNamespace() != ns {
			continue
		}
		if opts.LabelSelector == "x=y" && o.GetLabels()["x"] != "y" {
			continue
		}
		l.Items = append(l.Items, *o.DeepCopy())
	}
	return l, nil
}

func (m *memCR) Watch(ctx context.Context, opts *metav1.ListOptions) (watch.Interface, error) {
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	w := watch.NewFake()
	if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		for _, o := range m.db.objs {
			w.Add(o.DeepCopy())
		}
		b := &unstructured.Unstructured{Object: map[string]any{}}
		b.SetResourceVersion(strconv.Itoa(m.db.rv))
		b.SetAnnotations(map[string]string{metav1.InitialEventsAnnotationKey: "true"})
		w.Action(watch.Bookmark, b)
	}
	m.db.watchers = append(m.db.watchers, w)
	return w, nil
}

func (m *memCR) notify(t watch.EventType, o *unstructured.Unstructured) {
	for _, w := range m.db.watchers {
		if !w.IsStopped() {
			w.Action(t, o.DeepCopy())
		}
	}
}

func (m *memCR) Create(ctx context.Context, obj scheme.Object, _ registry.ValidateObjectFunc, opts *metav1.CreateOptions) (scheme.Object, error) {
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	o := obj.(*unstructured.Unstructured).DeepCopy()
	k := key(ctx, o.GetName())
	if _, ok := m.db.objs[k]; ok {
		return nil, apierrors.NewAlreadyExists(m.gr, o.GetName())
	}
	if err := m.invalid(ctx, o, nil); err != nil {
		return nil, err
	}
	m.db.rv++
	o.SetResourceVersion(strconv.Itoa(m.db.rv))
	o.SetUID(metav1.UID("uid-" + o.GetName()))
	o.SetCreationTimestamp(metav1.Now())
	m.db.objs[k] = o
	m.notify(watch.Added, o)
	return o.DeepCopy(), nil
}

func (m *memCR) Update(ctx context.Context, name string, objInfo registry.UpdatedObjectInfo, _ registry.ValidateObjectFunc,
	_ registry.ValidateObjectUpdateFunc, _ bool, _ *metav1.UpdateOptions) (scheme.Object, bool, error) {
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	k := key(ctx, name)
	old, ok := m.db.objs[k]
	if !ok {
		return nil, false, apierrors.NewNotFound(m.gr, name)
	}
	n, err := objInfo.UpdatedObject(ctx, old.DeepCopy())
	if err != nil {
		return nil, false, err
	}
	u := n.(*unstructured.Unstructured).DeepCopy()
	if m.status {
		o := old.DeepCopy()
		o.Object["status"] = u.Object["status"]
		u = o
	} else if s, ok := old.Object["status"]; ok {
		u.Object["status"] = s
	}
	if err := m.invalid(ctx, u, old); err != nil {
		return nil, false, err
	}
	m.db.rv++
	u.SetResourceVersion(strconv.Itoa(m.db.rv))
	u.SetUID(old.GetUID())
	u.SetCreationTimestamp(old.GetCreationTimestamp())
	m.db.objs[k] = u
	m.notify(watch.Modified, u)
	return u.DeepCopy(), false, nil
}

func (m *memCR) Delete(ctx context.Context, name string, _ registry.ValidateObjectFunc, _ *metav1.DeleteOptions) (scheme.Object, bool, error) {
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	k := key(ctx, name)
	o, ok := m.db.objs[k]
	if !ok {
		return nil, false, apierrors.NewNotFound(m.gr, name)
	}
	delete(m.db.objs, k)
	m.notify(watch.Deleted, o)
	return o.DeepCopy(), true, nil
}

// testSchema knows spec.cronSpec (string, default "* * * * *"),
// spec.replicas (integer, >= 0) and status; anything else under spec is
// unknown.
type testSchema struct{}

func (testSchema) Prune(obj map[string]any) []string {
	var out []string
	for k := range obj {
		switch k {
		case "apiVersion", "kind", "metadata", "spec", "status":
		default:
			delete(obj, k)
			out = append(out, k)
		}
	}
	if spec, ok := obj["spec"].(map[string]any); ok {
		for k := range spec {
			if k != "cronSpec" && k != "replicas" {
				delete(spec, k)
				out = append(out, "spec."+k)
			}
		}
	}
	sort.Strings(out)
	return out
}

func (testSchema) Default(obj map[string]any) {
	if spec, ok := obj["spec"].(map[string]any); ok {
		if _, ok := spec["cronSpec"]; !ok {
			spec["cronSpec"] = "* * * * *"
		}
	}
}

func (testSchema) Validate(_ context.Context, obj, _ map[string]any) []metav1.StatusCause {
	var out []metav1.StatusCause
	spec, _ := obj["spec"].(map[string]any)
	if r, ok := spec["replicas"]; ok {
		switch n := r.(type) {
		case int64:
			if n < 0 {
				out = append(out, metav1.StatusCause{Type: metav1.CauseTypeFieldValueInvalid, Field: "spec.replicas", Message: "Invalid value: " + strconv.FormatInt(n, 10) + ": spec.replicas in body should be greater than or equal to 0"})
			}
		default:
			out = append(out, metav1.StatusCause{Type: metav1.CauseTypeFieldValueTypeInvalid, Field: "spec.replicas", Message: "Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\""})
		}
	}
	if c, ok := spec["cronSpec"]; ok {
		if _, isString := c.(string); !isString {
			out = append(out, metav1.StatusCause{Type: metav1.CauseTypeFieldValueTypeInvalid, Field: "spec.cronSpec", Message: "Invalid value: \"integer\": spec.cronSpec in body must be of type string: \"integer\""})
		}
	}
	return out
}
