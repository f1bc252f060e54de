package controller

import (
	"reflect"
	"sort"
	"strings"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/internal/deepcopy"
)

// ShareVersionSchemas is a CRD informer's transform (an
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
// version's is replaced by it, one that differs is searched below. Then
// equal property maps are shared wherever they sit: a provider's
// forProvider, initProvider and atProvider repeat the same parameters.
//
// Upstream keeps one copy per version; client-go's TransformFunc is meant
// for exactly this ("clean-up some parts of the object to reduce component
// memory usage").
func ShareVersionSchemas(obj any) (any, error) {
	crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok || crd == nil {
		return obj, nil
	}
	ShareSpecSchemas(&crd.Spec)
	return crd, nil
}

// ShareSpecSchemas is ShareVersionSchemas on one spec: the sharing that
// the server's loopback CRD client runs once on each spec it decodes
// (client.NewSharedSpecs), before the spec is shared with other decoded
// CRDs and can no longer be changed in place.
func ShareSpecSchemas(spec *apiextensionsv1.CustomResourceDefinitionSpec) {
	var first *apiextensionsv1.JSONSchemaProps
	for i := range spec.Versions {
		v := &spec.Versions[i]
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		if first == nil {
			first = v.Schema.OpenAPIV3Schema
			continue
		}
		shareSchema(first, v.Schema.OpenAPIV3Schema)
	}
	// Then equal property maps anywhere in the CRD: a provider's
	// forProvider, initProvider and atProvider repeat the same parameters
	// under different paths.
	seen := map[string][]map[string]apiextensionsv1.JSONSchemaProps{}
	for i := range spec.Versions {
		if v := spec.Versions[i]; v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			shareProperties(v.Schema.OpenAPIV3Schema, seen, 0)
		}
	}
}

// The search for equal property maps anywhere is bounded, so that its
// cost stays linear in the schema's size: it looks no deeper than
// maxShareDepth levels (a provider's repeated parameter blocks sit a few
// levels below spec) and compares a map with at most maxShareCandidates
// earlier maps of the same keys. Without the bounds a schema nested 3,000
// levels deep, whose maps all have the key "a", took minutes: every level
// was compared with every level above it, all the way down.
const (
	maxShareDepth      = 16
	maxShareCandidates = 8
)

// shareProperties makes every property map below s that equals one seen
// before (seen: by their keys, sorted and joined) that one, and records
// the others. A map already shared is not walked again.
func shareProperties(s *apiextensionsv1.JSONSchemaProps, seen map[string][]map[string]apiextensionsv1.JSONSchemaProps, depth int) {
	if depth > maxShareDepth {
		return
	}
	depth++
	if len(s.Properties) > 0 {
		keys := make([]string, 0, len(s.Properties))
		for k := range s.Properties {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		sig := strings.Join(keys, "\x00")
		p := reflect.ValueOf(s.Properties).Pointer()
		for _, m := range seen[sig] {
			if reflect.ValueOf(m).Pointer() == p {
				return // walked already, through another path
			}
			if apiextensionsv1.EqualSchemaMaps(m, s.Properties) {
				s.Properties = m
				return
			}
		}
		if len(seen[sig]) < maxShareCandidates {
			seen[sig] = append(seen[sig], s.Properties)
		}
		for _, k := range keys {
			// Only c.Properties can change (Items and
			// AdditionalProperties are pointers, changed in place).
			c := s.Properties[k]
			old := reflect.ValueOf(c.Properties).Pointer()
			if shareProperties(&c, seen, depth); reflect.ValueOf(c.Properties).Pointer() != old {
				s.Properties[k] = c
			}
		}
	}
	if s.Items != nil && s.Items.Schema != nil {
		shareProperties(s.Items.Schema, seen, depth)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		shareProperties(s.AdditionalProperties.Schema, seen, depth)
	}
}

// shareSchema makes b, and every subtree of b, that equals a (or a's
// subtree at the same path) hold a's values: maps, slices and pointers
// then point at a's.
func shareSchema(a, b *apiextensionsv1.JSONSchemaProps) {
	if apiextensionsv1.EqualSchemas(a, b) {
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

// CopyForStatus returns a copy of crd to write its status or metadata:
// metadata and status are deep copies, the spec is crd's own (shared: its
// slices, maps and schemas are crd's). The controllers write status and
// never change a spec, and a shared spec lets the loopback client write it
// by copying its JSON (client.SharedSpecs) instead of writing hundreds of
// KB of schema again.
//
// Upstream's controllers call crd.DeepCopy().
func CopyForStatus(crd *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		TypeMeta:   crd.TypeMeta,
		ObjectMeta: deepcopy.Copy(crd.ObjectMeta),
		Spec:       crd.Spec,
		Status:     deepcopy.Copy(crd.Status),
	}
}
