package e2e

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// TestStrategicMergePatchCorpus applies the corpus crdlab's
// machinery/strategicpatch tests with (its testdata/cases.json) with
// upstream's strategicpatch.StrategicMergeMapPatch and k8s.io/api's types,
// decoded as kube-apiserver decodes a patch (integers kept), and checks
// that upstream gives every result (or error) the corpus says: so crdlab's
// results, checked against the same file, are upstream's.
func TestStrategicMergePatchCorpus(t *testing.T) {
	b, err := os.ReadFile("../machinery/strategicpatch/testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name, Type, Error     string
		Original, Patch, Want json.RawMessage
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 20 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var original, patch map[string]any
			if err := utiljson.Unmarshal(c.Original, &original); err != nil {
				t.Fatal(err)
			}
			if err := utiljson.Unmarshal(c.Patch, &patch); err != nil {
				t.Fatal(err)
			}
			var dataStruct any
			switch c.Type {
			case "ConfigMap":
				dataStruct = &corev1.ConfigMap{}
			case "Namespace":
				dataStruct = &corev1.Namespace{}
			default:
				t.Fatalf("no type %q", c.Type)
			}
			out, err := strategicpatch.StrategicMergeMapPatch(original, patch, dataStruct)
			if c.Error != "" {
				if err == nil || !strings.Contains(err.Error(), c.Error) {
					t.Fatalf("upstream: error %v, the corpus wants one containing %q", err, c.Error)
				}
				return
			}
			if err != nil {
				t.Fatalf("upstream: %v", err)
			}
			got, err := json.Marshal(out)
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			if err := utiljson.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			if err := utiljson.Unmarshal(c.Want, &w); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, w) {
				t.Errorf("upstream gives %s\nthe corpus wants %s", got, c.Want)
			}
		})
	}
}
