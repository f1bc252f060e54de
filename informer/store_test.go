package informer

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
)

func TestMetaNamespaceKeyFunc(t *testing.T) {
	tests := []struct {
		name    string
		obj     any
		want    string
		wantErr error
	}{
		{"Namespaced", newObj("prod", "web", "1"), "prod/web", nil},
		{"ClusterScoped", newObj("", "crontabs.stable.example.com", "1"), "crontabs.stable.example.com", nil},
		{"ExplicitKey", ExplicitKey("a/b"), "a/b", nil},
		{"ErrNoMetadata", "not an object", "", ErrNoMetadata},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MetaNamespaceKeyFunc(tt.obj)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Fatalf("MetaNamespaceKeyFunc = %q, %v; want %q, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestDeletionHandlingMetaNamespaceKeyFunc(t *testing.T) {
	t.Run("Tombstone", func(t *testing.T) {
		got, err := DeletionHandlingMetaNamespaceKeyFunc(DeletedFinalStateUnknown{Key: "ns/gone"})
		if err != nil || got != "ns/gone" {
			t.Fatalf("got %q, %v; want ns/gone", got, err)
		}
	})
	t.Run("Object", func(t *testing.T) {
		got, err := DeletionHandlingMetaNamespaceKeyFunc(newObj("ns", "a", "1"))
		if err != nil || got != "ns/a" {
			t.Fatalf("got %q, %v; want ns/a", got, err)
		}
	})
}

func TestSplitMetaNamespaceKey(t *testing.T) {
	tests := []struct {
		key, ns, name string
		wantErr       bool
	}{
		{"prod/web", "prod", "web", false},
		{"web", "", "web", false},
		{"a/b/c", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			ns, name, err := SplitMetaNamespaceKey(tt.key)
			if (err != nil) != tt.wantErr || ns != tt.ns || name != tt.name {
				t.Fatalf("SplitMetaNamespaceKey(%q) = %q, %q, %v", tt.key, ns, name, err)
			}
		})
	}
}

// byApp indexes objects by their "app" label; objects without one are not
// indexed.
func byApp(obj any) ([]string, error) {
	u, ok := obj.(interface{ GetLabels() map[string]string })
	if !ok {
		return nil, fmt.Errorf("%T has no labels", obj)
	}
	if app, ok := u.GetLabels()["app"]; ok {
		return []string{app}, nil
	}
	return nil, nil
}

func newTestIndexer() Indexer {
	return NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc, "app": byApp})
}

// keysOf returns the sorted keys of objs.
func keysOf(t *testing.T, objs []any) []string {
	t.Helper()
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = keyOf(t, o)
	}
	slices.Sort(out)
	return out
}

func sorted(s []string) []string { slices.Sort(s); return s }

func wantStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s = %q, want %q", what, got, want)
	}
}

// checkIndexConsistent fails if the indices of idx do not match its items:
// a key is under value v of index n if and only if the object under key
// gives v.
func checkIndexConsistent(t *testing.T, idx Indexer) {
	t.Helper()
	ts := idx.(*cache).storage.(*threadSafeMap)
	ts.mu.RLock()
	defer ts.mu.RUnlock()
	for name, fn := range ts.index.indexers {
		want := Index{}
		for key, obj := range ts.items {
			vals, err := fn(obj)
			if err != nil {
				t.Fatalf("index %q of %q: %v", name, key, err)
			}
			for _, v := range vals {
				if want[v] == nil {
					want[v] = map[string]struct{}{}
				}
				want[v][key] = struct{}{}
			}
		}
		got := ts.index.indices[name]
		if fmt.Sprint(got) != fmt.Sprint(want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("index %q = %v, want %v", name, got, want)
		}
	}
}

