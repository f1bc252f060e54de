package unstructured

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

// Unstructured is an object held as the JSON map it came in as. Custom
// resources live as Unstructured all the way from the request body to
// storage and back: crdlab has no Go type for them.
//
// Values in Object are JSON types only: map[string]any, []any, string,
// int64 (whole numbers), float64, bool and nil.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1/unstructured.Unstructured.
type Unstructured struct {
	Object map[string]any
}

var (
	_ scheme.Object        = (*Unstructured)(nil)
	_ metav1.RuntimeObject = (*Unstructured)(nil)
)

// GetObjectKind returns the object itself: it reads and writes its own
// apiVersion and kind.
func (u *Unstructured) GetObjectKind() scheme.ObjectKind { return u }

// DeepCopyObject returns a deep copy.
func (u *Unstructured) DeepCopyObject() scheme.Object { return u.DeepCopy() }

// DeepCopy returns a deep copy.
func (u *Unstructured) DeepCopy() *Unstructured {
	if u == nil {
		return nil
	}
	if u.Object == nil {
		return &Unstructured{}
	}
	return &Unstructured{Object: deepcopy.CopyJSON(u.Object).(map[string]any)}
}

// GroupVersionKind parses apiVersion and kind.
func (u *Unstructured) GroupVersionKind() scheme.GroupVersionKind {
	return scheme.FromAPIVersionAndKind(u.GetAPIVersion(), u.GetKind())
}

// SetGroupVersionKind sets apiVersion and kind.
func (u *Unstructured) SetGroupVersionKind(gvk scheme.GroupVersionKind) {
	av, k := gvk.ToAPIVersionAndKind()
	u.SetAPIVersion(av)
	u.SetKind(k)
}

func (u *Unstructured) GetAPIVersion() string  { return getString(u.Object, "apiVersion") }
func (u *Unstructured) SetAPIVersion(v string) { u.setField(v, "apiVersion") }
func (u *Unstructured) GetKind() string        { return getString(u.Object, "kind") }
func (u *Unstructured) SetKind(v string)       { u.setField(v, "kind") }

// MarshalJSON writes the map.
func (u *Unstructured) MarshalJSON() ([]byte, error) { return AppendJSON(nil, u.Object) }

// AppendJSON appends the object's JSON (what MarshalJSON returns) to dst.
func (u *Unstructured) AppendJSON(dst []byte) ([]byte, error) { return AppendJSON(dst, u.Object) }

// UnmarshalJSON reads a JSON object; whole numbers become int64.
func (u *Unstructured) UnmarshalJSON(b []byte) error {
	m, err := DecodeJSONObject(b)
	if err != nil {
		return err
	}
	u.Object = m
	return nil
}

// ErrNotAnObject says a JSON document is not an object.
var ErrNotAnObject = errors.New("the document is not a JSON object")

// DecodeJSONObject parses a JSON object into JSON types, with whole numbers
// as int64 and others as float64, as upstream's unstructured decoding does.
// Trailing data after the object and numbers out of float64's range are
// errors (upstream's convertNumber refuses them too): they could not be
// encoded again.
func DecodeJSONObject(b []byte) (map[string]any, error) {
	if m, ok := decodeObjectFast(b); ok {
		return m, nil
	}
	return decodeJSONObject(b)
}

// decodeJSONObject is DecodeJSONObject through encoding/json: the
// reference decodeObjectFast must agree with, and the path that words the
// errors.
func decodeJSONObject(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the top-level object")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, ErrNotAnObject
	}
	if _, err := convertNumbers(m); err != nil {
		return nil, err
	}
	return m, nil
}

func convertNumbers(v any) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			c, err := convertNumbers(e)
			if err != nil {
				return nil, err
			}
			v[k] = c
		}
		return v, nil
	case []any:
		for i, e := range v {
			c, err := convertNumbers(e)
			if err != nil {
				return nil, err
			}
			v[i] = c
		}
		return v, nil
	case json.Number:
		if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return i, nil
		}
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			var ne *strconv.NumError
			if errors.As(err, &ne) {
				err = ne.Err // ParseFloat's message repeats the whole number
			}
			return nil, fmt.Errorf("number %s: %w", abbreviateNumber(string(v)), err)
		}
		return f, nil
	default:
		return v, nil
	}
}

