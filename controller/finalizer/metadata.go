package finalizer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
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
	// REST, if set, is the loopback client DeleteCollection sends its
	// pages with (it reads each answer's continue token, which the
	// metadata client's DeleteCollection drops); without it, one
	// DeleteCollection per namespace deletes every instance at once.
	REST *client.RESTClient
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
		rest:       g.REST,
		gvr:        gvr,
		namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
	}, nil
}

type metadataInstances struct {
	resource   metadata.Getter
	rest       *client.RESTClient
	gvr        scheme.GroupVersionResource
	namespaced bool
}

// List reads one page of the instances, as metadata.
func (d metadataInstances) List(ctx context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	return d.resource.List(ctx, opts)
}

// DeleteCollection deletes the instances of namespace a page at a time:
// DELETE on the collection with limit, then again with the continue token
// of the answer, until it has none. The server lists and holds every
// object a DeleteCollection deletes, and answers them all; for 5,000
// instances in one call that was ≈ 22 MB of decoded objects held until
// the last delete, and a 5 MB answer read whole by this client. Pages
// hold ListPageSize. The continue token keeps them one snapshot, as the
// pages of a list: instances created after the first page, or left
// because they have finalizers, are found by the finalizer's next List.
func (d metadataInstances) DeleteCollection(ctx context.Context, namespace string) error {
	if !d.namespaced {
		namespace = ""
	}
	if d.rest == nil {
		r := metadata.ResourceInterface(d.resource)
		if d.namespaced {
			r = d.resource.Namespace(namespace)
		}
		return r.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
	}
	segs, err := client.ResourcePath(d.gvr, namespace, "")
	if err != nil {
		return err
	}
	opts := metav1.ListOptions{Limit: ListPageSize}
	for range maxListPages {
		body, err := d.rest.Verb(http.MethodDelete).AbsPath(segs...).
			SetHeader("Content-Type", client.ContentTypeJSON).
			Body(&metav1.DeleteOptions{TypeMeta: metav1.TypeMeta{Kind: "DeleteOptions", APIVersion: "v1"}}).
			VersionedParams(&opts).DoRaw(ctx)
		if err != nil {
			return err
		}
		var page struct {
			Metadata metav1.ListMeta `json:"metadata"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			return fmt.Errorf("the answer of a delete collection: %w", err)
		}
		if page.Metadata.Continue == "" {
			return nil
		}
		opts.Continue = page.Metadata.Continue
	}
	return fmt.Errorf("more than %d pages of %d instances", maxListPages, ListPageSize)
}
