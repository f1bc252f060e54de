package apiserver

// The two functions the handler needs to serve the custom resources of a
// CRD: their REST storage and the compiled schemas of their versions.
//
// Mirrors the part of (*crdHandler).getOrCreateServingInfoFor in
// apiextensions-apiserver's customresource_handler.go that calls
// customresource.NewStorage and builds the structural schemas.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/crdlab/crdlab/apis/apiextensions/cel"
	"github.com/crdlab/crdlab/apis/apiextensions/cel/library"
	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/handler"
	"github.com/crdlab/crdlab/machinery/managedfields"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/customresource"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/trace"
)

// customResourceStorage returns the handler's Config.CustomResourceStorage:
// the REST storage of a CRD's custom resources in its storage version,
// with that version's subresources and selectable fields; its strategy
// runs validate (the handler's per-version schema checks) on every create
// and update. With gc, deletes honour propagationPolicy (the garbage
// collector runs).
func customResourceStorage(backend storage.Backend, gc bool) func(*apiextensionsv1.CustomResourceDefinition, handler.CustomResourceValidator) (*handler.CustomResourceStorage, error) {
	return func(crd *apiextensionsv1.CustomResourceDefinition, validate handler.CustomResourceValidator) (*handler.CustomResourceStorage, error) {
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

			EnableGarbageCollection: gc,
		}
		if validate != nil {
			cfg.Validator = func(ctx context.Context, obj *unstructured.Unstructured) []metav1.StatusCause {
				return validate(ctx, obj, nil)
			}
			cfg.ValidateUpdate = validate
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
// structural, and its x-kubernetes-validations with package cel (once, on
// the first write: lazyRules; the programs are kept in the Schema, which
// the handler keeps in the CRD's serving info): the handler's
// Config.SchemaFor. The schema keeps no
// documentation (descriptions, titles, examples), which pruning,
// defaulting and validation never read, and shares its equal subtrees
// with every other served schema (servingSchemas): for a 265 KB provider
// CRD of two versions, 0.05 MiB instead of 1.05 (docs/crd-memory.md).
//
// Mirrors the structural schema and cel.NewValidator of
// getOrCreateServingInfoFor and customresource.NewStrategy.
func schemaFor(crd *apiextensionsv1.CustomResourceDefinition, version string) (handler.Schema, error) {
	var props *apiextensionsv1.JSONSchemaProps
	for _, v := range crd.Spec.Versions {
		if v.Name == version && v.Schema != nil {
			props = v.Schema.OpenAPIV3Schema
		}
	}
	if props == nil {
		return nil, fmt.Errorf("version %s has no schema", version)
	}
	b, err := json.Marshal(props)
	if err != nil {
		return nil, err
	}
	s, err := structural.FromJSON(b)
	if err != nil {
		return nil, err
	}
	names := crd.Status.AcceptedNames
	if names.Plural == "" {
		names = crd.Spec.Names
	}
	s = servingSchemas.Intern(structural.WithoutDocs(s))
	return structuralSchema{
		s:        s,
		cel:      newLazyRules(s),
		resource: names.Plural + "." + crd.Spec.Group,
	}, nil
}

// structuralSchema adapts a *structural.Structural (and the CEL rules in
// it) to handler.Schema.
type structuralSchema struct {
	s *structural.Structural
	// cel holds the compiled rules, compiled on the first write.
	cel *lazyRules
	// resource names the custom resources, for tracing.
	resource string
}

// lazyRules are a schema's CEL rules, compiled on first use — the first
// create or update of one of the CRD's objects — not when the serving
// info is built: a provider's CRDs are all served (listed and watched by
// its controllers) but few get objects, and the compiled programs of a
// 265 KB provider CRD cost about 0.2 MiB (docs/crd-memory.md). Whether
// the rules compile was checked when the CRD was written (CRD validation
// compiles them and estimates their cost), so compiling later changes no
// answer.
//
// Upstream compiles them with the serving info (cel.NewValidator in
// customresource.NewStrategy).
type lazyRules struct {
	s        *structural.Structural
	once     sync.Once
	v        *cel.Validator // nil if the schema has no rules
	compiled atomic.Bool
}

func newLazyRules(s *structural.Structural) *lazyRules { return &lazyRules{s: s} }

// validator returns the compiled rules (nil if there are none),
// compiling them the first time.
func (l *lazyRules) validator() *cel.Validator {
	if l == nil {
		return nil
	}
	l.once.Do(func() {
		l.v = cel.NewValidator(l.s, true, library.PerCallLimit)
		l.compiled.Store(true)
	})
	return l.v
}

// Validate checks obj against the OpenAPI schema, then runs the CEL rules
// unless an OpenAPI error blocks them (a missing required field, a wrong
// type, a value not in its enum, too long, too many): rules assume the
// shape the schema promises, so upstream then reports only that "some
// validation rules were not checked". On update (old non-nil) transition
// rules run and unchanged parts of the object are ratcheted: their errors
// become warnings.
//
// Mirrors customResourceStrategy.Validate/ValidateUpdate (the schema, the
// CEL validator and hasBlockingErr) in pkg/registry/customresource/strategy.go.
func (x structuralSchema) Validate(ctx context.Context, obj, old map[string]any) []metav1.StatusCause {
	errs := structural.Validate(x.s, obj)
	if old != nil && len(structural.ValidateListSetsAndMaps(nil, x.s, old)) > 0 {
		// Duplicates the stored object already had are not held against
		// an update (upstream validates list sets and maps on update only
		// if the old object passes). Validate reports them last.
		errs = errs[:len(errs)-len(structural.ValidateListSetsAndMaps(nil, x.s, obj))]
	}
	causes := make([]metav1.StatusCause, 0, len(errs))
	blocked := false
	for _, e := range errs {
		causes = append(causes, metav1.StatusCause{Type: metav1.CauseType(e.Type), Message: e.ErrorBody(), Field: e.Field})
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			blocked = true
		}
	}
	rules := x.cel.validator()
	if rules == nil {
		return causes
	}
	if blocked {
		e := field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
		return append(causes, metav1.StatusCause{Type: metav1.CauseType(e.Type), Message: e.ErrorBody(), Field: e.Field})
	}
	return append(causes, x.validateRules(ctx, rules, obj, old)...)
}

// validateRules runs the CEL rules, within the runtime cost budget of one
// request, and tells the tracer what they cost.
func (x structuralSchema) validateRules(ctx context.Context, rules *cel.Validator, obj, old map[string]any) []metav1.StatusCause {
	tr := trace.FromContext(ctx)
	var start time.Time
	if tr.Enabled() {
		start = time.Now()
	}
	opts := cel.Options{Warn: func(msg string) { registry.AddWarning(ctx, msg) }}
	var oldObj any
	if old != nil {
		oldObj = old
		opts.Correlation = cel.NewCorrelatedObject(obj, old, x.s)
	}
	errs, left := rules.Validate(ctx, nil, obj, oldObj, library.RuntimeCELCostBudget, opts)
	causes := make([]metav1.StatusCause, 0, len(errs))
	for _, e := range errs {
		causes = append(causes, metav1.StatusCause{Type: metav1.CauseType(e.Type), Message: e.ErrorBody(), Field: e.Field})
	}
	if tr.Enabled() {
		u := unstructured.Unstructured{Object: obj}
		key := u.GetName()
		if ns := u.GetNamespace(); ns != "" {
			key = ns + "/" + key
		}
		verdict := "all rules held"
		if len(errs) > 0 {
			verdict = fmt.Sprintf("%d failed", len(errs))
		}
		kind := "create"
		if old != nil {
			kind = "update (transition rules and ratcheting on)"
		}
		tr.Emit(trace.Event{
			Component: trace.Registry,
			Step:      "cel",
			Resource:  x.resource,
			Key:       key,
			Duration:  time.Since(start),
			Message:   fmt.Sprintf("CEL validation rules ran on the %s, cost %d: %s", kind, library.RuntimeCELCostBudget-left, verdict),
			Upstream:  "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel.(*Validator).Validate",
		})
	}
	return causes
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
