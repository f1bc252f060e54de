package customresourcedefinition

import (
	"context"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/crdlab/crdlab/apis/apiextensions"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// Resource is customresourcedefinitions.apiextensions.k8s.io.
var Resource = apiextensions.Resource("customresourcedefinitions")

// KeyPrefix is where CRDs live in storage.
var KeyPrefix = registry.KeyPrefix(apiextensions.GroupName, "customresourcedefinitions")

// REST is the REST storage of CRDs. Objects are the internal
// *apiextensions.CustomResourceDefinition; the handler converts from and to
// the requested version.
//
// Mirrors REST in customresourcedefinition/etcd.go.
type REST struct {
	*registry.Store
}

// NewREST returns the REST storage of CRDs and of their /status, kept in
// backend under /registry/apiextensions.k8s.io/customresourcedefinitions
// as apiextensions.k8s.io/v1 JSON. s must have the apiextensions group
// installed (apis/apiextensions/install).
//
// Mirrors NewREST and NewStatusREST in customresourcedefinition/etcd.go.
func NewREST(backend storage.Backend, s *scheme.Scheme) (*REST, *StatusREST) {
	st := strategy{ObjectTyper: s}
	newFunc := func() storage.Object { return &apiextensions.CustomResourceDefinition{} }
	keyRoot, key := registry.DefaultKeyFuncs(KeyPrefix, false)
	store := &registry.Store{
		NewFunc:                  newFunc,
		NewListFunc:              func() scheme.Object { return &apiextensions.CustomResourceDefinitionList{} },
		DefaultQualifiedResource: Resource,
		KeyRootFunc:              keyRoot,
		KeyFunc:                  key,
		CreateStrategy:           st,
		UpdateStrategy:           st,
		DeleteStrategy:           st,
		Storage: backend.ForResource(storage.ResourceConfig{
			Prefix:  KeyPrefix,
			NewFunc: newFunc,
			Codec:   NewCodec(s),
		}),
	}
	statusStore := *store
	statusStore.UpdateStrategy = statusStrategy{st}
	return &REST{Store: store}, &StatusREST{store: &statusStore}
}

// ShortNames are the names kubectl accepts for CRDs ("kubectl get crd").
func (r *REST) ShortNames() []string { return []string{"crd", "crds"} }

// Categories puts CRDs in "kubectl get api-extensions".
func (r *REST) Categories() []string { return []string{"api-extensions"} }

// Delete marks a CRD for deletion on the first request: it sets
// deletionTimestamp, adds the customresourcecleanup finalizer and the
// Terminating condition, and returns the CRD with false. The finalizer
// controller deletes the custom resources, then removes the finalizer
// through /status, which deletes the CRD. Later requests go to the generic
// delete. The UID of the CRD read first is a precondition of the write, so
// a CRD deleted and re-created meanwhile is left alone.
//
// Mirrors (*REST).Delete in customresourcedefinition/etcd.go.
func (r *REST) Delete(ctx context.Context, name string, deleteValidation registry.ValidateObjectFunc, opts *metav1.DeleteOptions) (scheme.Object, bool, error) {
	obj, err := r.Get(ctx, name, &metav1.GetOptions{})
	if err != nil {
		return nil, false, err
	}
	crd := obj.(*apiextensions.CustomResourceDefinition)
	o, err := registry.DeletePreconditions(Resource, crd, opts)
	if err != nil {
		return nil, false, err
	}
	if crd.DeletionTimestamp != nil {
		return r.Store.Delete(ctx, name, deleteValidation, &o)
	}
	return r.MarkForDeletion(ctx, name, &o, deleteValidation, func(existing storage.Object) {
		existingCRD := existing.(*apiextensions.CustomResourceDefinition)
		if existingCRD.DeletionTimestamp == nil {
			now := metav1.NewTime(r.now())
			existingCRD.DeletionTimestamp = &now
		}
		if !hasFinalizer(existingCRD, apiextensions.CustomResourceCleanupFinalizer) {
			existingCRD.Finalizers = append(existingCRD.Finalizers, apiextensions.CustomResourceCleanupFinalizer)
		}
		setCondition(existingCRD, apiextensions.CustomResourceDefinitionCondition{
			Type:    apiextensions.Terminating,
			Status:  apiextensions.ConditionTrue,
			Reason:  "InstanceDeletionPending",
			Message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
		}, r.now())
	})
}

func (r *REST) now() time.Time {
	if r.Clock != nil {
		return r.Clock()
	}
	return time.Now()
}

func hasFinalizer(crd *apiextensions.CustomResourceDefinition, finalizer string) bool {
	for _, f := range crd.Finalizers {
		if f == finalizer {
			return true
		}
	}
	return false
}

// setCondition sets a condition of an internal CRD; the transition time
// moves only when the status changes.
//
// Mirrors apiextensions.SetCRDCondition (internal version).
func setCondition(crd *apiextensions.CustomResourceDefinition, c apiextensions.CustomResourceDefinitionCondition, now time.Time) {
	c.LastTransitionTime = metav1.NewTime(now)
	for i := range crd.Status.Conditions {
		existing := &crd.Status.Conditions[i]
		if existing.Type != c.Type {
			continue
		}
		if existing.Status == c.Status && !existing.LastTransitionTime.IsZero() {
			c.LastTransitionTime = existing.LastTransitionTime
		}
		*existing = c
		return
	}
	crd.Status.Conditions = append(crd.Status.Conditions, c)
}

// StatusREST serves customresourcedefinitions/status: GET reads the CRD,
// PUT and PATCH write its status (and finalizers).
//
// Mirrors StatusREST in customresourcedefinition/etcd.go.
type StatusREST struct {
	store *registry.Store
}

var (
	_ registry.Storage = (*StatusREST)(nil)
	_ registry.Getter  = (*StatusREST)(nil)
	_ registry.Updater = (*StatusREST)(nil)
	_ registry.Scoper  = (*StatusREST)(nil)
)

func (r *StatusREST) New() scheme.Object    { return &apiextensions.CustomResourceDefinition{} }
func (r *StatusREST) Destroy()              {}
func (r *StatusREST) NamespaceScoped() bool { return false }

// GetResetFields returns what /status may not write (spec).
func (r *StatusREST) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return r.store.GetResetFields()
}

