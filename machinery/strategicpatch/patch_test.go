package strategicpatch_test

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	"github.com/crdlab/crdlab/machinery/strategicpatch"
)

// patchCase is one case of testdata/cases.json: a patch of an object of
// a core/v1 kind and its result (or an error). The e2e module's
// TestStrategicMergePatchCorpus checks every result against upstream's
// strategicpatch.StrategicMergeMapPatch with k8s.io/api's types.
type patchCase struct {
	Name     string          `json:"name"`
	Type     string          `json:"type"`
	Original json.RawMessage `json:"original"`
	Patch    json.RawMessage `json:"patch"`
	Want     json.RawMessage `json:"want"`
	Error    string          `json:"error"`
}

func loadCases(t *testing.T) []patchCase {
	t.Helper()
	b, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []patchCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// decode reads JSON with numbers as json.Number, to compare documents.
func decode(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

func schemaOf(t *testing.T, kind string) strategicpatch.LookupPatchMeta {
	t.Helper()
	var v any
	switch kind {
	case "ConfigMap":
		v = &corev1.ConfigMap{}
	case "Namespace":
		v = &corev1.Namespace{}
	default:
		t.Fatalf("no type %q", kind)
	}
	s, err := strategicpatch.NewPatchMetaFromStruct(v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStrategicMergePatch_Cases applies the corpus with crdlab's core/v1
// types (whose tags are upstream's).
func TestStrategicMergePatch_Cases(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			got, err := strategicpatch.StrategicMergePatch(c.Original, c.Patch, schemaOf(t, c.Type))
			if c.Error != "" {
				if err == nil || !strings.Contains(err.Error(), c.Error) {
					t.Fatalf("error %v, want one containing %q (result %s)", err, c.Error, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g, w := decode(t, got), decode(t, c.Want); !reflect.DeepEqual(g, w) {
				t.Errorf("got  %s\nwant %s", got, c.Want)
			}
		})
	}
}

// TestStrategicMergePatch_Errors covers the format errors the server
// answers with 400 and input upstream panics on.
func TestStrategicMergePatch_Errors(t *testing.T) {
	cm := schemaOf(t, "ConfigMap")
	original := []byte(`{"metadata":{"name":"c","finalizers":["a"],"ownerReferences":[{"uid":"1","name":"a"}]},"data":{"a":"1"}}`)
	for _, tc := range []struct {
		name, patch string
		badFormat   bool
	}{
		{"NotAnObject", `[1]`, true},
		{"NotJSON", `{"data":`, true},
		{"TrailingData", `{} {}`, true},
		{"RetainKeysNotAList", `{"data":{"$retainKeys":"a"}}`, true},
		{"RetainKeysOfObjects", `{"data":{"$retainKeys":[{"a":1}]}}`, true},
		{"SetElementOrderMalformed", `{"metadata":{"$setElementOrderX/finalizers":["a"]}}`, true},
		{"ListOfLists", `{"metadata":{"finalizers":[["a"]]}}`, false},
		{"NullElements", `{"metadata":{"finalizers":[null]}}`, false},
		{"MergeDirectiveInAList", `{"metadata":{"ownerReferences":[{"$patch":"merge"}]}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := strategicpatch.StrategicMergePatch(original, []byte(tc.patch), cm)
			if err == nil {
				t.Fatalf("no error; result %s", got)
			}
			if strategicpatch.IsBadFormat(err) != tc.badFormat {
				t.Errorf("IsBadFormat(%v) = %v, want %v", err, !tc.badFormat, tc.badFormat)
			}
		})
	}
}

// TestStrategicMergePatch_MergeKeyIsAnObject: upstream's == panics on
// two object merge keys; here they are never equal, so the element is
// added (and the server's decoding then refuses a uid that is no string).
func TestStrategicMergePatch_MergeKeyIsAnObject(t *testing.T) {
	original := []byte(`{"metadata":{"ownerReferences":[{"uid":{"x":1},"name":"a"}]}}`)
	got, err := strategicpatch.StrategicMergePatch(original, []byte(`{"metadata":{"ownerReferences":[{"uid":{"x":1},"name":"b"}]}}`), schemaOf(t, "ConfigMap"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"metadata":{"ownerReferences":[{"name":"b","uid":{"x":1}},{"name":"a","uid":{"x":1}}]}}`; string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestPatchMetaFromStruct_Lookup reads upstream's tags from crdlab's
// types, through embedded structs and pointers.
func TestPatchMetaFromStruct_Lookup(t *testing.T) {
	ns := schemaOf(t, "Namespace")
	meta, pm, err := ns.LookupPatchMetadataForStruct("metadata")
	if err != nil {
		t.Fatal(err)
	}
	if _, pm, err = meta.LookupPatchMetadataForSlice("ownerReferences"); err != nil || pm.MergeKey != "uid" || pm.Strategies[0] != "merge" {
		t.Errorf("ownerReferences: %+v, %v", pm, err)
	}
	if _, pm, err = meta.LookupPatchMetadataForSlice("finalizers"); err != nil || pm.MergeKey != "" || pm.Strategies[0] != "merge" {
		t.Errorf("finalizers: %+v, %v", pm, err)
	}
	if _, pm, err = meta.LookupPatchMetadataForSlice("managedFields"); err != nil || pm.Strategies[0] != "" {
		t.Errorf("managedFields (replaced whole): %+v, %v", pm, err)
	}
	if _, _, err = ns.LookupPatchMetadataForStruct("apiVersion"); err != nil {
		t.Errorf("apiVersion of the inline TypeMeta: %v", err)
	}
	if _, _, err = ns.LookupPatchMetadataForStruct("Metadata"); err != nil {
		t.Errorf("a name in another case: %v", err)
	}
	if _, _, err = ns.LookupPatchMetadataForStruct("nope"); err == nil {
		t.Error("an unknown field has metadata")
	}
	if _, _, err = ns.LookupPatchMetadataForSlice("metadata"); err == nil {
		t.Error("metadata looked up as a list")
	}
	if _, err := strategicpatch.NewPatchMetaFromStruct("string"); err == nil {
		t.Error("a string has struct metadata")
	}
}
