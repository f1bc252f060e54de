package differential

import (
	"encoding/json"
	"reflect"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// TestGenerator: minimal objects fill required fields with values that
// meet their type, enum, pattern and bounds; full ones fill every field;
// bounds ones break every bound.
func TestGenerator(t *testing.T) {
	var schema apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{"spec":{"type":"object","required":["mode","path","port"],
	 "properties":{
	  "mode":{"type":"string","enum":["Fast","Slow"]},
	  "path":{"type":"string","pattern":"^/","maxLength":8},
	  "port":{"type":"integer","minimum":1024,"maximum":65535},
	  "hosts":{"type":"array","maxItems":2,"x-kubernetes-list-type":"set","items":{"type":"string"}},
	  "when":{"type":"string","format":"date-time"},
	  "template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}}}`), &schema); err != nil {
		t.Fatal(err)
	}
	g := generator{root: &schema}
	for _, c := range []struct {
		mode genMode
		want map[string]any
	}{
		{modeMinimal, map[string]any{"mode": "Fast", "path": "/", "port": int64(1024)}},
		{modeFull, map[string]any{"mode": "Fast", "path": "/", "port": int64(1024), "hosts": []any{"a"}, "when": "2026-01-01T00:00:00Z",
			"template": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "embedded"}, "anything": map[string]any{"goes": "here"}}}},
		{modeBounds, map[string]any{"mode": "NotAnEnumValue", "path": "aaaaaaaaa", "port": int64(65536), "hosts": []any{"a", "ab", "ac"}, "when": "not-a-date-time",
			"template": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "embedded"}, "anything": map[string]any{"goes": "here"}}}},
	} {
		got := g.object(c.mode)["spec"]
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("mode %d:\n got %#v\nwant %#v", c.mode, got, c.want)
		}
	}
	o := changed(map[string]any{"apiVersion": "a/v1", "metadata": map[string]any{"name": "x"}, "spec": map[string]any{"s": "v", "n": int64(1), "b": true, "l": []any{"x"}}})
	if want := map[string]any{"s": "v-changed", "n": int64(2), "b": false, "l": []any{"x-changed"}}; !reflect.DeepEqual(o["spec"], want) || o["metadata"].(map[string]any)["name"] != "x" {
		t.Errorf("changed: %v", o)
	}

	// vary stays within the schema: the enum's next value, a pattern's
	// other candidate, a number inside its bounds.
	full := g.object(modeFull)
	full["metadata"] = map[string]any{"name": "n"}
	v := vary(&schema, full, true).(map[string]any)
	want := map[string]any{"mode": "Slow", "path": "/b", "port": int64(1025), "hosts": []any{"ab"}, "when": "2026-01-01T00:00:00Z",
		"template": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "embedded"}, "anything": map[string]any{"goes": "here"}}}
	if !reflect.DeepEqual(v["spec"], want) || v["metadata"].(map[string]any)["name"] != "n" {
		t.Errorf("vary:\n got %#v\nwant %#v", v["spec"], want)
	}
}
