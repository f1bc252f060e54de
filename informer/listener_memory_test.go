package informer

import (
	"runtime"
	"testing"
)

// TestProcessorListener_IdleIsSmall: a listener that gets no notification
// costs little — the garbage collector runs an informer per resource, so
// with thousands of CRDs there are thousands of idle listeners (upstream's
// buffer of 1024 notifications is 16 KiB each) — and its buffer still
// grows to hold a burst, in order.
func TestProcessorListener_IdleIsSmall(t *testing.T) {
	const n = 1000
	ls := make([]*processorListener, n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range ls {
		ls[i] = newProcessorListener(ResourceEventHandlerFuncs{}, false, func() bool { return true })
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 2<<10 {
		t.Errorf("an idle listener allocated %d bytes, want at most 2 KiB", per)
	}
	l := ls[0]
	for i := range 5000 {
		l.add(addNotification{newObj: i})
	}
	for i := range 5000 {
		got, ok := l.next()
		if !ok || got.(addNotification).newObj != i {
			t.Fatalf("notification %d: got %v (%v)", i, got, ok)
		}
	}
}
