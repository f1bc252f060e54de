package customresource

import (
	"slices"
	"testing"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

func withFinalizers(fs ...string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "a"}}}
	u.SetFinalizers(fs)
	return u
}

// TestFinalizerWarnings: upstream warns about finalizer names without a
// domain and a path, on create and for the ones an update adds (issue 18).
func TestFinalizerWarnings(t *testing.T) {
	s := strategy{}
	got := s.WarningsOnCreate(t.Context(), withFinalizers("example.com/ok", "kubernetes", "orphan", "plain", "a.b", "bad name"))
	want := []string{
		`metadata.finalizers: "a.b": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`,
		`metadata.finalizers: "bad name": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
		`metadata.finalizers: "bad name": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
		`metadata.finalizers: "plain": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("create:\n got %q\nwant %q", got, want)
	}
	got = s.WarningsOnUpdate(t.Context(), withFinalizers("plain", "new"), withFinalizers("plain"))
	want = []string{`metadata.finalizers: "new": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`}
	if !slices.Equal(got, want) {
		t.Errorf("update:\n got %q\nwant %q", got, want)
	}
}
