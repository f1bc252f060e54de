package informer

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

// popDeltas pops one key, failing on error, and returns its Deltas and
// isInInitialList.
func popDeltas(t *testing.T, f *DeltaFIFO) (Deltas, bool) {
	t.Helper()
	var initial bool
	item, err := f.Pop(func(_ any, isInInitialList bool) error {
		initial = isInInitialList
		return nil
	})
	if err != nil {
		t.Fatalf("Pop: %v", err)
	}
	return item.(Deltas), initial
}

// describe renders Deltas as "Type:key@rv" items.
func describe(t *testing.T, d Deltas) string {
	t.Helper()
	s := ""
	for i, x := range d {
		if i > 0 {
			s += " "
		}
		switch o := x.Object.(type) {
		case DeletedFinalStateUnknown:
			s += fmt.Sprintf("%s:tombstone(%s@%s)", x.Type, o.Key, rvOf(o.Obj))
		default:
			s += fmt.Sprintf("%s:%s@%s", x.Type, keyOf(t, o), rvOf(o))
		}
	}
	return s
}

func checkFIFO(t *testing.T, f *DeltaFIFO) {
	t.Helper()
	if err := f.checkInvariants(); err != nil {
		t.Fatal(err)
	}
}

func TestDeltaFIFO_Pop(t *testing.T) {
	t.Run("DeltasAccumulatePerKeyInFIFOOrder", func(t *testing.T) {
		f := NewDeltaFIFO(DeltaFIFOOptions{})
		_ = f.Add(newObj("ns", "a", "1"))
		_ = f.Add(newObj("ns", "b", "2"))
		_ = f.Update(newObj("ns", "a", "3"))
		_ = f.Delete(newObj("ns", "a", "4"))
		checkFIFO(t, f)
		wantStrings(t, "ListKeys", f.ListKeys(), []string{"ns/a", "ns/b"})

		d, _ := popDeltas(t, f)
		if got, want := describe(t, d), "Added:ns/a@1 Updated:ns/a@3 Deleted:ns/a@4"; got != want {
			t.Fatalf("first Pop = %s, want %s", got, want)
		}
		d, _ = popDeltas(t, f)
		if got, want := describe(t, d), "Added:ns/b@2"; got != want {
			t.Fatalf("second Pop = %s, want %s", got, want)
		}
		checkFIFO(t, f)
	})

	t.Run("ErrFIFOClosed", func(t *testing.T) {
		f := NewDeltaFIFO(DeltaFIFOOptions{})
		_ = f.Add(newObj("ns", "a", "1"))
		f.Close()
		if !f.IsClosed() {
			t.Fatal("IsClosed = false after Close")
		}
		// What is queued still comes out, then the FIFO reports closed.
		popDeltas(t, f)
		if _, err := f.Pop(func(any, bool) error { return nil }); !errors.Is(err, ErrFIFOClosed) {
			t.Fatalf("Pop on closed empty FIFO = %v, want ErrFIFOClosed", err)
		}
	})

	t.Run("CloseWakesWaitingPop", func(t *testing.T) {
		f := NewDeltaFIFO(DeltaFIFOOptions{})
		errc := make(chan error)
		go func() {
			_, err := f.Pop(func(any, bool) error { return nil })
			errc <- err
		}()
		f.Close()
		if err := <-errc; !errors.Is(err, ErrFIFOClosed) {
			t.Fatalf("Pop = %v, want ErrFIFOClosed", err)
		}
	})

	t.Run("ProcessErrorIsReturned", func(t *testing.T) {
		f := NewDeltaFIFO(DeltaFIFOOptions{})
		_ = f.Add(newObj("ns", "a", "1"))
		boom := errors.New("boom")
		if _, err := f.Pop(func(any, bool) error { return boom }); !errors.Is(err, boom) {
			t.Fatalf("Pop = %v, want process's error", err)
		}
		if len(f.ListKeys()) != 0 {
			t.Fatal("a failed item must not be put back")
		}
	})
}