// Get reads the CRD.
func (r *StatusREST) Get(ctx context.Context, name string, opts *metav1.GetOptions) (scheme.Object, error) {
	return r.store.Get(ctx, name, opts)
}

// Update writes the status. A subresource never creates.
func (r *StatusREST) Update(ctx context.Context, name string, objInfo registry.UpdatedObjectInfo, createValidation registry.ValidateObjectFunc,
	updateValidation registry.ValidateObjectUpdateFunc, _ bool, opts *metav1.UpdateOptions) (scheme.Object, bool, error) {
	return r.store.Update(ctx, name, objInfo, createValidation, updateValidation, false, opts)
}

// Codec stores internal CRDs as apiextensions.k8s.io/v1 JSON: Encode
// converts to v1, Decode reads v1 (with its defaults) and converts to the
// internal version.
//
// Mirrors the storage codec upstream builds for the group (the storage
// version of customresourcedefinitions is v1).
type Codec struct {
	codecs scheme.CodecFactory
}

var _ storage.Codec = Codec{}

// NewCodec returns the storage codec of CRDs over s.
func NewCodec(s *scheme.Scheme) Codec { return Codec{codecs: scheme.NewCodecFactory(s)} }

// Encode writes obj as v1 JSON.
func (c Codec) Encode(obj storage.Object) ([]byte, error) {
	return c.codecs.Encode(obj, apiextensionsv1.SchemeGroupVersion)
}

// Decode reads v1 JSON into an internal CRD.
func (c Codec) Decode(data []byte, into storage.Object) error {
	v1obj := &apiextensionsv1.CustomResourceDefinition{}
	if err := c.codecs.DecodeInto(data, v1obj, scheme.DecodeOptions{}); err != nil {
		return err
	}
	return c.codecs.Scheme().Convert(v1obj, into)
}
