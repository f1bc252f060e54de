package trace_test

import (
	"io"
	"strconv"
	"testing"

	"github.com/crdlab/crdlab/trace"
)

// emitCommit is what a component does at each step: check, then build
// and emit an event (formatting a revision, as storage does).
func emitCommit(tr *trace.Tracer, rev int) {
	if tr.Enabled() {
		tr.Emit(trace.Event{
			Component: trace.Storage, Step: "commit",
			Resource: "crontabs.stable.example.com", Key: "default/my-cron",
			ResourceVersion: strconv.Itoa(rev), Message: "create committed",
			Upstream: "k8s.io/apiserver/pkg/storage/etcd3.(*store).Create",
		})
	}
}

// BenchmarkEmit is the cost of one traced step: off (a nil tracer: one
// nil check), on with nobody listening, on with a /ui subscriber that
// keeps up, and on with the narrated log (to io.Discard, so the
// formatting, not the terminal, is measured).
func BenchmarkEmit(b *testing.B) {
	b.Run("off", func(b *testing.B) {
		var tr *trace.Tracer
		for i := 0; b.Loop(); i++ {
			emitCommit(tr, i)
		}
	})
	b.Run("on", func(b *testing.B) {
		tr := trace.New(trace.Options{})
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			emitCommit(tr, i)
		}
	})
	b.Run("on-subscriber", func(b *testing.B) {
		tr := trace.New(trace.Options{})
		s := tr.Subscribe(0, 1<<16)
		done := make(chan struct{})
		go func() {
			for range s.C {
			}
			close(done)
		}()
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			emitCommit(tr, i)
		}
		s.Close()
		<-done
	})
	b.Run("on-log", func(b *testing.B) {
		tr := trace.New(trace.Options{Log: io.Discard})
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			emitCommit(tr, i)
		}
	})
}
