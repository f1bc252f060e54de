package informer

import (
	"strings"
	"testing"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/scheme"
)

var crontabsGR = scheme.GroupResource{Group: "stable.example.com", Resource: "crontabs"}

func names(items []*unstructured.Unstructured) []string {
	out := make([]string, len(items))
	for i, u := range items {
		out[i] = u.GetNamespace() + "/" + u.GetName()
	}
	return sorted(out)
}

func TestLister(t *testing.T) {
	fill := func(idx Indexer) {
		_ = idx.Add(withLabels(newObj("prod", "web", "1"), map[string]string{"tier": "front"}))
		_ = idx.Add(withLabels(newObj("prod", "db", "2"), map[string]string{"tier": "back"}))
		_ = idx.Add(withLabels(newObj("dev", "web", "3"), map[string]string{"tier": "front"}))
		_ = idx.Add(newObj("", "cluster-wide", "4"))
	}
	front := func(l map[string]string) bool { return l["tier"] == "front" }

	for _, withIndex := range []bool{true, false} {
		name := "WithNamespaceIndex"
		idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
		if !withIndex {
			name = "WithoutNamespaceIndex"
			idx = NewIndexer(MetaNamespaceKeyFunc, Indexers{})
		}
		fill(idx)
		l := NewLister[*unstructured.Unstructured](idx, crontabsGR)

		t.Run(name, func(t *testing.T) {
			t.Run("List", func(t *testing.T) {
				all, err := l.List(nil)
				if err != nil || len(all) != 4 {
					t.Fatalf("List(nil) = %d items, %v", len(all), err)
				}
				fronts, _ := l.List(front)
				wantStrings(t, "List(front)", names(fronts), []string{"dev/web", "prod/web"})
			})
			t.Run("ByNamespaceList", func(t *testing.T) {
				prod, err := l.ByNamespace("prod").List(nil)
				if err != nil {
					t.Fatal(err)
				}
				wantStrings(t, "prod", names(prod), []string{"prod/db", "prod/web"})
				prodFront, _ := l.ByNamespace("prod").List(front)
				wantStrings(t, "prod front", names(prodFront), []string{"prod/web"})
			})
			t.Run("Get", func(t *testing.T) {
				u, err := l.ByNamespace("dev").Get("web")
				if err != nil || u.GetResourceVersion() != "3" {
					t.Fatalf("ByNamespace(dev).Get(web) = %v, %v", u, err)
				}
				if u, err := l.Get("cluster-wide"); err != nil || u.GetResourceVersion() != "4" {
					t.Fatalf("Get(cluster-wide) = %v, %v", u, err)
				}
			})
			t.Run("NotFound", func(t *testing.T) {
				_, err := l.ByNamespace("dev").Get("db")
				if !apierrors.IsNotFound(err) {
					t.Fatalf("Get of a missing object = %v, want NotFound", err)
				}
				if !strings.Contains(err.Error(), `crontabs.stable.example.com "db" not found`) {
					t.Fatalf("message = %q", err)
				}
			})
		})
	}

	t.Run("WrongType", func(t *testing.T) {
		idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{})
		_ = idx.Add(ExplicitKey("odd")) // not an Unstructured
		l := NewLister[*unstructured.Unstructured](idx, crontabsGR)
		if _, err := l.Get("odd"); err == nil {
			t.Fatal("Get of a wrongly typed object succeeded")
		}
		if _, err := l.List(nil); err == nil {
			t.Fatal("List with a wrongly typed object succeeded")
		}
	})
}