func TestDeltaFIFO_Delete(t *testing.T) {
	t.Run("DedupsConsecutiveDeletes", func(t *testing.T) {
		f := NewDeltaFIFO(DeltaFIFOOptions{})
		_ = f.Add(newObj("ns", "a", "1"))
		_ = f.Delete(newObj("ns", "a", "2"))
		_ = f.Delete(newObj("ns", "a", "3"))
		checkFIFO(t, f)
		d, _ := popDeltas(t, f)
		if got, want := describe(t, d), "Added:ns/a@1 Deleted:ns/a@2"; got != want {
			t.Fatalf("Pop = %s, want %s", got, want)
		}
	})

	t.Run("RealStateBeatsTombstone", func(t *testing.T) {
		for _, order := range []string{"TombstoneFirst", "TombstoneLast"} {
			t.Run(order, func(t *testing.T) {
				known := NewStore(MetaNamespaceKeyFunc)
				_ = known.Add(newObj("ns", "a", "1"))
				f := NewDeltaFIFO(DeltaFIFOOptions{KnownObjects: known})
				tomb := DeletedFinalStateUnknown{Key: "ns/a", Obj: newObj("ns", "a", "1")}
				real := newObj("ns", "a", "5")
				if order == "TombstoneFirst" {
					_ = f.Delete(tomb)
					_ = f.Delete(real)
				} else {
					_ = f.Delete(real)
					_ = f.Delete(tomb)
				}
				checkFIFO(t, f)
				d, _ := popDeltas(t, f)
				if got, want := describe(t, d), "Deleted:ns/a@5"; got != want {
					t.Fatalf("Pop = %s, want %s", got, want)
				}
			})
		}
	})

	t.Run("UnknownKeyIsDropped", func(t *testing.T) {
		known := NewStore(MetaNamespaceKeyFunc)
		f := NewDeltaFIFO(DeltaFIFOOptions{KnownObjects: known})
		_ = f.Delete(newObj("ns", "never-seen", "1"))
		if keys := f.ListKeys(); len(keys) != 0 {
			t.Fatalf("queued %q for a key neither queued nor known", keys)
		}
		_ = known.Add(newObj("ns", "known", "1"))
		_ = f.Delete(newObj("ns", "known", "2"))
		wantStrings(t, "ListKeys", f.ListKeys(), []string{"ns/known"})
	})
}

