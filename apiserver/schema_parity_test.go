package apiserver

import (
	"encoding/json"
	"strings"
	"testing"
)

// twoVersionCRD has v1 (served, not storage) and v2 (served, storage):
// only v2 defaults spec.mode, only v1 declares spec.legacy, and
// spec.selector is a non-nullable object with a non-nullable map inside.
const twoVersionCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.parity.example.com"},
"spec":{"group":"parity.example.com","scope":"Namespaced","names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
"versions":[
 {"name":"v1","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{
   "mode":{"type":"string"},"legacy":{"type":"string"},
   "config":{"x-kubernetes-preserve-unknown-fields":true},
   "selector":{"type":"object","properties":{"matchLabels":{"type":"object","additionalProperties":{"type":"string"}}}}}}}}}},
 {"name":"v2","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{
   "mode":{"type":"string","default":"fast"},
   "config":{"x-kubernetes-preserve-unknown-fields":true},
   "selector":{"type":"object","properties":{"matchLabels":{"type":"object","additionalProperties":{"type":"string"}}}}}}}}}}]}}`

// TestServer_SchemaParity covers issue 18's schema items, as upstream
// behaves: a type-less preserve-unknown-fields node is structural (1); a
// null for a non-nullable field is dropped before validation (2); the
// storage version's defaults are applied when reading from storage, and
// what only another version declares does not survive conversion (4).
func TestServer_SchemaParity(t *testing.T) {
	ts := startServer(t, Config{})
	if code := post(t, ts.url+crdsPath, twoVersionCRD); code != 201 {
		t.Fatalf("CRD with a type-less x-kubernetes-preserve-unknown-fields node: %d, want 201", code)
	}
	const v1 = "/apis/parity.example.com/v1/namespaces/default/widgets"
	const v2 = "/apis/parity.example.com/v2/namespaces/default/widgets"
	eventually(t, "widgets served", func() bool { code, _ := get(t, ts.url+v1); return code == 200 })

	spec := func(body string) map[string]any {
		t.Helper()
		var o struct{ Spec map[string]any }
		if err := json.Unmarshal([]byte(body), &o); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		return o.Spec
	}
	specJSON := func(body string) string {
		b, _ := json.Marshal(spec(body))
		return string(b)
	}

	t.Run("NullPrunedBeforeValidation", func(t *testing.T) {
		code, body := call(t, nil, "POST", ts.url+v2, "", `{"apiVersion":"parity.example.com/v2","kind":"Widget","metadata":{"name":"nulls"},
			"spec":{"selector":{"matchLabels":null},"config":{"kept":null}}}`)
		if code != 201 {
			t.Fatalf("POST: %d %s", code, body)
		}
		if got, want := specJSON(body), `{"config":{"kept":null},"mode":"fast","selector":{}}`; got != want {
			t.Errorf("spec %s, want %s", got, want)
		}
	})

	t.Run("StorageDefaultsOnRead", func(t *testing.T) {
		code, body := call(t, nil, "POST", ts.url+v1, "", `{"apiVersion":"parity.example.com/v1","kind":"Widget","metadata":{"name":"a"},"spec":{"legacy":"x"}}`)
		if code != 201 {
			t.Fatalf("POST v1: %d %s", code, body)
		}
		// Written through v1 (no default there), stored in v2 (which does
		// not know legacy), read back with v2's defaults.
		if got, want := specJSON(body), `{"mode":"fast"}`; got != want {
			t.Errorf("create response spec %s, want %s", got, want)
		}
		for _, path := range []string{v1 + "/a", v2 + "/a"} {
			if code, body := get(t, ts.url+path); code != 200 || specJSON(body) != `{"mode":"fast"}` {
				t.Errorf("GET %s: %d %s", path, code, body)
			}
		}
	})

	t.Run("RequestVersionDefaultsOnWrite", func(t *testing.T) {
		code, body := call(t, nil, "POST", ts.url+v2, "", `{"apiVersion":"parity.example.com/v2","kind":"Widget","metadata":{"name":"b"},"spec":{}}`)
		if code != 201 || !strings.Contains(body, `"mode":"fast"`) {
			t.Errorf("POST v2: %d %s", code, body)
		}
	})
}
