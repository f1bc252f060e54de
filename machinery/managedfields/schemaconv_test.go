package managedfields_test

import (
	"encoding/json"
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/schema"

	"github.com/crdlab/crdlab/machinery/managedfields"
)

// convertOne converts one model named "m" and returns its atom.
func convertOne(t *testing.T, js string, preserve bool) (*schema.Schema, schema.Atom) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	s, err := managedfields.ToSchemaFromOpenAPI(map[string]any{"m": m}, preserve)
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	a, ok := s.Resolve(schema.TypeRef{NamedType: ptr("m")})
	if !ok {
		t.Fatalf("%s: no type m", js)
	}
	return s, a
}

func ptr(s string) *string { return &s }

func field(t *testing.T, s *schema.Schema, a schema.Atom, name string) schema.Atom {
	t.Helper()
	if a.Map == nil {
		t.Fatalf("not a map: %+v", a)
	}
	f, ok := a.Map.FindField(name)
	if !ok {
		t.Fatalf("no field %q", name)
	}
	fa, ok := s.Resolve(f.Type)
	if !ok {
		t.Fatalf("field %q does not resolve", name)
	}
	return fa
}

func elemName(tr schema.TypeRef) string {
	if tr.NamedType != nil {
		return *tr.NamedType
	}
	if tr.Inlined == (schema.Atom{}) {
		return "none"
	}
	return "inlined"
}

