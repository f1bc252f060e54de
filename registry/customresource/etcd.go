package customresource

import (
	"context"
	"fmt"
	"strings"

	autoscalingv1 "github.com/crdlab/crdlab/apis/autoscaling/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/managedfields"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// Config describes the custom resources of one CRD, as the handler's
// crdInfo knows them.
type Config struct {
	// Backend is the store every resource shares.
	Backend storage.Backend
	// Resource is the group and plural, e.g. crontabs.stable.example.com.
	Resource scheme.GroupResource
	// Kind and ListKind are the CRD's names.kind and names.listKind.
	Kind, ListKind string
	// StorageVersion is the version objects are stored (and handed to the
	// REST methods) in; the handler converts to and from served versions.
	StorageVersion string
	// Namespaced is true for scope: Namespaced.
	Namespaced bool
	// HasStatus turns on the status subresource: the main endpoint then
	// ignores .status and /status ignores everything else.
	HasStatus bool
	// Scale, if set, turns on the scale subresource.
	Scale *ScaleConfig
	// Validator checks an object against the CRD's schema; its causes
	// join the metadata checks in one 422 Invalid. Nil: no schema check.
	Validator func(ctx context.Context, obj *unstructured.Unstructured) []metav1.StatusCause
	// ValidateUpdate checks an update against the schema; nil means
	// Validator on the new object.
	ValidateUpdate func(ctx context.Context, obj, old *unstructured.Unstructured) []metav1.StatusCause
	// SelectableFields are the CRD's selectableFields JSON paths
	// (".spec.color"), selectable as "spec.color" in field selectors.
	SelectableFields []string
	// EnableGarbageCollection is the Store's: deletes honour
	// propagationPolicy with the garbage collector's finalizers.
	EnableGarbageCollection bool
}

// ScaleConfig is the CRD's subresources.scale: where the replica counts
// and the selector live in a custom resource (simple JSON paths such as
// ".spec.replicas").
type ScaleConfig struct {
	SpecReplicasPath   string
	StatusReplicasPath string
	LabelSelectorPath  string
	// ReplicasPaths maps each version of the CRD to its spec replicas
	// field (nil for a version without /scale), for moving its owner in
	// managedFields between the resource and its Scale. Nil: managedFields
	// are left as they are.
	ReplicasPaths managedfields.ResourcePathMappings
}

// CustomResourceStorage is the REST storage of one CRD's custom resources:
// the resource itself and its subresources (nil when off).
//
// Mirrors CustomResourceStorage in customresource/etcd.go.
type CustomResourceStorage struct {
	CustomResource *registry.Store
	Status         *StatusREST
	Scale          *ScaleREST
}

// NewStorage returns the REST storage of the custom resources cfg
// describes, kept in cfg.Backend under /registry/<group>/<plural>.
//
// Mirrors NewStorage in customresource/etcd.go.
func NewStorage(cfg Config) CustomResourceStorage {
	gvk := scheme.GroupVersionKind{Group: cfg.Resource.Group, Version: cfg.StorageVersion, Kind: cfg.Kind}
	s := strategy{
		gvk:            gvk,
		namespaced:     cfg.Namespaced,
		hasStatus:      cfg.HasStatus,
		scale:          cfg.Scale,
		validator:      cfg.Validator,
		validateUpdate: cfg.ValidateUpdate,
	}
	for _, p := range cfg.SelectableFields {
		name := strings.TrimPrefix(p, ".")
		s.selectableFields = append(s.selectableFields, selectableField{name: name, path: strings.Split(name, ".")})
	}

	prefix := registry.KeyPrefix(cfg.Resource.Group, cfg.Resource.Resource)
	newFunc := func() storage.Object { return &unstructured.Unstructured{} }
	store := cfg.Backend.ForResource(storage.ResourceConfig{
		Prefix:   prefix,
		NewFunc:  newFunc,
		Codec:    storage.JSONCodec{},
		AttrFunc: s.getAttrs,
	})
	keyRoot, key := registry.DefaultKeyFuncs(prefix, cfg.Namespaced)
	listAPIVersion := gvk.GroupVersion().String()
	main := &registry.Store{
		NewFunc: newFunc,
		NewListFunc: func() scheme.Object {
			return &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": listAPIVersion, "kind": cfg.ListKind}}
		},
		DefaultQualifiedResource: cfg.Resource,
		KeyRootFunc:              keyRoot,
		KeyFunc:                  key,
		AttrFunc:                 s.getAttrs,
		CheckFieldLabel:          s.checkFieldLabel,
		CreateStrategy:           s,
		UpdateStrategy:           s,
		DeleteStrategy:           s,
		Storage:                  store,
		EnableGarbageCollection:  cfg.EnableGarbageCollection,
	}
	out := CustomResourceStorage{CustomResource: main}
	if cfg.HasStatus {
		statusStore := *main
		statusStore.UpdateStrategy = statusStrategy{s}
		out.Status = &StatusREST{store: &statusStore}
	}
	if cfg.Scale != nil {
		out.Scale = &ScaleREST{store: main, cfg: *cfg.Scale}
	}
	return out
}

// StatusREST serves /status: GET reads the whole object, PUT and PATCH
// write only its .status.
//
// Mirrors StatusREST in customresource/etcd.go.
type StatusREST struct {
	// store is a copy of the main Store with the status strategy.
	store *registry.Store
}

var (
	_ registry.Storage = (*StatusREST)(nil)
	_ registry.Getter  = (*StatusREST)(nil)
	_ registry.Updater = (*StatusREST)(nil)
	_ registry.Scoper  = (*StatusREST)(nil)
)

func (r *StatusREST) New() scheme.Object    { return r.store.New() }
func (r *StatusREST) Destroy()              {}
func (r *StatusREST) NamespaceScoped() bool { return r.store.NamespaceScoped() }

// Get reads the object.
func (r *StatusREST) Get(ctx context.Context, name string, opts *metav1.GetOptions) (scheme.Object, error) {
	return r.store.Get(ctx, name, opts)
}

// Update writes the status. A subresource never creates: forceAllowCreate
// is ignored.
func (r *StatusREST) Update(ctx context.Context, name string, objInfo registry.UpdatedObjectInfo, createValidation registry.ValidateObjectFunc,
	updateValidation registry.ValidateObjectUpdateFunc, _ bool, opts *metav1.UpdateOptions) (scheme.Object, bool, error) {
	return r.store.Update(ctx, name, objInfo, createValidation, updateValidation, false, opts)
}

// ScaleREST serves /scale: an autoscaling/v1 Scale read from, and written
// back to, the custom resource at the CRD's scale paths.
//
// Mirrors ScaleREST in customresource/etcd.go.
type ScaleREST struct {
	store *registry.Store
	cfg   ScaleConfig
}

var (
	_ registry.Storage = (*ScaleREST)(nil)
	_ registry.Getter  = (*ScaleREST)(nil)
	_ registry.Updater = (*ScaleREST)(nil)
	_ registry.Scoper  = (*ScaleREST)(nil)
)

func (r *ScaleREST) New() scheme.Object    { return &autoscalingv1.Scale{} }
func (r *ScaleREST) Destroy()              {}
func (r *ScaleREST) NamespaceScoped() bool { return r.store.NamespaceScoped() }

// Get returns the Scale of a custom resource. A resource without the spec
// replicas field is a 500, as upstream.
func (r *ScaleREST) Get(ctx context.Context, name string, opts *metav1.GetOptions) (scheme.Object, error) {
	obj, err := r.store.Get(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	scale, found, err := scaleFromCustomResource(obj.(*unstructured.Unstructured), r.cfg)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	if !found {
		return nil, apierrors.NewInternalError(fmt.Errorf("the spec replicas field %q does not exist", r.cfg.SpecReplicasPath))
	}
	return scale, nil
}

// Update writes the Scale's spec.replicas into the custom resource (with
// the Scale's resourceVersion as precondition, if it has one) and returns
// the new Scale.
func (r *ScaleREST) Update(ctx context.Context, name string, objInfo registry.UpdatedObjectInfo, createValidation registry.ValidateObjectFunc,
	updateValidation registry.ValidateObjectUpdateFunc, _ bool, opts *metav1.UpdateOptions) (scheme.Object, bool, error) {
	info := &scaleUpdatedObjectInfo{reqObjInfo: objInfo, cfg: r.cfg}
	var cv registry.ValidateObjectFunc
	if createValidation != nil {
		cv = func(ctx context.Context, obj scheme.Object) error {
			scale, _, err := scaleFromCustomResource(obj.(*unstructured.Unstructured), r.cfg)
			if err != nil {
				return err
			}
			return createValidation(ctx, scale)
		}
	}
	var uv registry.ValidateObjectUpdateFunc
	if updateValidation != nil {
		uv = func(ctx context.Context, obj, old scheme.Object) error {
			newScale, _, err := scaleFromCustomResource(obj.(*unstructured.Unstructured), r.cfg)
			if err != nil {
				return err
			}
			oldScale, _, err := scaleFromCustomResource(old.(*unstructured.Unstructured), r.cfg)
			if err != nil {
				return err
			}
			return updateValidation(ctx, newScale, oldScale)
		}
	}
	obj, _, err := r.store.Update(ctx, name, info, cv, uv, false, opts)
	if err != nil {
		return nil, false, err
	}
	scale, _, err := scaleFromCustomResource(obj.(*unstructured.Unstructured), r.cfg)
	if err != nil {
		return nil, false, apierrors.NewBadRequest(err.Error())
	}
	return scale, false, nil
}

// scaleFromCustomResource builds the Scale of cr; found says whether the
// spec replicas field exists.
//
// Mirrors scaleFromCustomResource in customresource/etcd.go.
func scaleFromCustomResource(cr *unstructured.Unstructured, cfg ScaleConfig) (*autoscalingv1.Scale, bool, error) {
	specReplicas, found, err := unstructured.NestedInt64(cr.Object, splitPath(cfg.SpecReplicasPath)...)
	if err != nil {
		return nil, false, err
	}
	statusReplicas, _, err := unstructured.NestedInt64(cr.Object, splitPath(cfg.StatusReplicasPath)...)
	if err != nil {
		return nil, false, err
	}
	var selector string
	if cfg.LabelSelectorPath != "" {
		if selector, _, err = unstructured.NestedString(cr.Object, splitPath(cfg.LabelSelectorPath)...); err != nil {
			return nil, false, err
		}
	}
	return &autoscalingv1.Scale{
		// apiVersion and kind are set: a Scale is always autoscaling/v1.
		TypeMeta: metav1.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"},
		ObjectMeta: metav1.ObjectMeta{
			Name:              cr.GetName(),
			Namespace:         cr.GetNamespace(),
			UID:               cr.GetUID(),
			ResourceVersion:   cr.GetResourceVersion(),
			CreationTimestamp: cr.GetCreationTimestamp(),
		},
		Spec:   autoscalingv1.ScaleSpec{Replicas: int32(specReplicas)},
		Status: autoscalingv1.ScaleStatus{Replicas: int32(statusReplicas), Selector: selector},
	}, found, nil
}

// scaleUpdatedObjectInfo turns the update of a Scale into the update of
// its custom resource.
//
// Mirrors scaleUpdatedObjectInfo in customresource/etcd.go.
type scaleUpdatedObjectInfo struct {
	reqObjInfo registry.UpdatedObjectInfo
	cfg        ScaleConfig
}

// invalidSpecReplicas marks a Scale built from a resource without spec
// replicas: an update that leaves it so is rejected.
const invalidSpecReplicas = -2147483648

func (i *scaleUpdatedObjectInfo) UpdatedObject(ctx context.Context, oldObj scheme.Object) (scheme.Object, error) {
	cr := oldObj.DeepCopyObject().(*unstructured.Unstructured)
	oldScale, found, err := scaleFromCustomResource(cr, i.cfg)
	if err != nil {
		return nil, err
	}
	if !found {
		oldScale.Spec.Replicas = invalidSpecReplicas
	}
	// The Scale is shown the entries that own the replicas, as owning its
	// spec.replicas; what the write decides goes back to the resource.
	var fields *managedfields.ScaleHandler
	if i.cfg.ReplicasPaths != nil {
		fields = managedfields.NewScaleHandler(cr.GetManagedFields(), registry.RequestVersionFrom(ctx).String(), i.cfg.ReplicasPaths)
		if oldScale.ManagedFields, err = fields.ToSubresource(); err != nil {
			return nil, err
		}
	}
	obj, err := i.reqObjInfo.UpdatedObject(ctx, oldScale)
	if err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, apierrors.NewBadRequest("nil update passed to Scale")
	}
	scale, ok := obj.(*autoscalingv1.Scale)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("wrong object passed to Scale update: %v", obj))
	}
	if scale.Spec.Replicas == invalidSpecReplicas {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the spec replicas field %q cannot be empty", i.cfg.SpecReplicasPath))
	}
	if err := unstructured.SetNestedField(cr.Object, int64(scale.Spec.Replicas), splitPath(i.cfg.SpecReplicasPath)...); err != nil {
		return nil, err
	}
	if scale.ResourceVersion != "" {
		// The client's resourceVersion is the precondition of the write.
		cr.SetResourceVersion(scale.ResourceVersion)
	}
	if fields != nil {
		entries, err := fields.ToParent(scale.ManagedFields)
		if err != nil {
			return nil, err
		}
		cr.SetManagedFields(entries)
	}
	return cr, nil
}
