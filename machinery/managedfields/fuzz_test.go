package managedfields_test

import (
	"testing"
	"unicode/utf8"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/machinery/managedfields"
)

// FuzzDecodeManagedFields feeds arbitrary field sets to the decoder: it
// must refuse or accept them without panicking, and what it accepts must
// encode and decode to the same sets.
func FuzzDecodeManagedFields(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"f:spec":{"f:replicas":{}}}`, `{"f:spec":{".":{},"f:ports":{"k:{\"name\":\"a\"}":{".":{},"f:port":{}}}}}`,
		`{"f:set":{"v:\"x\"":{},"v:1":{}}}`, `{"f:list":{"i:0":{}}}`, `[]`, `{"f:a":1}`, `{"k:{":{}}`,
	} {
		f.Add(s, "kubectl", "Apply")
	}
	f.Fuzz(func(t *testing.T, raw, manager, op string) {
		if !utf8.ValidString(manager) || !utf8.ValidString(op) {
			return // JSON turns them into U+FFFD: another identifier, as upstream's
		}
		in := []metav1.ManagedFieldsEntry{{Manager: manager, Operation: metav1.ManagedFieldsOperationType(op),
			APIVersion: "example.com/v1", FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(raw)}}}
		m, err := managedfields.DecodeManagedFields(in)
		if err != nil {
			return
		}
		out, err := managedfields.EncodeManagedFields(m)
		if err != nil {
			t.Fatalf("encode after a good decode: %v", err)
		}
		again, err := managedfields.DecodeManagedFields(out)
		if err != nil {
			t.Fatalf("decode of what was encoded: %v", err)
		}
		for id, vs := range m.Fields {
			if !again.Fields[id].Set().Equals(vs.Set()) {
				t.Fatalf("set of %s changed in a round trip: %s", id, out[0].FieldsV1.Raw)
			}
		}
	})
}
