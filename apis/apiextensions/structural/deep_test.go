package structural_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	"github.com/crdlab/crdlab/apis/validation/field"
)

// deepJSON returns a schema nested n objects deep ({"a": {"a": … string}})
// and an object that follows it, with a violation at the bottom.
func deepJSON(n int) (schema, obj string) {
	var s, o strings.Builder
	for range n {
		s.WriteString(`{"type":"object","properties":{"a":`)
		o.WriteString(`{"a":`)
	}
	s.WriteString(`{"type":"string","maxLength":1}`)
	o.WriteString(`"too long"`)
	for range n {
		s.WriteString(`}}`)
		o.WriteString(`}`)
	}
	return s.String(), o.String()
}

// allocated is how many bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestDeepSchema is issue 21's finding 7: a CRD nested 3,000 levels made
// the server allocate gigabytes, because every level rebuilt its path as a
// string (quadratic). Paths are now links rendered only for an error, so
// reading, checking, pruning, defaulting and validating stay linear: a few
// kilobytes per level.
func TestDeepSchema(t *testing.T) {
	const depth = 3000
	const budget = 8 << 20 // bytes per step; the old code took 9 to 250 MB
	schemaJSON, objJSON := deepJSON(depth)
	var s *structural.Structural
	var err error
	if n := allocated(func() { s, err = structural.FromJSON([]byte(schemaJSON)) }); n > budget {
		t.Errorf("FromJSON allocated %d MB", n>>20)
	}
	if err != nil {
		t.Fatal(err)
	}
	root := &structural.Structural{Type: "object", Properties: map[string]*structural.Structural{"spec": s}}
	pth := field.NewPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema")
	if n := allocated(func() { err = errorsOf(structural.ValidateStructural(pth, root)) }); n > budget || err != nil {
		t.Errorf("ValidateStructural allocated %d MB, errors %v", n>>20, err)
	}
	if n := allocated(func() { err = errorsOf(structural.ValidateDefaults(pth, root, true, true)) }); n > budget || err != nil {
		t.Errorf("ValidateDefaults allocated %d MB, errors %v", n>>20, err)
	}

	obj := mustObject(t, `{"spec":`+objJSON+`}`)
	if n := allocated(func() { structural.Prune(root, obj, true) }); n > budget {
		t.Errorf("Prune allocated %d MB", n>>20)
	}
	if n := allocated(func() { structural.Default(root, obj) }); n > budget {
		t.Errorf("Default allocated %d MB", n>>20)
	}
	var errs field.ErrorList
	if n := allocated(func() { errs = structural.Validate(root, obj) }); n > budget {
		t.Errorf("Validate allocated %d MB", n>>20)
	}
	// The one violation, at the bottom, still has its whole path.
	if want := "spec" + strings.Repeat(".a", depth) + ": Too long: may not be more than 1 byte"; len(errs) != 1 || errs[0].Error() != want {
		t.Errorf("errors: %d, first %.200v…", len(errs), errs)
	}
}

func errorsOf(errs field.ErrorList) error { return errs.ToAggregate() }