func TestDeltaFIFO_Replace(t *testing.T) {
	t.Run("TombstonesForVanishedKeys", func(t *testing.T) {
		known := NewStore(MetaNamespaceKeyFunc)
		_ = known.Add(newObj("ns", "a", "1"))
		_ = known.Add(newObj("ns", "b", "2"))
		_ = known.Add(newObj("ns", "c", "3"))
		f := NewDeltaFIFO(DeltaFIFOOptions{KnownObjects: known})
		// e was seen by the watch but not popped yet; the relist lacks it.
		_ = f.Add(newObj("ns", "e", "4"))

		if err := f.Replace([]any{newObj("ns", "a", "5"), newObj("ns", "d", "6")}, "6"); err != nil {
			t.Fatal(err)
		}
		checkFIFO(t, f)

		got := map[string]string{}
		for range 5 {
			d, _ := popDeltas(t, f)
			got[keyOf(t, d.Newest().Object)] = describe(t, d)
		}
		want := map[string]string{
			"ns/a": "Replaced:ns/a@5",
			"ns/d": "Replaced:ns/d@6",
			"ns/b": "Deleted:tombstone(ns/b@2)",
			"ns/c": "Deleted:tombstone(ns/c@3)",
			"ns/e": "Added:ns/e@4 Deleted:tombstone(ns/e@4)",
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("popped\n%v\nwant\n%v", got, want)
		}
	})

	t.Run("HasSyncedAfterInitialItemsPopped", func(t *testing.T) {
		known := NewStore(MetaNamespaceKeyFunc)
		_ = known.Add(newObj("ns", "gone", "1"))
		f := NewDeltaFIFO(DeltaFIFOOptions{KnownObjects: known})
		if f.HasSynced() {
			t.Fatal("HasSynced before any Replace")
		}
		_ = f.Replace([]any{newObj("ns", "a", "2"), newObj("ns", "b", "3")}, "3")
		// Two listed items and one tombstone make the initial population.
		for i := range 3 {
			if f.HasSynced() {
				t.Fatalf("HasSynced after %d of 3 initial pops", i)
			}
			if _, initial := popDeltas(t, f); !initial {
				t.Fatalf("pop %d: isInInitialList = false", i)
			}
		}
		if !f.HasSynced() {
			t.Fatal("HasSynced = false after the initial items were popped")
		}
		_ = f.Add(newObj("ns", "c", "4"))
		if _, initial := popDeltas(t, f); initial {
			t.Fatal("an item added after sync has isInInitialList = true")
		}
		// A second Replace does not unsync.
		_ = f.Replace([]any{newObj("ns", "a", "5")}, "5")
		if !f.HasSynced() {
			t.Fatal("second Replace turned HasSynced false")
		}
	})

	t.Run("EmptyReplaceSyncsAtOnce", func(t *testing.T) {
		f := NewDeltaFIFO(DeltaFIFOOptions{})
		_ = f.Replace(nil, "1")
		if !f.HasSynced() {
			t.Fatal("HasSynced = false after an empty first Replace")
		}
	})

	t.Run("HasSyncedWaitsForProcessing", func(t *testing.T) {
		// Pop counts the last initial item off before calling process, so
		// HasSynced must wait for the lock process runs under: it may not
		// report true while the last initial item is still being handled.
		f := NewDeltaFIFO(DeltaFIFOOptions{})
		_ = f.Replace([]any{newObj("ns", "a", "1")}, "1")
		var processed atomic.Bool
		answered := make(chan bool)
		_, err := f.Pop(func(any, bool) error {
			go func() { answered <- f.HasSynced() && processed.Load() }()
			for range 100 {
				runtime.Gosched() // give a lock-free HasSynced the chance to answer early
			}
			processed.Store(true)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !<-answered {
			t.Fatal("HasSynced answered true before process returned, or false after")
		}
	})
}

func TestDeltaFIFO_Resync(t *testing.T) {
	known := NewStore(MetaNamespaceKeyFunc)
	_ = known.Add(newObj("ns", "a", "1"))
	_ = known.Add(newObj("ns", "b", "2"))
	f := NewDeltaFIFO(DeltaFIFOOptions{KnownObjects: known})
	// b has a newer change queued: a Sync of the cached b would go back in
	// time, so b gets none.
	_ = f.Update(newObj("ns", "b", "3"))
	if err := f.Resync(); err != nil {
		t.Fatal(err)
	}
	checkFIFO(t, f)
	got := map[string]string{}
	for range 2 {
		d, _ := popDeltas(t, f)
		got[keyOf(t, d.Newest().Object)] = describe(t, d)
	}
	want := map[string]string{"ns/a": "Sync:ns/a@1", "ns/b": "Updated:ns/b@3"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("popped %v, want %v", got, want)
	}
}

func TestDeltaFIFO_Transformer(t *testing.T) {
	// The transformer marks what it saw with a label, and counts.
	var calls int
	mark := func(obj any) (any, error) {
		calls++
		u := obj.(*unstructured.Unstructured)
		u.SetLabels(map[string]string{"transformed": "yes"})
		return u, nil
	}
	marked := func(obj any) bool {
		if d, ok := obj.(DeletedFinalStateUnknown); ok {
			obj = d.Obj
		}
		return obj.(*unstructured.Unstructured).GetLabels()["transformed"] == "yes"
	}

	known := NewStore(MetaNamespaceKeyFunc)
	cached := newObj("ns", "cached", "1")
	cached.SetLabels(map[string]string{"transformed": "yes"}) // went through before
	_ = known.Add(cached)
	f := NewDeltaFIFO(DeltaFIFOOptions{KnownObjects: known, Transformer: mark})
	_ = f.Add(newObj("ns", "a", "2"))
	_ = f.Update(newObj("ns", "a", "3"))
	_ = f.Delete(newObj("ns", "a", "4"))
	if err := f.Replace([]any{newObj("ns", "c", "5")}, "5"); err != nil {
		t.Fatal(err)
	}
	if calls != 4 {
		t.Errorf("transformer called %d times, want 4 (Add, Update, Delete, Replace's item; not the tombstones)", calls)
	}
	for range 3 {
		d, _ := popDeltas(t, f)
		for _, x := range d {
			if !marked(x.Object) {
				t.Errorf("%s reached the consumer untransformed", describe(t, Deltas{x}))
			}
		}
	}

	t.Run("ResyncNotTransformedAgain", func(t *testing.T) {
		calls = 0
		f := NewDeltaFIFO(DeltaFIFOOptions{KnownObjects: known, Transformer: mark})
		if err := f.Resync(); err != nil {
			t.Fatal(err)
		}
		if calls != 0 {
			t.Errorf("transformer called %d times on a resync", calls)
		}
	})
	t.Run("ErrorRefusesTheObject", func(t *testing.T) {
		f := NewDeltaFIFO(DeltaFIFOOptions{Transformer: func(any) (any, error) { return nil, errors.New("no") }})
		if err := f.Add(newObj("ns", "a", "1")); err == nil {
			t.Error("Add with a failing transformer: no error")
		}
		if len(f.ListKeys()) != 0 {
			t.Errorf("the FIFO holds %v after a failed transform", f.ListKeys())
		}
	})
}

func TestDeltaFIFO_Get(t *testing.T) {
	f := NewDeltaFIFO(DeltaFIFOOptions{})
	_ = f.Add(newObj("ns", "a", "1"))
	item, exists, err := f.GetByKey("ns/a")
	if err != nil || !exists || describe(t, item.(Deltas)) != "Added:ns/a@1" {
		t.Fatalf("GetByKey = %v, %v, %v", item, exists, err)
	}
	if _, exists, _ := f.Get(newObj("ns", "nope", "")); exists {
		t.Fatal("Get of an unqueued key exists")
	}
	if l := f.List(); len(l) != 1 || rvOf(l[0]) != "1" {
		t.Fatalf("List = %v", l)
	}
	if _, err := f.KeyOf(Deltas{}); err == nil {
		t.Fatal("KeyOf(empty Deltas) succeeded")
	}
}

// TestDeltaFIFO_Concurrent runs adders, an invariant checker and one popper
// at once. Each adder owns its keys and writes increasing resourceVersions;
// the popper must see, per key, every version exactly once and in order.
func TestDeltaFIFO_Concurrent(t *testing.T) {
	f := NewDeltaFIFO(DeltaFIFOOptions{})
	const adders, keysPerAdder, versions = 4, 5, 50

	seen := map[string][]int{} // owned by the popper until it returns
	popped := make(chan struct{})
	total := adders * keysPerAdder * versions
	go func() {
		defer close(popped)
		n := 0
		for n < total {
			_, err := f.Pop(func(obj any, _ bool) error {
				for _, d := range obj.(Deltas) {
					rv, _ := strconv.Atoi(rvOf(d.Object))
					k := keyOf(t, d.Object)
					seen[k] = append(seen[k], rv)
					n++
				}
				return nil
			})
			if err != nil {
				t.Errorf("Pop: %v", err)
				return
			}
		}
	}()

	stopChecking := make(chan struct{})
	var checker sync.WaitGroup
	checker.Go(func() {
		for {
			select {
			case <-stopChecking:
				return
			default:
			}
			if err := f.checkInvariants(); err != nil {
				t.Error(err)
				return
			}
		}
	})

	var wg sync.WaitGroup
	for a := range adders {
		wg.Go(func() {
			for v := range versions {
				for k := range keysPerAdder {
					o := newObj(fmt.Sprintf("adder%d", a), fmt.Sprintf("k%d", k), strconv.Itoa(v))
					var err error
					if v == 0 {
						err = f.Add(o)
					} else {
						err = f.Update(o)
					}
					if err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
	wg.Wait()
	<-popped
	close(stopChecking)
	checker.Wait()

	if len(seen) != adders*keysPerAdder {
		t.Fatalf("saw %d keys, want %d", len(seen), adders*keysPerAdder)
	}
	for k, rvs := range seen {
		if len(rvs) != versions {
			t.Fatalf("%s: saw %d versions, want %d", k, len(rvs), versions)
		}
		for i, rv := range rvs {
			if rv != i {
				t.Fatalf("%s: versions out of order: %v", k, rvs)
			}
		}
	}
	checkFIFO(t, f)
}
