package managedfields

import (
	"fmt"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/scheme"
)

// TypeConverter turns objects into typed values of the merge engine and
// back. An object's apiVersion and kind pick its type.
//
// Mirrors TypeConverter in k8s.io/apimachinery/pkg/util/managedfields.
type TypeConverter interface {
	// ObjectToTyped parses obj against its kind's type; a value that does
	// not fit it (an unknown field, a string for a number) is an error.
	ObjectToTyped(obj *unstructured.Unstructured, opts ...typed.ValidationOptions) (*typed.TypedValue, error)
	// TypedToObject returns the object a typed value holds.
	TypedToObject(tv *typed.TypedValue) (*unstructured.Unstructured, error)
}

// typeConverter knows the kinds of a set of OpenAPI models.
type typeConverter struct {
	parser *typed.Parser
	// kinds maps each kind a model is tagged with
	// (x-kubernetes-group-version-kind) to its type.
	kinds map[scheme.GroupVersionKind]typed.ParseableType
}

// NewTypeConverter builds a TypeConverter from OpenAPI v3 models, keyed
// by name as $refs name them (see ToSchemaFromOpenAPI). A model knows the
// kinds its x-kubernetes-group-version-kind extension lists.
//
// Mirrors NewTypeConverter in util/managedfields/internal/typeconverter.go.
func NewTypeConverter(models map[string]any, preserveUnknownFields bool) (TypeConverter, error) {
	s, err := ToSchemaFromOpenAPI(models, preserveUnknownFields)
	if err != nil {
		return nil, fmt.Errorf("failed to convert models to schema: %v", err)
	}
	p := &typed.Parser{Schema: schema.Schema{Types: s.Types}}
	c := &typeConverter{parser: p, kinds: map[scheme.GroupVersionKind]typed.ParseableType{}}
	for name, model := range models {
		m, _ := model.(map[string]any)
		for _, gvk := range groupVersionKinds(m) {
			c.kinds[gvk] = p.Type(name)
		}
	}
	return c, nil
}

// groupVersionKinds reads a model's x-kubernetes-group-version-kind.
func groupVersionKinds(m map[string]any) []scheme.GroupVersionKind {
	list, _ := m["x-kubernetes-group-version-kind"].([]any)
	var out []scheme.GroupVersionKind
	for _, e := range list {
		em, _ := e.(map[string]any)
		g, gok := em["group"].(string)
		v, vok := em["version"].(string)
		k, kok := em["kind"].(string)
		if gok && vok && kok && k != "" {
			out = append(out, scheme.GroupVersionKind{Group: g, Version: v, Kind: k})
		}
	}
	return out
}

func (c *typeConverter) ObjectToTyped(obj *unstructured.Unstructured, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	gvk := obj.GroupVersionKind()
	t, ok := c.kinds[gvk]
	if !ok {
		return nil, &NoCorrespondingTypeError{GVK: gvk}
	}
	return t.FromUnstructured(obj.Object, opts...)
}

func (c *typeConverter) TypedToObject(tv *typed.TypedValue) (*unstructured.Unstructured, error) {
	return valueToObject(tv)
}

// AtomicField reports whether the merge engine compares the field at
// path (field names from the root) of kind's objects whole, never looking
// inside it: the field is an atomic list or map, or a scalar, and every
// field above it a granular map. Then what the field holds decides
// nothing but the field's own equality (whether a write changed it), and
// a caller that settles that equality itself may hand the merge engine a
// stand-in for the field's value (the CRD API's spec.versions:
// handler/fieldmanager.go). False for a TypeConverter that types objects
// by their content (NewDeducedTypeConverter), or a kind it does not know.
func AtomicField(tc TypeConverter, kind scheme.GroupVersionKind, path ...string) bool {
	c, ok := tc.(*typeConverter)
	if !ok || len(path) == 0 {
		return false
	}
	t, ok := c.kinds[kind]
	if !ok {
		return false
	}
	ref := t.TypeRef
	for _, name := range path {
		a, ok := t.Schema.Resolve(ref)
		if !ok || a.Map == nil || a.Map.ElementRelationship == schema.Atomic {
			return false
		}
		f, ok := a.Map.FindField(name)
		if !ok {
			return false
		}
		ref = f.Type
	}
	a, ok := t.Schema.Resolve(ref)
	switch {
	case !ok:
		return false
	case a.List != nil:
		return a.List.ElementRelationship == schema.Atomic
	case a.Map != nil:
		return a.Map.ElementRelationship == schema.Atomic
	default:
		return a.Scalar != nil
	}
}

// deducedTypeConverter types every object by its content.
type deducedTypeConverter struct{}

// NewDeducedTypeConverter returns a TypeConverter for objects without a
// schema: maps are granular, lists and scalars atomic.
//
// Mirrors NewDeducedTypeConverter in util/managedfields.
func NewDeducedTypeConverter() TypeConverter { return deducedTypeConverter{} }

func (deducedTypeConverter) ObjectToTyped(obj *unstructured.Unstructured, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	return typed.DeducedParseableType.FromUnstructured(obj.Object, opts...)
}

func (deducedTypeConverter) TypedToObject(tv *typed.TypedValue) (*unstructured.Unstructured, error) {
	return valueToObject(tv)
}

func valueToObject(tv *typed.TypedValue) (*unstructured.Unstructured, error) {
	m, ok := tv.AsValue().Unstructured().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("failed to convert value to unstructured for type %T", tv.AsValue().Unstructured())
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// NoCorrespondingTypeError says a TypeConverter has no type for a kind.
// The merge engine drops the managedFields entries of such versions (a
// version a CRD no longer has).
//
// Mirrors noCorrespondingTypeErr in versionconverter.go.
type NoCorrespondingTypeError struct {
	GVK scheme.GroupVersionKind
}

func (e *NoCorrespondingTypeError) Error() string {
	return fmt.Sprintf("no corresponding type for %v", e.GVK)
}
