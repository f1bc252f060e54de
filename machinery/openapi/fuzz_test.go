package openapi_test

import (
	"encoding/json"
	"testing"

	"github.com/crdlab/crdlab/machinery/openapi"
)

// FuzzBuildGroupVersion checks that any schema either is rejected or gives
// a valid JSON document.
func FuzzBuildGroupVersion(f *testing.F) {
	for _, s := range []string{cronTabSchema, ``, `null`, `{}`, `[]`, `{"properties":null}`, `{"properties":{"metadata":1}}`, `{"type":`} {
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, schema []byte, namespaced bool) {
		r := cronTab
		r.SchemaJSON, r.Namespaced = schema, namespaced
		doc, err := openapi.BuildGroupVersion(r.Group, r.Version, []openapi.Resource{r})
		if err != nil {
			return
		}
		if !json.Valid(doc) {
			t.Fatalf("invalid JSON for schema %q", schema)
		}
	})
}
