package registry

import (
	"context"
	"fmt"
	"reflect"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// SetListItems puts items into list: an *unstructured.UnstructuredList, or
// a pointer to a struct with an Items field holding structs (or pointers to
// structs) of the items' type.
//
// Mirrors k8s.io/apimachinery/pkg/api/meta.SetList.
func SetListItems(list scheme.Object, items []storage.Object) error {
	if ul, ok := list.(*unstructured.UnstructuredList); ok {
		ul.Items = make([]unstructured.Unstructured, 0, len(items))
		for _, it := range items {
			u, ok := it.(*unstructured.Unstructured)
			if !ok {
				return fmt.Errorf("registry: %T in an UnstructuredList", it)
			}
			ul.Items = append(ul.Items, *u)
		}
		return nil
	}
	v := reflect.ValueOf(list)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("registry: list %T is not a pointer to a struct", list)
	}
	f := v.Elem().FieldByName("Items")
	if !f.IsValid() || f.Kind() != reflect.Slice {
		return fmt.Errorf("registry: list %T has no Items slice", list)
	}
	elem := f.Type().Elem()
	s := reflect.MakeSlice(f.Type(), 0, len(items))
	for _, it := range items {
		iv := reflect.ValueOf(it)
		switch {
		case iv.Type() == elem:
			s = reflect.Append(s, iv)
		case iv.Kind() == reflect.Pointer && iv.Elem().Type() == elem:
			s = reflect.Append(s, iv.Elem())
		default:
			return fmt.Errorf("registry: cannot put %T into %v", it, f.Type())
		}
	}
	f.Set(s)
	return nil
}

// setListMeta writes the revision, continue token and remaining count of a
// list page.
func setListMeta(list scheme.Object, rv, cont string, remaining *int64) error {
	lm, ok := list.(metav1.ListInterface)
	if !ok {
		return fmt.Errorf("registry: list %T has no list metadata", list)
	}
	lm.SetResourceVersion(rv)
	lm.SetContinue(cont)
	lm.SetRemainingItemCount(remaining)
	return nil
}

// StoredJSON is one item of an EncodedList: an object's stored JSON and
// its revision (storage.ObjectJSON; the handler reaches storage only
// through the registry).
type StoredJSON = storage.ObjectJSON

// MetadataOf returns the JSON of the metadata object of a listed object:
// o.Data itself when storage handed the metadata alone
// (WithEncodedMetadata: o.Metadata), else cut out of the stored bytes
// (storage.MetadataSpan). ok is false if it cannot be cut out: the caller
// decodes the object instead.
func MetadataOf(o StoredJSON) (meta []byte, ok bool) {
	if o.Metadata {
		return o.Data, true
	}
	start, end, ok := storage.MetadataSpan(o.Data)
	if !ok {
		return nil, false
	}
	return o.Data[start:end], true
}

// EncodedList is a page of a list read under WithEncodedItems: its items
// are the objects' stored JSON (storage.ObjectJSON), read-only, each
// written with AppendJSON. The handler writes them as they are, or
// decodes the few it must convert.
//
// A long page may come in two parts (storage.ListResult.Rest): Items, and
// Rest, which reads the items after them a chunk at a time, handing each
// to fn; their bytes are valid only until fn returns. The page is Items
// followed by what Rest hands out.
type EncodedList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata"`
	Items           []StoredJSON                                               `json:"-"`
	Rest            func(ctx context.Context, fn func(StoredJSON) error) error `json:"-"`
}

// DeepCopyObject returns a copy with its own items; their bytes are
// shared, read-only as they are, and so is Rest.
func (l *EncodedList) DeepCopyObject() scheme.Object {
	out := *l
	if n := l.RemainingItemCount; n != nil {
		c := *n
		out.RemainingItemCount = &c
	}
	out.Items = append([]StoredJSON(nil), l.Items...)
	return &out
}
