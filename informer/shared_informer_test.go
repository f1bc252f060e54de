package informer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
)

// recordingHandler records every call as a string. With a gate, its first
// call blocks until the gate is closed: a slow handler.
type recordingHandler struct {
	gate chan struct{}

	mu     sync.Mutex // guards events and gated
	events []string
	gated  bool
}

var _ ResourceEventHandler = (*recordingHandler)(nil)

func (h *recordingHandler) record(e string) {
	h.mu.Lock()
	h.events = append(h.events, e)
	wait := h.gate != nil && !h.gated
	h.gated = true
	h.mu.Unlock()
	if wait {
		<-h.gate
	}
}

func (h *recordingHandler) snapshot() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.events)
}

func (h *recordingHandler) count() int { return len(h.snapshot()) }

func (h *recordingHandler) OnAdd(obj any, isInInitialList bool) {
	e := "add " + keyOfAny(obj) + "@" + rvOf(obj)
	if isInInitialList {
		e += " initial"
	}
	h.record(e)
}

func (h *recordingHandler) OnUpdate(oldObj, newObj any) {
	if rvOf(oldObj) == rvOf(newObj) {
		h.record("resync " + keyOfAny(newObj) + "@" + rvOf(newObj))
		return
	}
	h.record("update " + keyOfAny(newObj) + "@" + rvOf(oldObj) + "->" + rvOf(newObj))
}

func (h *recordingHandler) OnDelete(obj any) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		h.record("delete tombstone(" + d.Key + "@" + rvOf(d.Obj) + ")")
		return
	}
	h.record("delete " + keyOfAny(obj))
}

func keyOfAny(obj any) string {
	k, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return k
}

func waitEvents(t *testing.T, h *recordingHandler, n int) []string {
	t.Helper()
	waitUntil(t, fmt.Sprintf("the handler has %d events", n), func() bool { return h.count() >= n })
	return h.snapshot()
}

// newTestInformer returns an informer over lw on a FakeClock, with the
// namespace index, an un-jittered backoff and a quiet logger.
func newTestInformer(lw ListerWatcher, resync time.Duration) (SharedIndexInformer, *clock.FakeClock) {
	fakeClock := clock.NewFakeClock(epoch)
	return NewSharedIndexInformerWithOptions(lw, SharedIndexInformerOptions{
		ResyncPeriod: resync,
		Indexers:     Indexers{NamespaceIndex: MetaNamespaceIndexFunc},
		Name:         "crontabs",
		Clock:        fakeClock,
		Backoff:      noBackoffJitter(fakeClock),
		Logger:       quiet,
	}), fakeClock
}

func addHandler(t *testing.T, inf SharedInformer, h ResourceEventHandler) ResourceEventHandlerRegistration {
	t.Helper()
	reg, err := inf.AddEventHandler(h)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func waitSynced(t *testing.T, what string, synced InformerSynced) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if !WaitForCacheSync(ctx, synced) {
		t.Fatalf("%s did not sync", what)
	}
}

