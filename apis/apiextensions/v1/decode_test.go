package v1

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/scheme"
)

// decodeBoth decodes data through SplitJSON (scheme.DecodeJSON) and with
// encoding/json alone, and fails t unless both give the same object or the
// same error. It reports whether SplitJSON took the document.
func decodeBoth(t *testing.T, name string, data []byte) bool {
	t.Helper()
	var fast, slow CustomResourceDefinition
	errFast := scheme.DecodeJSON(data, &fast, json.Unmarshal)
	errSlow := json.Unmarshal(data, &slow)
	if fmt.Sprint(errFast) != fmt.Sprint(errSlow) {
		t.Fatalf("%s: error %v, encoding/json's %v\n%s", name, errFast, errSlow, data)
	}
	if errSlow == nil && !reflect.DeepEqual(fast, slow) {
		f, _ := json.Marshal(fast)
		s, _ := json.Marshal(slow)
		t.Fatalf("%s: decoded\n%s\nencoding/json decodes\n%s\nfrom\n%s", name, f, s, data)
	}
	_, fill, ok := (&CustomResourceDefinition{}).SplitJSON(data)
	return ok && fill != nil
}

// crdWith is a CRD's JSON with the given schemas, one version each.
func crdWith(t *testing.T, schemas ...*JSONSchemaProps) []byte {
	crd := CustomResourceDefinition{Spec: CustomResourceDefinitionSpec{Group: "g.example.io", Scope: NamespaceScoped,
		Names: CustomResourceDefinitionNames{Plural: "as", Kind: "A"}}}
	crd.APIVersion, crd.Kind, crd.Name = "apiextensions.k8s.io/v1", "CustomResourceDefinition", "as.g.example.io"
	for i, s := range schemas {
		crd.Spec.Versions = append(crd.Spec.Versions, CustomResourceDefinitionVersion{Name: fmt.Sprintf("v%d", i+1),
			Served: true, Storage: i == 0, Schema: &CustomResourceValidation{OpenAPIV3Schema: s}})
	}
	b, err := json.Marshal(crd)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSplitJSON_SameObject checks that decoding a CRD through SplitJSON
// gives what encoding/json gives — the same object, or the same error —
// for generated provider CRDs, random schemas using every field,
// hand-picked edge cases (other spellings, repeated keys, nulls, wrong
// types) and random corruptions of a CRD's bytes; and that it takes what
// crdlab itself writes (so stored CRDs never need the slow way).
func TestSplitJSON_SameObject(t *testing.T) {
	for i := range 3 {
		data := crdgen.CRD(i, crdgen.Options{Group: "g.example.io", Bytes: 60 << 10, Versions: 2, Seed: 1})
		if !decodeBoth(t, fmt.Sprintf("generated CRD %d", i), data) {
			t.Errorf("generated CRD %d: SplitJSON did not take it", i)
		}
		var crd CustomResourceDefinition
		json.Unmarshal(data, &crd) //nolint:errcheck // checked above
		again, _ := json.Marshal(&crd)
		if !decodeBoth(t, fmt.Sprintf("generated CRD %d re-encoded", i), again) {
			t.Errorf("generated CRD %d re-encoded: SplitJSON did not take it", i)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	taken := 0
	for i := range 300 {
		s := randomSchema(r, 2)
		if decodeBoth(t, fmt.Sprintf("random schema %d", i), crdWith(t, s, randomSchema(r, 1))) {
			taken++
		}
		// Without what it leaves to encoding/json, SplitJSON takes it.
		dropSlowParts(s)
		if !decodeBoth(t, fmt.Sprintf("random schema %d without dependencies and item lists", i), crdWith(t, s)) {
			t.Errorf("random schema %d without dependencies and item lists: SplitJSON did not take it", i)
		}
	}
	t.Logf("SplitJSON took %d of 300 random schemas", taken)

	base := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"as.g.example.io"},` +
		`"spec":{"group":"g.example.io","scope":"Namespaced","names":{"plural":"as","kind":"A"},"versions":[` +
		`{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":SCHEMA}}]}}`
	for _, c := range []string{
		`{"type":"object","properties":{"a":{"type":"string","default":"x<y","enum":["a",null,{"b":[1, 2]}]}}}`,
		`{"type":"object","Properties":{"a":{"type":"string"}}}`,
		`{"type":"object","type":"string"}`,
		`{"type":5}`, `{"maxLength":1.5}`, `{"maxLength":"1"}`, `{"maximum":1e400}`, `{"maxLength":+1}`, `{"minimum":-0.0e+1}`,
		`{"items":[{"type":"string"}]}`, `{"items":true}`, `{"items":null}`, `{"items":{}}`,
		`{"additionalProperties":false}`, `{"additionalProperties":true}`, `{"additionalProperties":"no"}`, `{"additionalProperties":{}}`,
		`{"properties":null,"required":null,"enum":null}`, `{"properties":{},"required":[],"enum":[],"allOf":[]}`,
		`{"properties":{"a":null}}`, `{"properties":{"a":{},"a":{"type":"x"}}}`, `{"allOf":[null]}`, `{"required":["a",null]}`,
		`{"x-kubernetes-validations":[{"rule":"self > 0","reason":"FieldValueInvalid","optionalOldSelf":true,"fieldPath":".a"}]}`,
		`{"x-kubernetes-validations":[{"Rule":"self > 0"}]}`, `{"x-kubernetes-validations":null}`,
		`{"externalDocs":{"url":"u"}}`, `{"externalDocs":{"URL":"u"}}`, `{"externalDocs":null}`,
		`{"description":"esc \u00e9 \"q\" \\ \ud83d\ude00 \ud800"}`, `{"descr\u0069ption":"key escape"}`, `{"description":"bad \x01"}`,
		`{"x-kubernetes-validations":[{"ru\u006ce":"self > 0","message":"m","messageExpression":"'x'"}]}`,
		`{"x-kubernetes-validations":[{"rule":"x","type":"string"}]}`, `{"x-kubernetes-validations":[{"rule":"x","rule":"y"}]}`,
		`{"externalDocs":{"ur\u006c":"u","description":"d"}}`, `{"externalDocs":{"url":"u","type":"t"}}`,
		`{"rule":"self > 0"}`, `{"url":"u"}`, `{"message":"m","type":"object"}`, `{"typ\u0065":"object","n\u0075llable":true}`,
		`{"unknown":1}`, `{"dependencies":{"a":["b"]}}`, `{"default":nul}`, `{"default":{"a":}}`, `{"nullable":"true"}`,
		`{"x-kubernetes-preserve-unknown-fields":null,"$ref":null,"x-kubernetes-list-type":"map"}`,
		` { "type" : "object" , "properties" : { "a" : { "type" : "string" } } } `,
		`null`, `{}`, `[]`, `"s"`, `{"type":"object"`, `{"type":"object"}}`,
	} {
		decodeBoth(t, c, []byte(strings.Replace(base, "SCHEMA", c, 1)))
	}
	for _, doc := range []string{
		strings.Replace(base, `"spec"`, `"Spec"`, 1), strings.Replace(base, `"schema"`, `"Schema"`, 1),
		strings.Replace(base, `"openAPIV3Schema"`, `"openapiv3schema"`, 1), strings.Replace(base, `"versions"`, `"versi\u006fns"`, 1),
		strings.Replace(base, `"schema":{`, `"schema":{"openAPIV3Schema":{"type":"x"},`, 1),
		strings.Replace(base, `"versions":[`, `"versions":[null,`, 1), strings.Replace(base, `"versions":[`, `"versions":[{},`, 1),
		strings.Replace(base, `{"openAPIV3Schema":SCHEMA}`, `null`, 1), base + ` x`, base + `{}`, `[` + base + `]`,
	} {
		decodeBoth(t, doc, []byte(strings.Replace(doc, "SCHEMA", `{"type":"object"}`, 1)))
	}

	// Random corruptions: each byte change must give encoding/json's
	// answer too.
	data := crdWith(t, randomSchema(rand.New(rand.NewPCG(5, 6)), 2))
	const alphabet = `{}[]:,"\ 0123456789.eE+-ntrufals` + "\x00\xff"
	for i := range 2000 {
		b := bytes.Clone(data)
		for range 1 + r.IntN(3) {
			p := r.IntN(len(b))
			switch r.IntN(3) {
			case 0:
				b[p] = alphabet[r.IntN(len(alphabet))]
			case 1:
				b = append(b[:p], b[p+1:]...)
			default:
				b = append(b[:p], append([]byte{alphabet[r.IntN(len(alphabet))]}, b[p:]...)...)
			}
		}
		decodeBoth(t, fmt.Sprintf("corruption %d", i), b)
	}
}

// dropSlowParts removes what SplitJSON leaves to encoding/json from s and
// its subschemas: dependencies and items given as a list.
func dropSlowParts(s *JSONSchemaProps) {
	if s == nil {
		return
	}
	s.Dependencies = nil
	if s.Items != nil {
		if s.Items.Schema == nil {
			s.Items = nil
		} else {
			s.Items.JSONSchemas = nil
			dropSlowParts(s.Items.Schema)
		}
	}
	for _, l := range [][]JSONSchemaProps{s.AllOf, s.OneOf, s.AnyOf} {
		for i := range l {
			dropSlowParts(&l[i])
		}
	}
	dropSlowParts(s.Not)
	for _, m := range []map[string]JSONSchemaProps{s.Properties, s.PatternProperties, s.Definitions} {
		for k, v := range m {
			dropSlowParts(&v)
			m[k] = v
		}
	}
	for _, b := range []*JSONSchemaPropsOrBool{s.AdditionalProperties, s.AdditionalItems} {
		if b != nil {
			dropSlowParts(b.Schema)
		}
	}
}

// FuzzSkipString checks that skipString ends a string where stringEnd
// does, on any bytes after an opening quote (escapes, runs of
// backslashes, control bytes, no end).
func FuzzSkipString(f *testing.F) {
	for _, s := range []string{`"abc"`, `"a\"b"`, `"a\\"b"`, `"a\\\"b"`, `"\\\\"`, `"\`, `"\"`, `"\q"x"`, "\"\x01\xff\"", `"`, `""`, `"a\\\\\"\\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || data[0] != '"' {
			data = append([]byte{'"'}, data...)
		}
		want, _ := (&jsonReader{data: data}).stringEnd()
		if got := skipString(data, 0); got != want {
			t.Fatalf("%q: skipString %d, stringEnd %d", data, got, want)
		}
	})
}

// BenchmarkSpecSpan finds the spec of a real-size stored CRD (265 KiB,
// 2 versions), as the CRD storage codec does on every read and write.
func BenchmarkSpecSpan(b *testing.B) {
	data := crdgen.CRD(0, crdgen.Options{Bytes: 265 << 10, Versions: 2, Seed: 1})
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, ok := SpecSpan(data); !ok {
			b.Fatal("no spec")
		}
	}
}

func TestVersionsSpan(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string // want "" for not found
	}{
		{"OK", `{"kind":"x","spec":{"group":"g","versions":[{"name":"v1"}],"scope":"Namespaced"}}`, `[{"name":"v1"}]`},
		{"OKSpaces", `{ "spec" : { "versions" : [ ] } }`, `[ ]`},
		{"ErrNull", `{"spec":{"versions":null}}`, ""},
		{"ErrNoVersions", `{"spec":{"group":"g"}}`, ""},
		{"ErrNoSpec", `{"status":{"versions":[]}}`, ""},
		{"ErrSpecNotObject", `{"spec":[{"versions":[]}]}`, ""},
		{"ErrTwice", `{"spec":{"versions":[],"versions":[]}}`, ""},
		{"ErrOtherCase", `{"spec":{"Versions":[]}}`, ""},
		{"ErrTruncated", `{"spec":{"versions":[{"name":"v1"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start, end, ok := VersionsSpan([]byte(tc.data))
			got := ""
			if ok {
				got = tc.data[start:end]
			}
			if got != tc.want {
				t.Fatalf("VersionsSpan(%s) = %q, want %q", tc.data, got, tc.want)
			}
		})
	}
	// A generated CRD's versions, as written.
	crd := crdgen.CRD(0, crdgen.Options{Bytes: 64 << 10, Versions: 2, Seed: 1})
	start, end, ok := VersionsSpan(crd)
	if !ok {
		t.Fatal("no versions in a generated CRD")
	}
	var all struct {
		Spec struct {
			Versions json.RawMessage `json:"versions"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(crd, &all); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(crd[start:end], all.Spec.Versions) {
		t.Fatalf("VersionsSpan found %.100s…, encoding/json %.100s…", crd[start:end], all.Spec.Versions)
	}
}