func TestIndexer(t *testing.T) {
	t.Run("NamespaceAndCustomIndex", func(t *testing.T) {
		idx := newTestIndexer()
		for _, o := range []any{
			withLabels(newObj("prod", "web", "1"), map[string]string{"app": "shop"}),
			withLabels(newObj("prod", "db", "2"), map[string]string{"app": "shop"}),
			withLabels(newObj("dev", "web", "3"), map[string]string{"app": "blog"}),
			newObj("dev", "unlabelled", "4"),
		} {
			if err := idx.Add(o); err != nil {
				t.Fatal(err)
			}
		}
		checkIndexConsistent(t, idx)

		prod, err := idx.ByIndex(NamespaceIndex, "prod")
		if err != nil {
			t.Fatal(err)
		}
		wantStrings(t, "ByIndex(namespace, prod)", keysOf(t, prod), []string{"prod/db", "prod/web"})

		keys, err := idx.IndexKeys("app", "shop")
		if err != nil {
			t.Fatal(err)
		}
		wantStrings(t, "IndexKeys(app, shop)", sorted(keys), []string{"prod/db", "prod/web"})
		wantStrings(t, "ListIndexFuncValues(app)", sorted(idx.ListIndexFuncValues("app")), []string{"blog", "shop"})
		wantStrings(t, "ListIndexFuncValues(namespace)", sorted(idx.ListIndexFuncValues(NamespaceIndex)), []string{"dev", "prod"})

		same, err := idx.Index("app", withLabels(newObj("x", "y", ""), map[string]string{"app": "blog"}))
		if err != nil {
			t.Fatal(err)
		}
		wantStrings(t, "Index(app, blog object)", keysOf(t, same), []string{"dev/web"})
	})

	t.Run("UpdateMovesKeyBetweenValues", func(t *testing.T) {
		idx := newTestIndexer()
		_ = idx.Add(withLabels(newObj("dev", "web", "1"), map[string]string{"app": "blog"}))
		if err := idx.Update(withLabels(newObj("dev", "web", "2"), map[string]string{"app": "shop"})); err != nil {
			t.Fatal(err)
		}
		checkIndexConsistent(t, idx)
		wantStrings(t, "ListIndexFuncValues(app)", idx.ListIndexFuncValues("app"), []string{"shop"})
		blog, _ := idx.ByIndex("app", "blog")
		if len(blog) != 0 {
			t.Fatalf("ByIndex(app, blog) = %v, want nothing", blog)
		}
	})

	t.Run("DeleteRemovesFromIndices", func(t *testing.T) {
		idx := newTestIndexer()
		o := withLabels(newObj("dev", "web", "1"), map[string]string{"app": "blog"})
		_ = idx.Add(o)
		if err := idx.Delete(o); err != nil {
			t.Fatal(err)
		}
		checkIndexConsistent(t, idx)
		if v := idx.ListIndexFuncValues("app"); len(v) != 0 {
			t.Fatalf("ListIndexFuncValues(app) = %q after delete", v)
		}
		if err := idx.Delete(o); err != nil {
			t.Fatalf("second Delete = %v, want nil", err)
		}
	})

	t.Run("ReplaceRebuildsIndices", func(t *testing.T) {
		idx := newTestIndexer()
		_ = idx.Add(newObj("old", "a", "1"))
		err := idx.Replace([]any{newObj("new", "b", "2"), newObj("new", "c", "3")}, "3")
		if err != nil {
			t.Fatal(err)
		}
		checkIndexConsistent(t, idx)
		wantStrings(t, "ListKeys", sorted(idx.ListKeys()), []string{"new/b", "new/c"})
		wantStrings(t, "ListIndexFuncValues(namespace)", idx.ListIndexFuncValues(NamespaceIndex), []string{"new"})
	})

	t.Run("ErrIndexNotFound", func(t *testing.T) {
		idx := newTestIndexer()
		if _, err := idx.ByIndex("nope", "x"); !errors.Is(err, ErrIndexNotFound) {
			t.Fatalf("ByIndex = %v, want ErrIndexNotFound", err)
		}
		if _, err := idx.IndexKeys("nope", "x"); !errors.Is(err, ErrIndexNotFound) {
			t.Fatalf("IndexKeys = %v, want ErrIndexNotFound", err)
		}
	})

	t.Run("IndexFuncErrorLeavesStoreUnchanged", func(t *testing.T) {
		failing := errors.New("boom")
		idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{"fails": func(obj any) ([]string, error) {
			if rvOf(obj) == "bad" {
				return nil, failing
			}
			return []string{"ok"}, nil
		}})
		_ = idx.Add(newObj("ns", "a", "1"))
		if err := idx.Update(newObj("ns", "a", "bad")); !errors.Is(err, failing) {
			t.Fatalf("Update = %v, want the index error", err)
		}
		got, _, _ := idx.GetByKey("ns/a")
		if rvOf(got) != "1" {
			t.Fatalf("after failed Update, object has rv %q, want 1", rvOf(got))
		}
		checkIndexConsistent(t, idx)
	})

	t.Run("AddIndexers", func(t *testing.T) {
		idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{})
		if err := idx.AddIndexers(Indexers{NamespaceIndex: MetaNamespaceIndexFunc}); err != nil {
			t.Fatal(err)
		}
		if err := idx.AddIndexers(Indexers{NamespaceIndex: MetaNamespaceIndexFunc}); !errors.Is(err, ErrIndexConflict) {
			t.Fatalf("AddIndexers twice = %v, want ErrIndexConflict", err)
		}
		_ = idx.Add(newObj("ns", "a", "1"))
		if err := idx.AddIndexers(Indexers{"app": byApp}); !errors.Is(err, ErrIndexOnNonEmptyStore) {
			t.Fatalf("AddIndexers on a non-empty store = %v, want ErrIndexOnNonEmptyStore", err)
		}
		if _, ok := idx.GetIndexers()[NamespaceIndex]; !ok {
			t.Fatal("GetIndexers lacks the namespace index")
		}
	})

	t.Run("ErrNoMetadata", func(t *testing.T) {
		idx := newTestIndexer()
		if err := idx.Add(42); !errors.Is(err, ErrNoMetadata) {
			t.Fatalf("Add(42) = %v, want ErrNoMetadata", err)
		}
	})
}

// TestThreadSafeStore_Concurrent hammers an indexer from writers and readers
// at once; -race checks the locking, checkIndexConsistent the result.
func TestThreadSafeStore_Concurrent(t *testing.T) {
	idx := newTestIndexer()
	const writers, perWriter = 4, 200
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range perWriter {
				o := withLabels(newObj(fmt.Sprintf("ns%d", i%3), fmt.Sprintf("o%d", i%10), fmt.Sprint(i)),
					map[string]string{"app": fmt.Sprintf("app%d", (i+w)%4)})
				switch i % 5 {
				case 4:
					_ = idx.Delete(o)
				default:
					_ = idx.Update(o)
				}
			}
		})
	}
	for range 2 {
		wg.Go(func() {
			for range perWriter {
				_, _ = idx.ByIndex(NamespaceIndex, "ns1")
				_ = idx.ListIndexFuncValues("app")
				_ = idx.List()
			}
		})
	}
	wg.Wait()
	checkIndexConsistent(t, idx)
}
