package jsonpath_test

import (
	"testing"

	"github.com/crdlab/crdlab/machinery/jsonpath"
)

// FuzzParse checks that Parse and Execute never panic, and that String is
// a fixed point: what an expression prints parses back to the same text.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		".spec.replicas", "{.metadata.labels.app}", `.metadata.annotations['example\.com/x']`,
		`.a["k"]`, ".status.conditions[0].type", ".spec.items[*].name", ".a[1:3:2]", ".a[-1]",
		`..name`, `.a[?(@.type=="Ready")].status`, `.a[?(@.n>=1e3)]`, `.a[?(@)]`, "$", ".", "{", "[",
		`.a\`, `.a[?(@.x==@.y)]`, ".*", "..*", `.a[?(@..b)]`,
	} {
		f.Add(s)
	}
	obj := map[string]any{
		"a":    []any{map[string]any{"type": "Ready", "n": int64(3), "x": "1", "y": "1", "b": []any{nil, 1.5}}, "s", nil},
		"spec": map[string]any{"replicas": int64(1), "items": []any{map[string]any{"name": "n"}}},
	}
	f.Fuzz(func(t *testing.T, expr string) {
		p, err := jsonpath.Parse(expr)
		if err != nil {
			return
		}
		again, err := jsonpath.Parse(p.String())
		if err != nil {
			t.Fatalf("Parse(%q) printed %q, which does not parse: %v", expr, p.String(), err)
		}
		if again.String() != p.String() {
			t.Fatalf("Parse(%q): %q reparsed as %q", expr, p.String(), again.String())
		}
		_, _ = p.Execute(obj)
		_, _ = p.ExecuteValue(nil)
	})
}
