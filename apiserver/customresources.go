package apiserver

// The two functions the handler needs to serve the custom resources of a
// CRD: their REST storage and the compiled schemas of their versions.
//
// Mirrors the part of (*crdHandler).getOrCreateServingInfoFor in
// apiextensions-apiserver's customresource_handler.go that calls
// customresource.NewStorage and builds the structural schemas.

import (
	"encoding/json"
	"fmt"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler"
	"github.com/crdlab/crdlab/machinery/managedfields"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/customresource"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// customResourceStorage returns the handler's Config.CustomResourceStorage:
// the REST storage of a CRD's custom resources in its storage version,
// with that version's subresources and selectable fields. Schema checks
// are the handler's (SchemaFor), so the storage gets no validator.
func customResourceStorage(backend storage.Backend) func(*apiextensionsv1.CustomResourceDefinition) (*handler.CustomResourceStorage, error) {
	return func(crd *apiextensionsv1.CustomResourceDefinition) (*handler.CustomResourceStorage, error) {
		storageVersion, err := helpers.GetCRDStorageVersion(crd)
		if err != nil {
			return nil, err
		}
		var version *apiextensionsv1.CustomResourceDefinitionVersion
		for i := range crd.Spec.Versions {
			if crd.Spec.Versions[i].Name == storageVersion {
				version = &crd.Spec.Versions[i]
			}
		}
		if version == nil {
			return nil, fmt.Errorf("%s: storage version %q is not in spec.versions", crd.Name, storageVersion)
		}
		names := crd.Status.AcceptedNames
		if names.Plural == "" || names.Kind == "" {
			names = crd.Spec.Names
		}
		listKind := names.ListKind
		if listKind == "" {
			listKind = names.Kind + "List"
		}
		cfg := customresource.Config{
			Backend:        backend,
			Resource:       scheme.GroupResource{Group: crd.Spec.Group, Resource: names.Plural},
			Kind:           names.Kind,
			ListKind:       listKind,
			StorageVersion: storageVersion,
			Namespaced:     crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		}
		if sub := version.Subresources; sub != nil {
			cfg.HasStatus = sub.Status != nil
			if sc := sub.Scale; sc != nil {
				cfg.Scale = &customresource.ScaleConfig{SpecReplicasPath: sc.SpecReplicasPath, StatusReplicasPath: sc.StatusReplicasPath,
					ReplicasPaths: replicasPaths(crd)}
				if sc.LabelSelectorPath != nil {
					cfg.Scale.LabelSelectorPath = *sc.LabelSelectorPath
				}
			}
		}
		for _, f := range version.SelectableFields {
			cfg.SelectableFields = append(cfg.SelectableFields, f.JSONPath)
		}
		st := customresource.NewStorage(cfg)
		out := &handler.CustomResourceStorage{Main: st.CustomResource}
		// Only non-nil subresources go in: a nil *StatusREST in the
		// interface would not compare equal to nil.
		if st.Status != nil {
			out.Status = st.Status
		}
		if st.Scale != nil {
			out.Scale = st.Scale
		}
		return out, nil
	}
}

// replicasPaths maps each version of crd to the field its scale
// subresource's specReplicasPath names (nil for a version without one),
// for managedFields of /scale writes.
//
// Mirrors replicasPathInCustomResource in getOrCreateServingInfoFor.
func replicasPaths(crd *apiextensionsv1.CustomResourceDefinition) managedfields.ResourcePathMappings {
	out := managedfields.ResourcePathMappings{}
	for _, v := range crd.Spec.Versions {
		gv := scheme.GroupVersion{Group: crd.Spec.Group, Version: v.Name}.String()
		if v.Subresources == nil || v.Subresources.Scale == nil {
			out[gv] = nil
			continue
		}
		var p fieldpath.Path
		for _, e := range strings.Split(strings.TrimPrefix(v.Subresources.Scale.SpecReplicasPath, "."), ".") {
			name := e
			p = append(p, fieldpath.PathElement{FieldName: &name})
		}
		out[gv] = p
	}
	return out
}

// servingSchemas shares the equal subtrees of every structural schema the
// handler serves with: a provider's CRD repeats its parameters in
// forProvider, initProvider and atProvider and in every version, and its
// CRDs share conditions, references and selectors. Held weakly: a schema
// goes when its CRD's serving info does.
var servingSchemas = structural.NewInterner()

// schemaFor compiles one version's openAPIV3Schema with package
// structural: the handler's Config.SchemaFor. The schema keeps no
// documentation (descriptions, titles, examples), which pruning,
// defaulting and validation never read, and shares its equal subtrees
// with every other served schema (servingSchemas): for a 265 KB provider
// CRD of two versions, 0.05 MiB instead of 1.05 (docs/crd-memory.md).
func schemaFor(props *apiextensionsv1.JSONSchemaProps) (handler.Schema, error) {
	b, err := json.Marshal(props)
	if err != nil {
		return nil, err
	}
	s, err := structural.FromJSON(b)
	if err != nil {
		return nil, err
	}
	return structuralSchema{servingSchemas.Intern(structural.WithoutDocs(s))}, nil
}

// structuralSchema adapts a *structural.Structural to handler.Schema.
type structuralSchema struct{ s *structural.Structural }

// Validate returns one Status cause per violation.
func (x structuralSchema) Validate(obj map[string]any) []metav1.StatusCause {
	return registry.StatusCauses(structural.Validate(x.s, obj))
}

// Default sets the schema's defaults in obj.
func (x structuralSchema) Default(obj map[string]any) { structural.Default(x.s, obj) }

// HasDefaults reports whether the schema has a default anywhere: if not,
// Default never changes an object, and the handler can serve storage's
// shared objects as they are.
func (x structuralSchema) HasDefaults() bool { return hasDefaults(x.s) }

func hasDefaults(s *structural.Structural) bool {
	if s == nil {
		return false
	}
	if s.Default != nil {
		return true
	}
	for _, p := range s.Properties {
		if hasDefaults(p) {
			return true
		}
	}
	return hasDefaults(s.Items) || hasDefaults(s.AdditionalProperties)
}

// Prune drops unknown fields of a whole object (metadata, apiVersion and
// kind are kept) and returns their paths; then it drops the nulls the
// schema neither allows nor defaults (`selector: {matchLabels: null}`
// becomes `selector: {}`), as upstream's coercer does after pruning.
func (x structuralSchema) Prune(obj map[string]any) []string {
	paths := structural.Prune(x.s, obj, true)
	structural.PruneNonNullableNullsWithoutDefaults(x.s, obj)
	return paths
}
