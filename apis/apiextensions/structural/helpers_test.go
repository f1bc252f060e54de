package structural_test

import (
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/apis/validation/field"
)

func mustSchema(t testing.TB, js string) *structural.Structural {
	t.Helper()
	s, err := structural.FromJSON([]byte(js))
	if err != nil {
		t.Fatalf("FromJSON: %v", err)
	}
	return s
}

func mustObject(t testing.TB, js string) map[string]any {
	t.Helper()
	m, err := unstructured.DecodeJSONObject([]byte(js))
	if err != nil {
		t.Fatalf("DecodeJSONObject(%s): %v", js, err)
	}
	return m
}

func errorStrings(errs field.ErrorList) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}

func checkErrors(t *testing.T, got field.ErrorList, want []string) {
	t.Helper()
	g := errorStrings(got)
	if strings.Join(g, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n got: %q\nwant: %q", g, want)
	}
}

// cronTabSchema exercises every kind of check Validate makes.
const cronTabSchema = `{
  "type": "object",
  "properties": {
    "spec": {
      "type": "object",
      "required": ["cronSpec"],
      "properties": {
        "cronSpec": {"type": "string", "pattern": "^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$"},
        "image":    {"type": "string", "minLength": 3, "maxLength": 10},
        "replicas": {"type": "integer", "minimum": 1, "maximum": 10, "default": 1},
        "ratio":    {"type": "number", "minimum": 0, "exclusiveMinimum": true, "multipleOf": 0.5},
        "mode":     {"type": "string", "enum": ["a", "b"]},
        "port":     {"x-kubernetes-int-or-string": true},
        "when":     {"type": "string", "format": "date-time"},
        "note":     {"type": "string", "nullable": true},
        "tags":     {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2, "x-kubernetes-list-type": "set"},
        "ports": {
          "type": "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
          "items": {
            "type": "object",
            "required": ["name"],
            "properties": {
              "name":     {"type": "string"},
              "port":     {"type": "integer"},
              "protocol": {"type": "string", "default": "TCP"}
            }
          }
        },
        "labels":   {"type": "object", "additionalProperties": {"type": "string", "maxLength": 3}},
        "template": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}
      }
    },
    "status": {
      "type": "object",
      "x-kubernetes-preserve-unknown-fields": true,
      "properties": {
        "conditions": {"type": "array", "items": {"type": "object", "properties": {"type": {"type": "string"}}}}
      }
    }
  }
}`
