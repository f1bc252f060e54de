package tableconvertor_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/registry/customresource/tableconvertor"
	"github.com/crdlab/crdlab/scheme"
)

func TestConvertor_ConvertToTable(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	obj := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "a", "creationTimestamp": "2026-01-02T02:04:05Z"},
		"spec":     map[string]any{"replicas": int64(3), "ratio": 0.5, "on": true, "image": "x", "tags": []any{"a"}},
	}}
	for _, c := range []struct {
		name string
		cols []tableconvertor.PrinterColumn
		want string
	}{
		{"Age", nil, "[Name Age] [[a 60m]]"},
		{"Types", []tableconvertor.PrinterColumn{
			{Name: "R", Type: "integer", JSONPath: ".spec.replicas"},
			{Name: "Ratio", Type: "number", JSONPath: ".spec.ratio"},
			{Name: "On", Type: "boolean", JSONPath: ".spec.on"},
			{Name: "Image", Type: "string", JSONPath: ".spec.image"},
			{Name: "Tags", Type: "string", JSONPath: ".spec.tags"},
		}, `[Name R Ratio On Image Tags] [[a 3 0.5 true x ["a"]]]`},
		{"WrongTypeOrMissing", []tableconvertor.PrinterColumn{
			{Name: "R", Type: "boolean", JSONPath: ".spec.replicas"},
			{Name: "Gone", Type: "string", JSONPath: ".spec.gone"},
		}, "[Name R Gone] [[a <nil> <nil>]]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc, err := tableconvertor.New(c.cols, func() time.Time { return now })
			if err != nil {
				t.Fatal(err)
			}
			defs, rows, err := tc.ConvertToTable(context.Background(), []scheme.Object{obj})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, d := range defs {
				names = append(names, d.Name)
			}
			if got := fmt.Sprint(names, " ", rows); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
	t.Run("ErrBadJSONPath", func(t *testing.T) {
		if _, err := tableconvertor.New([]tableconvertor.PrinterColumn{{Name: "X", Type: "string", JSONPath: ".spec[["}}, time.Now); err == nil {
			t.Error("a bad JSONPath compiled")
		}
	})
}