// abbreviateNumber keeps error messages short for numbers of a million
// digits.
func abbreviateNumber(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

func (u *Unstructured) setField(value any, fields ...string) {
	if u.Object == nil {
		u.Object = map[string]any{}
	}
	_ = SetNestedField(u.Object, value, fields...)
}

func getString(obj map[string]any, fields ...string) string {
	s, _, _ := NestedString(obj, fields...)
	return s
}

func (u *Unstructured) setMetaString(name, v string) {
	if v == "" {
		RemoveNestedField(u.Object, "metadata", name)
		return
	}
	u.setField(v, "metadata", name)
}

func (u *Unstructured) GetNamespace() string  { return getString(u.Object, "metadata", "namespace") }
func (u *Unstructured) SetNamespace(v string) { u.setMetaString("namespace", v) }
func (u *Unstructured) GetName() string       { return getString(u.Object, "metadata", "name") }
func (u *Unstructured) SetName(v string)      { u.setMetaString("name", v) }
func (u *Unstructured) GetGenerateName() string {
	return getString(u.Object, "metadata", "generateName")
}
func (u *Unstructured) SetGenerateName(v string) { u.setMetaString("generateName", v) }
func (u *Unstructured) GetUID() metav1.UID       { return metav1.UID(getString(u.Object, "metadata", "uid")) }
func (u *Unstructured) SetUID(v metav1.UID)      { u.setMetaString("uid", string(v)) }
func (u *Unstructured) GetResourceVersion() string {
	return getString(u.Object, "metadata", "resourceVersion")
}
func (u *Unstructured) SetResourceVersion(v string) { u.setMetaString("resourceVersion", v) }
func (u *Unstructured) GetGeneration() int64 {
	v, _, _ := NestedInt64(u.Object, "metadata", "generation")
	return v
}
func (u *Unstructured) SetGeneration(v int64) {
	if v == 0 {
		RemoveNestedField(u.Object, "metadata", "generation")
		return
	}
	u.setField(v, "metadata", "generation")
}

func (u *Unstructured) GetCreationTimestamp() metav1.Time {
	var t metav1.Time
	_ = t.UnmarshalJSON([]byte(strconv.Quote(getString(u.Object, "metadata", "creationTimestamp"))))
	return t
}
func (u *Unstructured) SetCreationTimestamp(t metav1.Time) {
	if t.IsZero() {
		RemoveNestedField(u.Object, "metadata", "creationTimestamp")
		return
	}
	u.setField(formatTime(t), "metadata", "creationTimestamp")
}

func (u *Unstructured) GetDeletionTimestamp() *metav1.Time {
	s := getString(u.Object, "metadata", "deletionTimestamp")
	if s == "" {
		return nil
	}
	var t metav1.Time
	if err := t.UnmarshalJSON([]byte(strconv.Quote(s))); err != nil {
		return nil
	}
	return &t
}
func (u *Unstructured) SetDeletionTimestamp(t *metav1.Time) {
	if t == nil {
		RemoveNestedField(u.Object, "metadata", "deletionTimestamp")
		return
	}
	u.setField(formatTime(*t), "metadata", "deletionTimestamp")
}

func formatTime(t metav1.Time) string {
	b, _ := t.MarshalJSON()
	s, _ := strconv.Unquote(string(b))
	return s
}

func (u *Unstructured) GetDeletionGracePeriodSeconds() *int64 {
	v, ok, _ := NestedInt64(u.Object, "metadata", "deletionGracePeriodSeconds")
	if !ok {
		return nil
	}
	return &v
}
func (u *Unstructured) SetDeletionGracePeriodSeconds(v *int64) {
	if v == nil {
		RemoveNestedField(u.Object, "metadata", "deletionGracePeriodSeconds")
		return
	}
	u.setField(*v, "metadata", "deletionGracePeriodSeconds")
}

func (u *Unstructured) GetLabels() map[string]string {
	m, _, _ := NestedStringMap(u.Object, "metadata", "labels")
	return m
}
func (u *Unstructured) SetLabels(v map[string]string) { u.setStringMap("labels", v) }
func (u *Unstructured) GetAnnotations() map[string]string {
	m, _, _ := NestedStringMap(u.Object, "metadata", "annotations")
	return m
}
func (u *Unstructured) SetAnnotations(v map[string]string) { u.setStringMap("annotations", v) }

func (u *Unstructured) setStringMap(name string, v map[string]string) {
	if v == nil {
		RemoveNestedField(u.Object, "metadata", name)
		return
	}
	m := make(map[string]any, len(v))
	for k, s := range v {
		m[k] = s
	}
	u.setField(m, "metadata", name)
}

func (u *Unstructured) GetFinalizers() []string {
	s, _, _ := NestedStringSlice(u.Object, "metadata", "finalizers")
	return s
}
func (u *Unstructured) SetFinalizers(v []string) {
	if v == nil {
		RemoveNestedField(u.Object, "metadata", "finalizers")
		return
	}
	s := make([]any, len(v))
	for i, f := range v {
		s[i] = f
	}
	u.setField(s, "metadata", "finalizers")
}

func (u *Unstructured) GetOwnerReferences() []metav1.OwnerReference {
	raw, ok, _ := NestedFieldNoCopy(u.Object, "metadata", "ownerReferences")
	if !ok {
		return nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil
	}
	var refs []metav1.OwnerReference
	_ = json.Unmarshal(b, &refs)
	return refs
}
func (u *Unstructured) SetOwnerReferences(refs []metav1.OwnerReference) {
	if refs == nil {
		RemoveNestedField(u.Object, "metadata", "ownerReferences")
		return
	}
	b, _ := json.Marshal(refs)
	var s []any
	_ = json.Unmarshal(b, &s)
	u.setField(s, "metadata", "ownerReferences")
}

// UnstructuredList is a list of Unstructured, with the list's own fields
// (apiVersion, kind, metadata) in Object.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1/unstructured.UnstructuredList.
type UnstructuredList struct {
	Object map[string]any
	Items  []Unstructured
}

var _ scheme.Object = (*UnstructuredList)(nil)

func (l *UnstructuredList) GetObjectKind() scheme.ObjectKind { return l }

func (l *UnstructuredList) DeepCopyObject() scheme.Object {
	out := &UnstructuredList{}
	if l.Object != nil {
		out.Object = deepcopy.CopyJSON(l.Object).(map[string]any)
	}
	for i := range l.Items {
		out.Items = append(out.Items, *l.Items[i].DeepCopy())
	}
	return out
}

func (l *UnstructuredList) GroupVersionKind() scheme.GroupVersionKind {
	return scheme.FromAPIVersionAndKind(getString(l.Object, "apiVersion"), getString(l.Object, "kind"))
}

func (l *UnstructuredList) SetGroupVersionKind(gvk scheme.GroupVersionKind) {
	if l.Object == nil {
		l.Object = map[string]any{}
	}
	av, k := gvk.ToAPIVersionAndKind()
	l.Object["apiVersion"], l.Object["kind"] = av, k
}

func (l *UnstructuredList) GetResourceVersion() string {
	return getString(l.Object, "metadata", "resourceVersion")
}
func (l *UnstructuredList) SetResourceVersion(v string) { l.setMeta("resourceVersion", v) }
func (l *UnstructuredList) GetContinue() string         { return getString(l.Object, "metadata", "continue") }
func (l *UnstructuredList) SetContinue(v string)        { l.setMeta("continue", v) }
func (l *UnstructuredList) GetRemainingItemCount() *int64 {
	v, ok, _ := NestedInt64(l.Object, "metadata", "remainingItemCount")
	if !ok {
		return nil
	}
	return &v
}
func (l *UnstructuredList) SetRemainingItemCount(v *int64) {
	if l.Object == nil {
		l.Object = map[string]any{}
	}
	if v == nil {
		RemoveNestedField(l.Object, "metadata", "remainingItemCount")
		return
	}
	_ = SetNestedField(l.Object, *v, "metadata", "remainingItemCount")
}

func (l *UnstructuredList) setMeta(name, v string) {
	if l.Object == nil {
		l.Object = map[string]any{}
	}
	if v == "" {
		RemoveNestedField(l.Object, "metadata", name)
		return
	}
	_ = SetNestedField(l.Object, v, "metadata", name)
}

// MarshalJSON writes the list's fields with "items".
func (l *UnstructuredList) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(l.Object)+1)
	for k, v := range l.Object {
		m[k] = v
	}
	if _, ok := m["metadata"]; !ok {
		m["metadata"] = map[string]any{}
	}
	items := make([]any, len(l.Items))
	for i := range l.Items {
		items[i] = l.Items[i].Object
	}
	m["items"] = items
	return AppendJSON(nil, m)
}

// UnmarshalJSON reads a list document.
func (l *UnstructuredList) UnmarshalJSON(b []byte) error {
	m, err := DecodeJSONObject(b)
	if err != nil {
		return err
	}
	items, _ := m["items"].([]any)
	delete(m, "items")
	l.Object = m
	l.Items = l.Items[:0]
	for i, it := range items {
		obj, ok := it.(map[string]any)
		if !ok {
			return fmt.Errorf("items[%d] is not an object", i)
		}
		l.Items = append(l.Items, Unstructured{Object: obj})
	}
	return nil
}