func TestToSchemaFromOpenAPI(t *testing.T) {
	t.Run("Lists", func(t *testing.T) {
		for _, c := range []struct {
			schema string
			rel    schema.ElementRelationship
			keys   string
		}{
			{`{"type":"array","items":{"type":"string"}}`, schema.Atomic, ""},
			{`{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"atomic"}`, schema.Atomic, ""},
			{`{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"set"}`, schema.Associative, ""},
			{`{"type":"array","items":{"type":"object"},"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name","port"]}`, schema.Associative, "name,port"},
			{`{"type":"array","items":{"type":"object"},"x-kubernetes-patch-strategy":"merge","x-kubernetes-patch-merge-key":"uid"}`, schema.Associative, "uid"},
			{`{"type":"array","items":{"type":"string"},"x-kubernetes-patch-strategy":"merge"}`, schema.Associative, ""},
			{`{"type":"array","items":{"type":"string"},"x-kubernetes-patch-strategy":"retainKeys"}`, schema.Atomic, ""},
			// The list type wins over the patch strategy.
			{`{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"atomic","x-kubernetes-patch-strategy":"merge"}`, schema.Atomic, ""},
		} {
			_, a := convertOne(t, c.schema, false)
			if a.List == nil || a.List.ElementRelationship != c.rel || strings.Join(a.List.Keys, ",") != c.keys {
				t.Errorf("%s: got %+v, want %s keyed by %q", c.schema, a.List, c.rel, c.keys)
			}
		}
	})
	t.Run("Maps", func(t *testing.T) {
		for _, c := range []struct {
			schema   string
			preserve bool
			rel      schema.ElementRelationship
			elem     string
		}{
			{`{"type":"object","properties":{"a":{"type":"string"}}}`, false, "", "none"},
			{`{"type":"object"}`, false, "", "__untyped_deduced_"},
			{`{"type":"object","properties":{"a":{"type":"string"}},"x-kubernetes-preserve-unknown-fields":true}`, false, "", "__untyped_deduced_"},
			{`{"type":"object","properties":{"a":{"type":"string"}}}`, true, "", "__untyped_deduced_"},
			{`{"type":"object","additionalProperties":true}`, false, "", "__untyped_deduced_"},
			{`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, false, "", "none"},
			{`{"type":"object","additionalProperties":{"type":"string"}}`, false, "", "inlined"},
			{`{"type":"object","additionalProperties":{"type":"string"},"x-kubernetes-map-type":"granular"}`, false, schema.Separable, "inlined"},
			{`{"type":"object","additionalProperties":{"type":"string"},"x-kubernetes-map-type":"atomic"}`, false, schema.Atomic, "inlined"},
		} {
			_, a := convertOne(t, c.schema, c.preserve)
			if a.Map == nil || a.Map.ElementRelationship != c.rel || elemName(a.Map.ElementType) != c.elem {
				t.Errorf("%s (preserve %v): got %+v, want %q with elements %s", c.schema, c.preserve, a.Map, c.rel, c.elem)
			}
		}
	})
	t.Run("PreserveUnknownFieldsHoldsBelow", func(t *testing.T) {
		s, a := convertOne(t, `{"type":"object","x-kubernetes-preserve-unknown-fields":true,
			"properties":{"inner":{"type":"object","properties":{"a":{"type":"string"}}}}}`, false)
		inner := field(t, s, a, "inner")
		if elemName(inner.Map.ElementType) != "__untyped_deduced_" {
			t.Fatalf("inner object's unknown fields: %s, want deduced", elemName(inner.Map.ElementType))
		}
		s, a = convertOne(t, `{"type":"object","properties":{"inner":{"type":"object","properties":{"a":{"type":"string"}}},
			"free":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}`, false)
		if inner := field(t, s, a, "inner"); elemName(inner.Map.ElementType) != "none" {
			t.Fatal("a sibling's x-kubernetes-preserve-unknown-fields leaked")
		}
	})
	t.Run("Scalars", func(t *testing.T) {
		for _, c := range []struct {
			schema string
			scalar schema.Scalar
			other  bool // also a list and a map
		}{
			{`{"type":"integer"}`, schema.Numeric, false},
			{`{"type":"number"}`, schema.Numeric, false},
			{`{"type":"boolean"}`, schema.Boolean, false},
			{`{"type":"string"}`, schema.String, false},
			{`{"type":"string","format":"byte"}`, schema.String, false},
			{`{"type":"string","format":"date-time"}`, "untyped", false},
			{`{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}`, "untyped", true},
		} {
			_, a := convertOne(t, c.schema, false)
			if a.Scalar == nil || *a.Scalar != c.scalar || (a.List != nil) != c.other || (a.Map != nil) != c.other {
				t.Errorf("%s: got %+v, want scalar %s", c.schema, a, c.scalar)
			}
		}
	})
	t.Run("Refs", func(t *testing.T) {
		models := map[string]any{}
		_ = json.Unmarshal([]byte(`{
			"a": {"type":"object","properties":{
				"direct": {"$ref":"#/components/schemas/b"},
				"wrapped": {"allOf":[{"$ref":"#/components/schemas/b"}],"description":"d","x-kubernetes-map-type":"atomic"}}},
			"b": {"type":"object","properties":{"x":{"type":"string"}}},
			"alias": {"$ref":"#/components/schemas/b"},
			"io.k8s.apimachinery.pkg.api.resource.Quantity": {"type":"string"}}`), &models)
		s, err := managedfields.ToSchemaFromOpenAPI(models, false)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := s.Resolve(schema.TypeRef{NamedType: ptr("a")})
		d, _ := a.Map.FindField("direct")
		w, _ := a.Map.FindField("wrapped")
		if elemName(d.Type) != "b" || elemName(w.Type) != "b" || w.Type.ElementRelationship == nil || *w.Type.ElementRelationship != schema.Atomic {
			t.Fatalf("direct %+v, wrapped %+v", d.Type, w.Type)
		}
		if _, ok := s.Resolve(schema.TypeRef{NamedType: ptr("alias")}); ok {
			t.Fatal("a model that is only a $ref became a type")
		}
		q, _ := s.Resolve(schema.TypeRef{NamedType: ptr("io.k8s.apimachinery.pkg.api.resource.Quantity")})
		if q.Scalar == nil || *q.Scalar != "untyped" || q.List != nil || q.Map != nil {
			t.Fatalf("Quantity: %+v, want an untyped scalar", q)
		}
	})
	t.Run("Errors", func(t *testing.T) {
		for _, c := range []struct{ schema, want string }{
			{`{"type":"array","items":{"type":"object"},"x-kubernetes-list-type":"map"}`, "missing map keys"},
			{`{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"bag"}`, "unknown list type bag"},
			{`{"type":"object","x-kubernetes-map-type":"loose"}`, "unknown map type loose"},
			{`{"type":"array"}`, "`items` must be specified on arrays"},
			{`{"type":"array","items":[{"type":"string"}]}`, "structural schema arrays must have exactly one member subtype"},
			{`{"type":"tuple"}`, "unrecognized type: 'tuple'"},
		} {
			var m map[string]any
			_ = json.Unmarshal([]byte(c.schema), &m)
			_, err := managedfields.ToSchemaFromOpenAPI(map[string]any{"m": m}, false)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: got %v, want an error with %q", c.schema, err, c.want)
			}
		}
	})
}
