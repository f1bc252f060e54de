package v2

import (
	"encoding/binary"
	"encoding/json"
	"reflect"
	"testing"
)

func TestSchema(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"Ref", `{"$ref":"#/components/schemas/a.B"}`, `{"$ref":"#/definitions/a.B"}`},
		{"AllOfRefWithDescription", `{"allOf":[{"$ref":"#/components/schemas/a.B"}],"description":"d","default":{}}`,
			`{"$ref":"#/definitions/a.B","description":"d","default":{}}`},
		{"NullableLosesTypeAndRequired", `{"type":"object","required":["a","b"],"properties":{"a":{"type":"string","nullable":true},"b":{"type":"string"}}}`,
			`{"type":"object","required":["b"],"properties":{"a":{},"b":{"type":"string"}}}`},
		{"IntOrString", `{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}`, `{"x-kubernetes-int-or-string":true}`},
		{"PreserveUnknown", `{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"a":{"type":"string"}}}`,
			`{"x-kubernetes-preserve-unknown-fields":true}`},
		{"ArrayWithoutItems", `{"type":"array"}`, `{}`},
		// As upstream's addEmbeddedProperties with V2: an embedded resource
		// that preserves unknown fields gets no apiVersion, kind and
		// metadata, and does not require them.
		{"EmbeddedPreserveUnknown", `{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"required":["spec","kind","apiVersion"],
			"properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"spec":{"type":"object"}}}`,
			`{"x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"required":["spec"]}`},
		{"Nested", `{"type":"array","items":{"type":"object","additionalProperties":{"oneOf":[{"type":"string"}],"type":"string"}}}`,
			`{"type":"array","items":{"type":"object","additionalProperties":{"type":"string"}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var in, want any
			must(t, json.Unmarshal([]byte(tc.in), &in))
			must(t, json.Unmarshal([]byte(tc.want), &want))
			if got := Schema(in); !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				t.Errorf("got %s, want %s", g, tc.want)
			}
		})
	}
	t.Run("KindPreservingUnknownIsAnObject", func(t *testing.T) {
		var in any
		must(t, json.Unmarshal([]byte(`{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"apiVersion":{"type":"string"}},
			"x-kubernetes-group-version-kind":[{"group":"g","version":"v1","kind":"K"}]}`), &in))
		got, _ := json.Marshal(Definition(in))
		if string(got) != `{"type":"object","x-kubernetes-group-version-kind":[{"group":"g","kind":"K","version":"v1"}]}` {
			t.Errorf("got %s", got)
		}
	})
}

func TestFromV3(t *testing.T) {
	v3 := `{"openapi":"3.0.0","paths":{"/api/v1/namespaces/{namespace}/configmaps/{name}":{
	  "parameters":[{"name":"name","in":"path","required":true,"schema":{"type":"string","uniqueItems":true}}],
	  "patch":{"operationId":"patchCoreV1NamespacedConfigMap","parameters":[{"name":"fieldValidation","in":"query","schema":{"type":"string","uniqueItems":true}}],
	    "requestBody":{"content":{"application/merge-patch+json":{"schema":{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch"}}},"required":true},
	    "responses":{"200":{"description":"OK","content":{"application/json":{"schema":{"$ref":"#/components/schemas/io.k8s.api.core.v1.ConfigMap"}}}}},
	    "x-kubernetes-action":"patch","x-kubernetes-group-version-kind":{"group":"","version":"v1","kind":"ConfigMap"}}}},
	  "components":{"schemas":{"io.k8s.api.core.v1.ConfigMap":{"type":"object"}}}}`
	d, err := FromV3("v1.37.0", []byte(v3))
	must(t, err)
	got, _ := json.Marshal(d.Paths["/api/v1/namespaces/{namespace}/configmaps/{name}"])
	want := `{"parameters":[{"in":"path","name":"name","required":true,"type":"string","uniqueItems":true}],` +
		`"patch":{"consumes":["application/merge-patch+json"],"operationId":"patchCoreV1NamespacedConfigMap",` +
		`"parameters":[{"in":"query","name":"fieldValidation","type":"string","uniqueItems":true},` +
		`{"in":"body","name":"body","required":true,"schema":{"$ref":"#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch"}}],` +
		`"produces":["application/json"],"responses":{"200":{"description":"OK","schema":{"$ref":"#/definitions/io.k8s.api.core.v1.ConfigMap"}}},` +
		`"x-kubernetes-action":"patch","x-kubernetes-group-version-kind":{"group":"","kind":"ConfigMap","version":"v1"}}}`
	if string(got) != want {
		t.Errorf("path:\n got %s\nwant %s", got, want)
	}
	if d.Swagger != "2.0" || d.Definitions["io.k8s.api.core.v1.ConfigMap"] == nil {
		t.Errorf("document %+v", d)
	}
}

// field is one decoded protobuf field.
type field struct {
	num   int
	value []byte // length-delimited payload or raw varint/fixed bytes
	v     uint64
}

// fields decodes one message level, failing the test on malformed input.
func fields(t *testing.T, b []byte) []field {
	t.Helper()
	var out []field
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			t.Fatalf("bad key")
		}
		b = b[n:]
		f := field{num: int(key >> 3)}
		switch key & 7 {
		case 0:
			f.v, n = binary.Uvarint(b)
			b = b[n:]
		case 1:
			f.v, b = binary.LittleEndian.Uint64(b), b[8:]
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || int(l) > len(b[n:]) {
				t.Fatalf("bad length")
			}
			f.value, b = b[n:n+int(l)], b[n+int(l):]
		default:
			t.Fatalf("wire type %d", key&7)
		}
		out = append(out, f)
	}
	return out
}

func first(t *testing.T, fs []field, num int) field {
	t.Helper()
	for _, f := range fs {
		if f.num == num {
			return f
		}
	}
	t.Fatalf("no field %d", num)
	return field{}
}

// The encoding follows gnostic's OpenAPIv2.proto field numbers: walk a
// document down to a property's type and an extension's YAML.
func TestToProto(t *testing.T) {
	d := &Document{Swagger: "2.0", Info: Info{Title: "Kubernetes", Version: "v1.37.0"}, Paths: map[string]map[string]any{},
		Definitions: map[string]any{"io.k8s.api.core.v1.Secret": map[string]any{
			"type":                            "object",
			"properties":                      map[string]any{"data": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string", "format": "byte"}}},
			"x-kubernetes-group-version-kind": []any{map[string]any{"group": "", "version": "v1", "kind": "Secret"}},
		}}}
	b, err := ToProto(d)
	must(t, err)
	doc := fields(t, b)
	if string(first(t, doc, 1).value) != "2.0" {
		t.Error("swagger")
	}
	defs := fields(t, first(t, doc, 9).value)        // Definitions
	named := fields(t, first(t, defs, 1).value)      // NamedSchema
	schema := fields(t, first(t, named, 2).value)    // Schema
	typ := fields(t, first(t, schema, 22).value)     // TypeItem
	props := fields(t, first(t, schema, 25).value)   // Properties
	dataNamed := fields(t, first(t, props, 1).value) // NamedSchema "data"
	data := fields(t, first(t, dataNamed, 2).value)  // Schema
	ap := fields(t, first(t, data, 21).value)        // AdditionalPropertiesItem
	apSchema := fields(t, first(t, ap, 1).value)     // Schema
	ext := fields(t, first(t, schema, 31).value)     // NamedAny
	anyValue := fields(t, first(t, ext, 2).value)    // Any
	if string(first(t, named, 1).value) != "io.k8s.api.core.v1.Secret" || string(first(t, typ, 1).value) != "object" ||
		string(first(t, dataNamed, 1).value) != "data" || string(first(t, apSchema, 2).value) != "byte" ||
		string(first(t, ext, 1).value) != "x-kubernetes-group-version-kind" ||
		string(first(t, anyValue, 2).value) != `[{"group":"","kind":"Secret","version":"v1"}]` {
		t.Error("the encoding does not follow OpenAPIv2.proto")
	}
	again, _ := ToProto(d)
	if string(again) != string(b) {
		t.Error("two encodings of one document differ")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
