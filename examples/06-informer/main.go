// Command 06-informer walks through a shared informer in numbered steps,
// against a crdlab server it starts in-process: one informer (one list,
// one watch) feeds two independent event handlers and a lister; handlers
// get the initial list as adds, then every change to an object in
// order (changes to different objects may be reordered); the lister
// answers from the cache without asking the server.
//
//	go run ./examples/06-informer
//
// To watch it move, open the /ui page of the server it starts (the
// example waits for the page, and keeps it up until Ctrl-C):
//
//	CRDLAB_UI=127.0.0.1:8090 go run ./examples/06-informer   # open http://127.0.0.1:8090/ui/
//
// Mirrors k8s.io/client-go/tools/cache (SharedIndexInformer,
// ResourceEventHandler, listers) and informers.SharedInformerFactory, as
// seed 000 ("Landscape", "SharedInformerFactory") describes them.
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client/dynamic"
	"github.com/crdlab/crdlab/examples/internal/labserver"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

func main() {
	dir, err := os.MkdirTemp("", "crdlab-06-informer")
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	if err := run(os.Stdout, dir); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

var crontabs = scheme.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}

// recorder is an event handler that writes down what it is told.
type recorder struct {
	mu     sync.Mutex // guards events
	events []string
}

func (r *recorder) add(e string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.events...)
}

// list renders events as "[e1, e2, …]".
func list(events []string) string { return "[" + strings.Join(events, ", ") + "]" }

func name(obj any) string {
	if t, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	return obj.(*unstructured.Unstructured).GetName()
}

// handlerFuncs turns a recorder into a ResourceEventHandler.
func (r *recorder) handlerFuncs() informer.ResourceEventHandlerFuncs {
	return informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj any, initial bool) {
			if initial {
				r.add("ADD " + name(obj) + " (initial list)")
				return
			}
			r.add("ADD " + name(obj))
		},
		UpdateFunc: func(oldObj, newObj any) { r.add("UPDATE " + name(newObj)) },
		DeleteFunc: func(obj any) { r.add("DELETE " + name(obj)) },
	}
}

// requestCounter counts the informer's lists and watches of crontabs.
type requestCounter struct{ lists, watches atomic.Int32 }

func (c *requestCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/crontabs") {
		if q := r.URL.Query().Get("watch"); q == "true" || q == "1" {
			c.watches.Add(1)
		} else {
			c.lists.Add(1)
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

func waitUntil(what string, cond func() bool) error {
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: not within 10s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return nil
}

func crontab(name, cronSpec string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"spec": map[string]any{"cronSpec": cronSpec},
	}}
	u.SetNamespace("default")
	u.SetName(name)
	return u
}

func run(w io.Writer, dir string) error {
	step := 0
	say := func(format string, args ...any) {
		step++
		fmt.Fprintf(w, "%d. "+format+"\n", append([]any{step}, args...)...)
	}
	ctx := context.Background()

	srv, err := labserver.Start(ctx, dir)
	if err != nil {
		return err
	}
	defer srv.Stop()
	if err := srv.InstallCRD(ctx, labserver.CronTabCRD()); err != nil {
		return err
	}
	say("started crdlab in-process (temp dir, free port) and installed the CronTab CRD: Established")

	// Writes go through their own client; the informer's requests are
	// counted by its transport.
	writer, err := dynamic.NewForConfig(srv.Config)
	if err != nil {
		return err
	}
	cts := writer.Resource(crontabs).Namespace("default")
	if _, err := cts.Create(ctx, crontab("a", "* * * * */5"), metav1.CreateOptions{}); err != nil {
		return err
	}
	say("created crontab a, before any informer runs")

	counter := &requestCounter{}
	cfg := *srv.Config
	cfg.HTTPClient = &http.Client{Transport: counter}
	reader, err := dynamic.NewForConfig(&cfg)
	if err != nil {
		return err
	}
	// The factory builds an informer the first time a resource is asked
	// for and hands the same one to everybody after.
	factory := informer.NewSharedInformerFactory()
	newInformer := func() informer.SharedIndexInformer {
		lw := &informer.ListWatch{
			ListFunc: func(ctx context.Context, o metav1.ListOptions) (scheme.Object, error) {
				list, err := reader.Resource(crontabs).List(ctx, o)
				if err != nil {
					return nil, err
				}
				return list, nil
			},
			WatchFunc: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
				return reader.Resource(crontabs).Watch(ctx, o)
			},
		}
		return informer.NewSharedIndexInformer(lw, 0, informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc})
	}
	inf := factory.InformerFor(crontabs, newInformer)
	same := factory.InformerFor(crontabs, newInformer) == inf
	audit, metrics := &recorder{}, &recorder{}
	auditReg, err := inf.AddEventHandler(audit.handlerFuncs())
	if err != nil {
		return err
	}
	metricsReg, err := inf.AddEventHandler(metrics.handlerFuncs())
	if err != nil {
		return err
	}
	say("asked the factory for the crontabs informer twice: same informer=%v; registered 2 handlers (audit, metrics)", same)

	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	factory.Start(runCtx)
	synced := informer.WaitForCacheSync(runCtx, auditReg.HasSynced, metricsReg.HasSynced)
	say("started: synced=%v; audit saw %s, metrics saw %s", synced, list(audit.seen()), list(metrics.seen()))

	// The DeltaFIFO keeps changes in order per object, not across
	// objects: a change to b that arrives while b's earlier change still
	// waits in the queue joins it, ahead of a change to a that came
	// between (upstream's DeltaFIFO does the same). So the example lets
	// the handlers see each change before it makes the next one.
	seen := func(n int) error {
		return waitUntil("handlers see the change", func() bool {
			return len(audit.seen()) == n && len(metrics.seen()) == n
		})
	}
	if _, err := cts.Create(ctx, crontab("b", "0 * * * *"), metav1.CreateOptions{}); err != nil {
		return err
	}
	if err := seen(2); err != nil {
		return err
	}
	a, err := cts.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		return err
	}
	_ = unstructured.SetNestedField(a.Object, "*/10 * * * *", "spec", "cronSpec")
	if _, err := cts.Update(ctx, a, metav1.UpdateOptions{}); err != nil {
		return err
	}
	if err := seen(3); err != nil {
		return err
	}
	if err := cts.Delete(ctx, "b", metav1.DeleteOptions{}); err != nil {
		return err
	}
	if err := seen(4); err != nil {
		return err
	}
	say("created b, updated a, deleted b: audit saw %s", list(audit.seen()[1:]))
	say("metrics saw, on its own goroutine: %s", list(metrics.seen()[1:]))

	lister := informer.NewLister[*unstructured.Unstructured](inf.GetIndexer(), crontabs.GroupResource())
	listsBefore := counter.lists.Load()
	cached, err := lister.ByNamespace("default").Get("a")
	if err != nil {
		return err
	}
	spec, _, _ := unstructured.NestedString(cached.Object, "spec", "cronSpec")
	all, _ := lister.List(nil)
	say("lister, from the cache: a has cronSpec %q; %d crontab(s) cached; requests made for it: %d",
		spec, len(all), counter.lists.Load()-listsBefore)

	say("the informer sent %d list and %d watch request(s) for both handlers and the lister",
		counter.lists.Load(), counter.watches.Load())

	stop()
	factory.Shutdown()
	say("factory shut down: informer stopped=%v", inf.IsStopped())
	return nil
}
