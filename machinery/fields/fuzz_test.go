package fields_test

import (
	"testing"

	"github.com/crdlab/crdlab/machinery/fields"
)

// FuzzParse checks that ParseSelector never panics and that what a
// selector prints parses back to a selector that prints the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "a=b", "a==b", "a!=b", "a=b,c!=d", `a=b\,c`, `a=\\`, `a=\`, "a", ",,", "a!==b",
		`x\=y=z`, "=", "!=", "metadata.name=web,metadata.namespace=default",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := fields.ParseSelector(s)
		if err != nil {
			return
		}
		again, err := fields.ParseSelector(sel.String())
		if err != nil {
			t.Fatalf("ParseSelector(%q) printed %q, which does not parse: %v", s, sel.String(), err)
		}
		if again.Matches(map[string]string{"a": "b"}) != sel.Matches(map[string]string{"a": "b"}) {
			t.Fatalf("ParseSelector(%q): %q and its reparse %q disagree", s, sel.String(), again.String())
		}
		sel.RequiresExactMatch("a")
	})
}
