package finalizer

import (
	"context"
	"fmt"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client/metadata"
	"github.com/crdlab/crdlab/scheme"
)

// MetadataCRClientGetter reaches a CRD's instances through the metadata
// client, at /apis/<group>/<version>/[namespaces/<ns>/]<plural>: the
// storage version if it is served (else the first served version) and the
// accepted plural, which is what the crdHandler serves. The finalizer
// needs only the instances' namespaces and their number, so it lists
// them as PartialObjectMetadata, not whole: for a CRD with thousands of
// instances the full list was megabytes answered, read and decoded only
// to count them.
//
// Mirrors what upstream's crdHandler does as the CRClientGetter
// (GetCustomResourceListerCollectionDeleter), over HTTP instead of the
// handler's storage; see doc.go.
type MetadataCRClientGetter struct {
	Client metadata.Interface
}

var _ CRClientGetter = MetadataCRClientGetter{}

// GetCustomResourceListerCollectionDeleter returns the instances' client.
func (g MetadataCRClientGetter) GetCustomResourceListerCollectionDeleter(crd *apiextensionsv1.CustomResourceDefinition) (ListerCollectionDeleter, error) {
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
	return metadataInstances{
		resource:   g.Client.Resource(gvr),
		namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
	}, nil
}

type metadataInstances struct {
	resource   metadata.Getter
	namespaced bool
}

func (d metadataInstances) List(ctx context.Context) (*metav1.PartialObjectMetadataList, error) {
	return d.resource.List(ctx, metav1.ListOptions{})
}

func (d metadataInstances) DeleteCollection(ctx context.Context, namespace string) error {
	r := metadata.ResourceInterface(d.resource)
	if d.namespaced {
		r = d.resource.Namespace(namespace)
	}
	return r.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
}
