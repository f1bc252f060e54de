package client_test

import (
	"context"
	"io"
	"strings"
	"testing"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/machinery/watch"
)

// FuzzStreamWatcher feeds arbitrary bytes as a watch stream: the watcher must
// not panic, must close its channel, and may only deliver the five event
// types, ERROR ones with a *metav1.Status.
func FuzzStreamWatcher(f *testing.F) {
	for _, seed := range []string{
		`{"type":"ADDED","object":{"kind":"CronTab","metadata":{"name":"a"}}}` + "\n",
		`{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}}{"type":"DELETED","object":{}}`,
		`{"type":"ERROR","object":{"kind":"Status","code":410}}`,
		`{"type":"ERROR","object":[]}`,
		`{"type":"ADDED","object":{"a":`,
		`{"type":7}`,
		`[]`,
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, stream string) {
		w := client.NewStreamWatcher(context.Background(), io.NopCloser(strings.NewReader(stream)), nil)
		defer w.Stop()
		for ev := range w.ResultChan() {
			switch ev.Type {
			case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark:
				if ev.Object == nil {
					t.Fatalf("%s event without an object", ev.Type)
				}
			case watch.Error:
				if _, ok := ev.Object.(*metav1.Status); !ok {
					t.Fatalf("ERROR event with %T", ev.Object)
				}
			default:
				t.Fatalf("event type %q", ev.Type)
			}
		}
	})
}
