package managedfields

import (
	"encoding/json"
	"fmt"
	"testing"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// The identifier cache answers what marshalling and unmarshalling would,
// and stops growing at maxIdentifiers.
func TestIdentifierCache(t *testing.T) {
	entries := []metav1.ManagedFieldsEntry{
		{Manager: "kubectl-client-side-apply", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "stable.example.com/v1"},
		{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "stable.example.com/v1"},
		{Manager: "controller", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Subresource: "status"},
		{Manager: `a "quoted" \ manager`, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1"},
	}
	for _, e := range entries {
		for range 2 { // built, then cached
			id, err := BuildManagerIdentifier(&e)
			if err != nil {
				t.Fatal(err)
			}
			want := e
			if want.Operation == metav1.ManagedFieldsOperationApply {
				want.APIVersion = ""
			}
			b, _ := json.Marshal(&want)
			if id != string(b) {
				t.Errorf("identifier of %+v = %s, want %s", e, id, b)
			}
			got, err := parseIdentifier(id)
			if err != nil || got != want {
				t.Errorf("parseIdentifier(%s) = %+v, %v; want %+v", id, got, err, want)
			}
		}
	}
	for i := range 2 * maxIdentifiers {
		if _, err := BuildManagerIdentifier(&metav1.ManagedFieldsEntry{Manager: fmt.Sprintf("m%d", i), Operation: metav1.ManagedFieldsOperationUpdate}); err != nil {
			t.Fatal(err)
		}
	}
	identifiers.mu.RLock()
	n, m := len(identifiers.ids), len(identifiers.entries)
	identifiers.mu.RUnlock()
	if n != maxIdentifiers || m != maxIdentifiers {
		t.Errorf("cache holds %d identifiers and %d entries, want %d", n, m, maxIdentifiers)
	}
	// Past the bound, identifiers are still built and read.
	e := metav1.ManagedFieldsEntry{Manager: "late", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1"}
	id, err := BuildManagerIdentifier(&e)
	if got, perr := parseIdentifier(id); err != nil || perr != nil || got != e {
		t.Errorf("past the bound: %s %+v %v %v", id, got, err, perr)
	}
}
