package finalizer

import (
	"context"
	"fmt"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client/dynamic"
	"github.com/crdlab/crdlab/scheme"
)

// DynamicCRClientGetter reaches a CRD's instances through the dynamic
// client, at /apis/<group>/<version>/[namespaces/<ns>/]<plural>: the
// storage version if it is served (else the first served version) and the
// accepted plural, which is what the crdHandler serves.
//
// Mirrors what upstream's crdHandler does as the CRClientGetter
// (GetCustomResourceListerCollectionDeleter), over HTTP instead of the
// handler's storage; see doc.go.
type DynamicCRClientGetter struct {
	Client dynamic.Interface
}

var _ CRClientGetter = DynamicCRClientGetter{}

// GetCustomResourceListerCollectionDeleter returns the instances' client.
func (g DynamicCRClientGetter) GetCustomResourceListerCollectionDeleter(crd *apiextensionsv1.CustomResourceDefinition) (ListerCollectionDeleter, error) {
	version := ""
	for _, v := range crd.Spec.Versions {
		if v.Served && (version == "" || v.Storage) {
			version = v.Name
		}
	}
	if version == "" {
		return nil, fmt.Errorf("%s serves no version", crd.Name)
	}
	plural := crd.Status.AcceptedNames.Plural
	if plural == "" {
		plural = crd.Spec.Names.Plural
	}
	gvr := scheme.GroupVersionResource{Group: crd.Spec.Group, Version: version, Resource: plural}
	return dynamicInstances{
		resource:   g.Client.Resource(gvr),
		namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
	}, nil
}

type dynamicInstances struct {
	resource   dynamic.NamespaceableResourceInterface
	namespaced bool
}

func (d dynamicInstances) List(ctx context.Context) (*unstructured.UnstructuredList, error) {
	return d.resource.List(ctx, metav1.ListOptions{})
}

func (d dynamicInstances) DeleteCollection(ctx context.Context, namespace string) error {
	r := dynamic.ResourceInterface(d.resource)
	if d.namespaced {
		r = d.resource.Namespace(namespace)
	}
	return r.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
}
