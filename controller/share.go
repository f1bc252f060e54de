package controller

import (
	"reflect"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
)

// ShareVersionSchemas is the CRD informer's transform (an
// informer.TransformFunc): it makes the versions of a CRD share the parts
// of their schemas that are equal, so that a CRD whose versions have
// nearly the same schema — most multi-version CRDs — is cached nearly
// once. It changes crd in place and returns it; anything else is returned
// as it is.
//
// Sharing is safe because what the informer caches is read-only (every
// reader DeepCopies before changing a CRD, and DeepCopy unshares). The
// schemas are compared where they sit at the same path (the same property
// names, items, additionalProperties): a subtree equal to the earlier
// version's is replaced by it, one that differs is searched below.
//
// Upstream keeps one copy per version; client-go's TransformFunc is meant
// for exactly this ("clean-up some parts of the object to reduce component
// memory usage").
func ShareVersionSchemas(obj any) (any, error) {
	crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok || crd == nil {
		return obj, nil
	}
	var first *apiextensionsv1.JSONSchemaProps
	for i := range crd.Spec.Versions {
		v := &crd.Spec.Versions[i]
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		if first == nil {
			first = v.Schema.OpenAPIV3Schema
			continue
		}
		shareSchema(first, v.Schema.OpenAPIV3Schema)
	}
	return crd, nil
}

// shareSchema makes b, and every subtree of b, that equals a (or a's
// subtree at the same path) hold a's values: maps, slices and pointers
// then point at a's.
func shareSchema(a, b *apiextensionsv1.JSONSchemaProps) {
	if reflect.DeepEqual(a, b) {
		*b = *a
		return
	}
	for k, bv := range b.Properties {
		if av, ok := a.Properties[k]; ok {
			shareSchema(&av, &bv)
			b.Properties[k] = bv
		}
	}
	if a.Items != nil && b.Items != nil && a.Items.Schema != nil && b.Items.Schema != nil {
		shareSchema(a.Items.Schema, b.Items.Schema)
	}
	if a.AdditionalProperties != nil && b.AdditionalProperties != nil &&
		a.AdditionalProperties.Schema != nil && b.AdditionalProperties.Schema != nil {
		shareSchema(a.AdditionalProperties.Schema, b.AdditionalProperties.Schema)
	}
}
