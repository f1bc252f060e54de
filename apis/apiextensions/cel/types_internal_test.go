package cel

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/internal/crdgen"
)

// TestTypeDecls_SameAsRegisteringEveryField: the types the provider
// knows, and the names maybeAssignTypeName gives, are what they were when
// every field was visited (scalars too), for a real-size CRD's schema and
// one with maps and lists of objects.
func TestTypeDecls_SameAsRegisteringEveryField(t *testing.T) {
	var crd apiextensionsv1.CustomResourceDefinition
	if err := json.Unmarshal(crdgen.CRD(1, crdgen.Options{Group: "g.example.io", Bytes: 64 << 10, Versions: 1, Seed: 2}), &crd); err != nil {
		t.Fatal(err)
	}
	real, err := json.Marshal(crd.Spec.Versions[0].Schema.OpenAPIV3Schema)
	if err != nil {
		t.Fatal(err)
	}
	for name, js := range map[string][]byte{
		"crdgen": real,
		"maps and lists": []byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{
			"m":{"type":"object","additionalProperties":{"type":"object","properties":{"a":{"type":"string"},"l":{"type":"array","items":{"type":"integer"}}}}},
			"l":{"type":"array","items":{"type":"object","properties":{"b":{"type":"boolean"},"m":{"type":"object","additionalProperties":{"type":"string"}}}}},
			"s":{"type":"string"}}}}}`),
	} {
		t.Run(name, func(t *testing.T) {
			s, err := structural.FromJSON(js)
			if err != nil {
				t.Fatal(err)
			}
			root := SchemaDeclType(s, true)
			got, want := root.maybeAssignTypeName("selfType1"), everyFieldAssign(root, "selfType1")
			if gd, wd := typeDecls(got), everyFieldDecls(want); !reflect.DeepEqual(gd, wd) {
				t.Errorf("%d types registered, want %d (or they differ)", len(gd), len(wd))
			}
			if len(typeDecls(got)) < 3 {
				t.Errorf("only %d types registered: the schema has nested ones", len(typeDecls(got)))
			}
		})
	}
}

// everyFieldAssign is maybeAssignTypeName as it was, visiting scalars.
func everyFieldAssign(t *DeclType, name string) *DeclType {
	switch {
	case t.isObject():
		updated := false
		if t.name != "object" {
			name = t.name
		} else {
			updated = true
		}
		fields := make(map[string]*DeclField, len(t.Fields))
		for fn, f := range t.Fields {
			ft := everyFieldAssign(f.Type, name+"."+fn)
			if ft != f.Type {
				updated = true
				f = &DeclField{Name: fn, Type: ft, Required: f.Required}
			}
			fields[fn] = f
		}
		if !updated {
			return t
		}
		out := newObjectType(name, fields)
		out.MinSerializedSize = t.MinSerializedSize
		return out
	case t.isMap():
		elem := everyFieldAssign(t.ElemType, name+".@elem")
		if elem == t.ElemType {
			return t
		}
		return newMapType(t.KeyType, elem, t.MaxElements)
	case t.isList():
		elem := everyFieldAssign(t.ElemType, name+".@idx")
		if elem == t.ElemType {
			return t
		}
		return newListType(elem, t.MaxElements)
	}
	return t
}

// everyFieldDecls is the provider's registration as it was.
func everyFieldDecls(root *DeclType) map[string]*DeclType {
	decls := map[string]*DeclType{}
	var register func(path string, t *DeclType)
	register = func(path string, t *DeclType) {
		switch {
		case t.isObject():
			decls[t.name] = t
			for name, f := range t.Fields {
				register(path+"."+name, f.Type)
			}
		case t.isMap():
			register(path+".@elem", t.ElemType)
			decls[path] = t
		case t.isList():
			register(path+".@idx", t.ElemType)
			decls[path] = t
		}
	}
	register(root.name, root)
	return decls
}