func TestSharedIndexInformer_Handlers(t *testing.T) {
	a, b, c := newObj("ns", "a", "1"), newObj("ns", "b", "2"), newObj("ns", "c", "3")

	t.Run("SlowHandlerDoesNotStallOthers", func(t *testing.T) {
		lw := newScriptedLW().addList(newList("10", a, b, c), nil)
		w := lw.addWatch(nil)
		inf, _ := newTestInformer(lw, 0)
		fast1, fast2 := &recordingHandler{}, &recordingHandler{}
		slow := &recordingHandler{gate: make(chan struct{})}
		fast1Reg, slowReg := addHandler(t, inf, fast1), addHandler(t, inf, slow)
		addHandler(t, inf, fast2)
		run(t, inf.Run)

		for rv := 11; rv <= 60; rv++ {
			w.Modify(newObj("ns", "a", strconv.Itoa(rv)))
		}
		const total = 3 + 50
		want := waitEvents(t, fast1, total)
		if got := waitEvents(t, fast2, total); !slices.Equal(got, want) {
			t.Fatalf("fast handlers disagree:\n%q\n%q", got, want)
		}
		// The slow handler is still inside its first call (wait until it
		// has entered it: its goroutine may not have run yet on a busy
		// machine), the others are done with the initial list and 50
		// updates.
		waitEvents(t, slow, 1)
		if n := slow.count(); n != 1 {
			t.Fatalf("slow handler has %d events while blocked, want 1", n)
		}
		if !fast1Reg.HasSynced() {
			t.Fatal("fast handler's registration has not synced")
		}
		if slowReg.HasSynced() {
			t.Fatal("slow handler's registration synced before it handled the initial list")
		}

		close(slow.gate)
		if got := waitEvents(t, slow, total); !slices.Equal(got, want) {
			t.Fatalf("slow handler got\n%q\nwant\n%q", got, want)
		}
		waitSynced(t, "slow handler", slowReg.HasSynced)
		// Across keys the order is the DeltaFIFO's (a's updates may come
		// with a's initial add, before b and c); per key it is the watch's.
		var adds, updates []string
		for _, e := range want {
			if strings.HasPrefix(e, "add ") {
				adds = append(adds, e)
			} else {
				updates = append(updates, e)
			}
		}
		wantStrings(t, "adds", sorted(adds), []string{"add ns/a@1 initial", "add ns/b@2 initial", "add ns/c@3 initial"})
		for i, e := range updates {
			old := 10 + i
			if i == 0 {
				old = 1 // the listed a
			}
			if want := fmt.Sprintf("update ns/a@%d->%d", old, 11+i); e != want {
				t.Fatalf("update %d = %q, want %q", i, e, want)
			}
		}
	})

	t.Run("HandlerAddedAfterStartGetsCurrentState", func(t *testing.T) {
		lw := newScriptedLW().addList(newList("10", a, b), nil)
		w := lw.addWatch(nil)
		inf, _ := newTestInformer(lw, 0)
		early := &recordingHandler{}
		addHandler(t, inf, early)
		run(t, inf.Run)
		waitSynced(t, "informer", inf.HasSynced)
		w.Modify(newObj("ns", "b", "11"))
		waitEvents(t, early, 3)

		late := &recordingHandler{}
		reg := addHandler(t, inf, late)
		waitSynced(t, "late handler", reg.HasSynced)
		wantStrings(t, "late handler's replay", sorted(late.snapshot()), []string{"add ns/a@1 initial", "add ns/b@11 initial"})

		w.Add(newObj("ns", "d", "12"))
		if got := waitEvents(t, late, 3); got[2] != "add ns/d@12" {
			t.Fatalf("late handler's third event = %q", got[2])
		}
		wantStrings(t, "early handler", waitEvents(t, early, 4),
			[]string{"add ns/a@1 initial", "add ns/b@2 initial", "update ns/b@2->11", "add ns/d@12"})
	})

	t.Run("Resync", func(t *testing.T) {
		lw := newScriptedLW().addList(newList("10", a, b), nil)
		lw.addWatch(nil)
		inf, fakeClock := newTestInformer(lw, time.Minute)
		h := &recordingHandler{}
		reg := addHandler(t, inf, h)
		run(t, inf.Run)
		waitSynced(t, "handler", reg.HasSynced)

		stepWhenWaiting(t, fakeClock, time.Minute)
		got := waitEvents(t, h, 4)
		wantStrings(t, "after one resync", sorted(got[2:]), []string{"resync ns/a@1", "resync ns/b@2"})
	})

	t.Run("RelistDeliversTombstoneForMissedDelete", func(t *testing.T) {
		lw := newScriptedLW().addList(newList("10", a, b), nil)
		w := lw.addWatch(nil)
		w.Error(expiredStatus())
		// While the informer was not watching, b was deleted and d created;
		// a did not change.
		lw.addList(newList("20", a, newObj("ns", "d", "15")), nil)
		lw.addWatch(nil)
		inf, fakeClock := newTestInformer(lw, 0)
		h := &recordingHandler{}
		addHandler(t, inf, h)
		run(t, inf.Run)

		waitEvents(t, h, 2)
		stepWhenWaiting(t, fakeClock, 800*time.Millisecond)
		// Without a resync period the unchanged a is not re-delivered.
		wantStrings(t, "events", waitEvents(t, h, 4), []string{
			"add ns/a@1 initial", "add ns/b@2 initial", "add ns/d@15", "delete tombstone(ns/b@2)"})
		wantStrings(t, "cache", sorted(inf.GetStore().ListKeys()), []string{"ns/a", "ns/d"})
		waitUntil(t, "LastSyncResourceVersion is 20", func() bool { return inf.LastSyncResourceVersion() == "20" })
	})

	t.Run("RemoveEventHandler", func(t *testing.T) {
		lw := newScriptedLW().addList(newList("10", a), nil)
		w := lw.addWatch(nil)
		inf, _ := newTestInformer(lw, 0)
		kept, removed := &recordingHandler{}, &recordingHandler{}
		addHandler(t, inf, kept)
		reg := addHandler(t, inf, removed)
		run(t, inf.Run)
		waitEvents(t, removed, 1)

		if err := inf.RemoveEventHandler(reg); err != nil {
			t.Fatal(err)
		}
		if err := inf.RemoveEventHandler(reg); err != nil {
			t.Fatalf("second RemoveEventHandler = %v, want nil", err)
		}
		w.Add(newObj("ns", "b", "11"))
		w.Add(newObj("ns", "c", "12"))
		waitEvents(t, kept, 3)
		if n := removed.count(); n != 1 {
			t.Fatalf("removed handler has %d events, want 1", n)
		}
		var other struct {
			ResourceEventHandlerRegistration
		}
		if err := inf.RemoveEventHandler(other); !errors.Is(err, ErrUnknownRegistration) {
			t.Fatalf("RemoveEventHandler(foreign) = %v, want ErrUnknownRegistration", err)
		}
	})
}

