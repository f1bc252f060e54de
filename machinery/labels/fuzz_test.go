package labels_test

import (
	"testing"

	"github.com/crdlab/crdlab/machinery/labels"
)

// FuzzParse checks that Parse never panics and that String is a fixed point:
// what a selector prints parses back to a selector that prints the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "x", "!x", "x=a,y!=b", "x in (a,,b)", "x notin ()", "x>1,y<-2",
		"example.com/app==web", "x in (a", "x,,", "!x=a", "in in (in)", "x=(", "a/b/c",
		"x in (,)", "  \t", "x==a==b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := labels.Parse(s)
		if err != nil {
			return
		}
		again, err := labels.Parse(sel.String())
		if err != nil {
			t.Fatalf("Parse(%q) printed %q, which does not parse: %v", s, sel.String(), err)
		}
		if again.String() != sel.String() {
			t.Fatalf("Parse(%q): %q reparsed as %q", s, sel.String(), again.String())
		}
		sel.Matches(map[string]string{"x": "a", "y": "1"})
		sel.Matches(nil)
	})
}
