package unstructured

import (
	"fmt"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// GetManagedFields returns metadata.managedFields: nil if absent or
// malformed (an item that is not an entry), a non-nil empty slice for
// "managedFields: []" — upstream tells the two apart (an empty list resets
// the field, an absent one keeps it).
//
// Mirrors (*Unstructured).GetManagedFields in apimachinery.
func (u *Unstructured) GetManagedFields() []metav1.ManagedFieldsEntry {
	raw, ok, _ := NestedFieldNoCopy(u.Object, "metadata", "managedFields")
	if !ok {
		return nil
	}
	items, ok := raw.([]any)
	if !ok {
		return nil
	}
	out := make([]metav1.ManagedFieldsEntry, 0, len(items))
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return nil
		}
		e, err := entryFromMap(m)
		if err != nil {
			return nil
		}
		out = append(out, e)
	}
	return out
}

// SetManagedFields sets metadata.managedFields; nil removes it.
func (u *Unstructured) SetManagedFields(entries []metav1.ManagedFieldsEntry) {
	if entries == nil {
		RemoveNestedField(u.Object, "metadata", "managedFields")
		return
	}
	items := make([]any, 0, len(entries))
	for i := range entries {
		items = append(items, entryToMap(&entries[i]))
	}
	u.setField(items, "metadata", "managedFields")
}

// entryFromMap reads one entry without a trip through encoding/json: it
// runs on every write.
func entryFromMap(m map[string]any) (metav1.ManagedFieldsEntry, error) {
	var e metav1.ManagedFieldsEntry
	str := func(key string) (string, error) {
		v, ok := m[key]
		if !ok || v == nil {
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("managedFields: %s must be a string, not %T", key, v)
		}
		return s, nil
	}
	var err error
	var op, t string
	for key, dst := range map[string]*string{"manager": &e.Manager, "operation": &op, "apiVersion": &e.APIVersion,
		"fieldsType": &e.FieldsType, "subresource": &e.Subresource, "time": &t} {
		if *dst, err = str(key); err != nil {
			return e, err
		}
	}
	e.Operation = metav1.ManagedFieldsOperationType(op)
	if t != "" {
		pt, err := time.Parse(time.RFC3339, t)
		if err != nil {
			return e, fmt.Errorf("managedFields: time: %w", err)
		}
		e.Time = &metav1.Time{Time: pt.Local()}
	}
	if f, ok := m["fieldsV1"]; ok && f != nil {
		b, err := AppendJSON(nil, f)
		if err != nil {
			return e, err
		}
		e.FieldsV1 = &metav1.FieldsV1{Raw: b}
	}
	return e, nil
}

// entryToMap writes one entry as encoding/json would, omitting empty
// fields.
func entryToMap(e *metav1.ManagedFieldsEntry) map[string]any {
	m := make(map[string]any, 7)
	set := func(key, v string) {
		if v != "" {
			m[key] = v
		}
	}
	set("manager", e.Manager)
	set("operation", string(e.Operation))
	set("apiVersion", e.APIVersion)
	set("fieldsType", e.FieldsType)
	set("subresource", e.Subresource)
	if e.Time != nil {
		if e.Time.IsZero() {
			m["time"] = nil
		} else {
			m["time"] = e.Time.UTC().Format(time.RFC3339)
		}
	}
	if e.FieldsV1 != nil {
		var v any
		if e.FieldsV1.Raw != nil {
			// Any JSON value, kept as the typed field keeps it (a set
			// that is not an object is refused later, when decoded).
			wrapped := append(append([]byte(`{"v":`), e.FieldsV1.Raw...), '}')
			if obj, err := DecodeJSONObject(wrapped); err == nil {
				v = obj["v"]
			}
		}
		m["fieldsV1"] = v
	}
	return m
}