func TestSharedIndexInformer_Lifecycle(t *testing.T) {
	lw := newScriptedLW().addList(newList("10", newObj("ns", "a", "1"), newObj("other", "b", "2")), nil)
	lw.addWatch(nil)
	inf, _ := newTestInformer(lw, 0)
	if err := inf.AddIndexers(Indexers{"app": byApp}); err != nil {
		t.Fatalf("AddIndexers before Run: %v", err)
	}
	if inf.HasSynced() || inf.LastSyncResourceVersion() != "" {
		t.Fatal("synced before Run")
	}
	stop := run(t, inf.Run)
	waitSynced(t, "informer", inf.HasSynced)

	if err := inf.AddIndexers(Indexers{"late": byApp}); !errors.Is(err, ErrInformerStarted) {
		t.Fatalf("AddIndexers after Run = %v, want ErrInformerStarted", err)
	}
	// The version is recorded just after the list is handed to the
	// DeltaFIFO, so it may trail HasSynced by a moment.
	waitUntil(t, "LastSyncResourceVersion is 10", func() bool { return inf.LastSyncResourceVersion() == "10" })
	inNS, err := inf.GetIndexer().ByIndex(NamespaceIndex, "ns")
	if err != nil || len(inNS) != 1 {
		t.Fatalf("ByIndex(namespace, ns) = %v, %v", inNS, err)
	}

	stop()
	if !inf.IsStopped() {
		t.Fatal("IsStopped = false after Run returned")
	}
	if _, err := inf.AddEventHandler(&recordingHandler{}); !errors.Is(err, ErrInformerStopped) {
		t.Fatalf("AddEventHandler after stop = %v, want ErrInformerStopped", err)
	}
	done := make(chan struct{})
	go func() { inf.Run(context.Background()); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a second Run did not return at once")
	}
}

func TestWaitForCacheSync(t *testing.T) {
	t.Run("Synced", func(t *testing.T) {
		if !WaitForCacheSync(context.Background(), func() bool { return true }) {
			t.Fatal("false for a synced informer")
		}
	})
	t.Run("ContextEnds", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if WaitForCacheSync(ctx, func() bool { return false }) {
			t.Fatal("true for an informer that never syncs")
		}
	})
}

func TestFilteringResourceEventHandler(t *testing.T) {
	tests := []struct {
		name     string
		old, new string // rv of the old and new object; "pass" passes the filter
		want     string
	}{
		{"BothPass", "pass", "pass", "update"},
		{"StartsPassing", "fail", "pass", "add"},
		{"StopsPassing", "pass", "fail", "delete"},
		{"NeitherPasses", "fail", "fail", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got string
			h := FilteringResourceEventHandler{
				FilterFunc: func(obj any) bool { return rvOf(obj) == "pass" },
				Handler: ResourceEventHandlerFuncs{
					AddFunc:    func(any, bool) { got = "add" },
					UpdateFunc: func(any, any) { got = "update" },
					DeleteFunc: func(any) { got = "delete" },
				},
			}
			h.OnUpdate(newObj("ns", "a", tt.old), newObj("ns", "a", tt.new))
			if got != tt.want {
				t.Fatalf("OnUpdate called %q, want %q", got, tt.want)
			}
		})
	}
	// An add or a delete is passed on only for an object that passes.
	for _, rv := range []string{"pass", "fail"} {
		t.Run("AddDelete_"+rv, func(t *testing.T) {
			var got []string
			h := FilteringResourceEventHandler{
				FilterFunc: func(obj any) bool { return rvOf(obj) == "pass" },
				Handler: ResourceEventHandlerFuncs{
					AddFunc:    func(any, bool) { got = append(got, "add") },
					UpdateFunc: func(any, any) { got = append(got, "update") },
					DeleteFunc: func(any) { got = append(got, "delete") },
				},
			}
			h.OnAdd(newObj("ns", "a", rv), true)
			h.OnDelete(newObj("ns", "a", rv))
			want := "[]"
			if rv == "pass" {
				want = "[add delete]"
			}
			if fmt.Sprint(got) != want {
				t.Fatalf("OnAdd, OnDelete called %v, want %s", got, want)
			}
		})
	}
}
