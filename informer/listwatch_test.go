package informer

import (
	"context"
	"testing"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// widget and its lists are typed objects, to show ExtractList reflecting
// on an Items field.
type widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
}

func (w *widget) DeepCopyObject() scheme.Object { return deepcopy.Copy(w) }

type widgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata"`
	Items           []widget `json:"items"`
}

func (w *widgetList) DeepCopyObject() scheme.Object { return deepcopy.Copy(w) }

type widgetPtrList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata"`
	Items           []*widget `json:"items"`
}

func (w *widgetPtrList) DeepCopyObject() scheme.Object { return deepcopy.Copy(w) }

type notAList struct{ metav1.TypeMeta }

func (n *notAList) DeepCopyObject() scheme.Object { return deepcopy.Copy(n) }

func TestExtractList(t *testing.T) {
	w := func(name string) widget { return widget{ObjectMeta: metav1.ObjectMeta{Name: name}} }
	tests := []struct {
		name    string
		list    scheme.Object
		want    []string
		wantErr bool
	}{
		{"Unstructured", newList("1", newObj("ns", "a", "1"), newObj("ns", "b", "2")), []string{"ns/a", "ns/b"}, false},
		{"TypedValues", &widgetList{Items: []widget{w("x"), w("y")}}, []string{"x", "y"}, false},
		{"TypedPointers", &widgetPtrList{Items: []*widget{{ObjectMeta: metav1.ObjectMeta{Name: "p"}}}}, []string{"p"}, false},
		{"Empty", &widgetList{}, []string{}, false},
		{"NotAList", &notAList{}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, err := ExtractList(tt.list)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ExtractList error = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			got := make([]string, len(items))
			for i, it := range items {
				got[i] = keyOf(t, it)
			}
			wantStrings(t, "items", got, tt.want)
		})
	}

	t.Run("ItemsShareTheListsMemory", func(t *testing.T) {
		l := &widgetList{Items: []widget{w("x")}}
		items, _ := ExtractList(l)
		items[0].(*widget).Name = "changed"
		if l.Items[0].Name != "changed" {
			t.Fatal("ExtractList copied the items")
		}
	})
}

func TestListResourceVersion(t *testing.T) {
	if rv, err := listResourceVersion(&widgetList{ListMeta: metav1.ListMeta{ResourceVersion: "7"}}); err != nil || rv != "7" {
		t.Fatalf("typed list: %q, %v", rv, err)
	}
	if rv, err := listResourceVersion(newList("8")); err != nil || rv != "8" {
		t.Fatalf("unstructured list: %q, %v", rv, err)
	}
	if _, err := listResourceVersion(&notAList{}); err == nil {
		t.Fatal("no error for an object without list metadata")
	}
}

func TestNewFilteredListWatch(t *testing.T) {
	var seen []metav1.ListOptions
	inner := &ListWatch{
		ListFunc: func(_ context.Context, o metav1.ListOptions) (scheme.Object, error) {
			seen = append(seen, o)
			return newList("1"), nil
		},
		WatchFunc: func(_ context.Context, o metav1.ListOptions) (watch.Interface, error) {
			seen = append(seen, o)
			return watch.NewFake(), nil
		},
	}
	lw := NewFilteredListWatch(inner, func(o *metav1.ListOptions) { o.LabelSelector = "app=shop" })
	opts := metav1.ListOptions{ResourceVersion: "5"}
	_, _ = lw.List(context.Background(), opts)
	_, _ = lw.Watch(context.Background(), opts)
	if opts.LabelSelector != "" {
		t.Fatal("the caller's options were changed")
	}
	for i, o := range seen {
		if o.LabelSelector != "app=shop" || o.ResourceVersion != "5" {
			t.Fatalf("call %d got options %+v", i, o)
		}
	}
	if len(seen) != 2 {
		t.Fatalf("%d calls reached the inner ListWatch, want 2", len(seen))
	}
}
