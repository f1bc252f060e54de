package unstructured_test

import (
	"encoding/json"
	"testing"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

func TestUnstructured_ManagedFields(t *testing.T) {
	t.Run("AbsentIsNilEmptyIsNotNil", func(t *testing.T) {
		u := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{}}}
		if got := u.GetManagedFields(); got != nil {
			t.Fatalf("absent: %v, want nil", got)
		}
		u.Object["metadata"].(map[string]any)["managedFields"] = []any{}
		if got := u.GetManagedFields(); got == nil || len(got) != 0 {
			t.Fatalf("[]: %#v, want an empty non-nil slice", got)
		}
	})
	t.Run("MalformedIsNil", func(t *testing.T) {
		for _, v := range []any{"x", []any{"x"}, []any{map[string]any{"manager": 1}}, []any{map[string]any{"time": "yesterday"}}} {
			u := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"managedFields": v}}}
			if got := u.GetManagedFields(); got != nil {
				t.Fatalf("%v: %v, want nil", v, got)
			}
		}
	})
	t.Run("RoundTripsAsTheTypedEncodingDoes", func(t *testing.T) {
		tm := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
		in := []metav1.ManagedFieldsEntry{
			{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "example.com/v1", Time: &tm,
				FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:replicas":{}}}`)}},
			{Manager: "kubelet", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Subresource: "status",
				FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`["odd"]`)}},
		}
		u := &unstructured.Unstructured{Object: map[string]any{}}
		u.SetManagedFields(in)
		got, err := u.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		wantTyped, _ := json.Marshal(map[string]any{"metadata": map[string]any{"managedFields": in}})
		var v any
		_ = json.Unmarshal(wantTyped, &v)
		want, _ := json.Marshal(v) // keys sorted, as AppendJSON writes them
		if string(got) != string(want) {
			t.Fatalf("encoded\n%s\nwant\n%s", got, want)
		}
		back := u.GetManagedFields()
		b1, _ := json.Marshal(back)
		b2, _ := json.Marshal(in)
		if string(b1) != string(b2) {
			t.Fatalf("read back\n%s\nwant\n%s", b1, b2)
		}
		u.SetManagedFields(nil)
		if _, ok := u.Object["metadata"].(map[string]any)["managedFields"]; ok {
			t.Fatal("SetManagedFields(nil) left the field")
		}
	})
}
