package informer

import (
	"context"
	"testing"
	"time"

	"github.com/crdlab/crdlab/scheme"
)

var crontabs = scheme.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}

func TestSharedInformerFactory(t *testing.T) {
	t.Run("OneInformerPerResource", func(t *testing.T) {
		lw := newScriptedLW().addList(newList("10", newObj("ns", "a", "1")), nil)
		f := NewSharedInformerFactory()
		built := 0
		newInformer := func() SharedIndexInformer {
			built++
			inf, _ := newTestInformer(lw, 0)
			return inf
		}
		// Two controllers ask for the same resource.
		first := f.InformerFor(crontabs, newInformer)
		second := f.InformerFor(crontabs, newInformer)
		if first != second || built != 1 {
			t.Fatalf("two InformerFor calls built %d informers (same=%v), want 1", built, first == second)
		}
		h1, h2 := &recordingHandler{}, &recordingHandler{}
		addHandler(t, first, h1)
		addHandler(t, second, h2)

		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		f.Start(ctx)
		f.Start(ctx) // starting again starts nothing twice
		if synced := f.WaitForCacheSync(ctx); len(synced) != 1 || !synced[crontabs] {
			t.Fatalf("WaitForCacheSync = %v", synced)
		}
		waitEvents(t, h1, 1)
		waitEvents(t, h2, 1)
		if n := lw.listCount(); n != 1 {
			t.Fatalf("%d lists for two handlers of one resource, want 1", n)
		}

		f.Shutdown()
		if !first.IsStopped() {
			t.Fatal("informer still running after Shutdown")
		}
	})

	t.Run("InformersPerResource", func(t *testing.T) {
		f := NewSharedInformerFactory()
		newInformer := func() SharedIndexInformer {
			inf, _ := newTestInformer(newScriptedLW(), 0)
			return inf
		}
		crds := scheme.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
		if f.InformerFor(crontabs, newInformer) == f.InformerFor(crds, newInformer) {
			t.Fatal("two resources share an informer")
		}
	})

	t.Run("StartAfterShutdownDoesNothing", func(t *testing.T) {
		f := NewSharedInformerFactory()
		f.Shutdown()
		lw := newScriptedLW()
		f.InformerFor(crontabs, func() SharedIndexInformer {
			inf, _ := newTestInformer(lw, 0)
			return inf
		})
		f.Start(context.Background())
		if synced := f.WaitForCacheSync(context.Background()); len(synced) != 0 {
			t.Fatalf("WaitForCacheSync after Shutdown = %v, want no informers", synced)
		}
		f.Shutdown()
		if n := lw.listCount(); n != 0 {
			t.Fatalf("%d lists after Shutdown", n)
		}
	})

	t.Run("ContextEndStopsInformers", func(t *testing.T) {
		f := NewSharedInformerFactory()
		inf := f.InformerFor(crontabs, func() SharedIndexInformer {
			inf, _ := newTestInformer(newScriptedLW().addList(newList("1"), nil), 0)
			return inf
		})
		ctx, cancel := context.WithCancel(context.Background())
		f.Start(ctx)
		cancel()
		f.Shutdown() // waits for the goroutines
		if !inf.IsStopped() {
			t.Fatal("informer still running")
		}
	})
}
