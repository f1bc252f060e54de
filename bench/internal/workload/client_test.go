package workload

import (
	"encoding/json"
	"testing"
)

func TestResourceVersion(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"apiVersion":"v1","metadata":{"name":"a","resourceVersion":"42"},"spec":{}}`, "42"},
		{`{"kind":"WidgetList","metadata":{"resourceVersion":"7"},"items":[{"metadata":{"resourceVersion":"5"}}]}`, "7"},
		{`{"type":"MODIFIED","object":{"metadata":{"resourceVersion":"9"}}}`, "9"},
		{`{"metadata":{}}`, ""},
	} {
		if got := resourceVersion([]byte(tc.in)); got != tc.want {
			t.Errorf("resourceVersion(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEventType(t *testing.T) {
	if got := eventType([]byte(`{"type":"MODIFIED","object":{}}`)); got != "MODIFIED" {
		t.Errorf("eventType = %q", got)
	}
	if got := eventType([]byte(`{}`)); got != "" {
		t.Errorf("eventType = %q", got)
	}
}

func TestCRD(t *testing.T) {
	c := NewCRD("widgets")
	if c.Kind != "Widget" || c.Name() != "widgets.bench.crdlab.dev" {
		t.Errorf("NewCRD = %+v, %s", c, c.Name())
	}
	if p := c.Path("ns"); p != "/apis/bench.crdlab.dev/v1/namespaces/ns/widgets" {
		t.Errorf("Path = %s", p)
	}
	for name, b := range map[string][]byte{"crd": c.JSON(), "object": c.Object("ns", "w-1", 3, "17")} {
		if !json.Valid(b) {
			t.Errorf("%s manifest is not valid JSON: %s", name, b)
		}
	}
	var obj struct {
		Metadata struct{ ResourceVersion string }
		Spec     struct{ Counter int }
	}
	if err := json.Unmarshal(c.Object("ns", "w-1", 3, "17"), &obj); err != nil || obj.Metadata.ResourceVersion != "17" || obj.Spec.Counter != 3 {
		t.Errorf("Object = %+v, %v", obj, err)
	}
}
