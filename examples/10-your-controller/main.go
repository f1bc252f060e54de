// Command 10-your-controller runs a small controller of its own against a
// crdlab server it starts in-process, and narrates it in numbered steps:
// the informer's first list, a new object synced, a spec change synced
// (generation 2), a failing sync retried with backoff, a delete, and a
// clean shutdown. controller.go is the controller — copy its shape.
//
//	go run ./examples/10-your-controller
//
// To watch it move, open the /ui page of the server it starts (the
// example waits for the page, and keeps it up until Ctrl-C):
//
//	CRDLAB_UI=127.0.0.1:8090 go run ./examples/10-your-controller   # open http://127.0.0.1:8090/ui/
//
// Mirrors kubernetes/sample-controller (controller.go: NewController,
// Run, runWorker, processNextWorkItem, syncHandler), on crdlab's client,
// informer and workqueue.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync/atomic"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/dynamic"
	"github.com/crdlab/crdlab/examples/internal/labserver"
)

func main() {
	dir, err := os.MkdirTemp("", "crdlab-10-your-controller")
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

func crontab(name, cronSpec string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"spec": map[string]any{"cronSpec": cronSpec},
	}}
	u.SetNamespace("default")
	u.SetName(name)
	return u
}

func status(u *unstructured.Unstructured) string {
	p, _, _ := unstructured.NestedString(u.Object, "status", "phase")
	g, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
	return fmt.Sprintf("phase=%s observedGeneration=%d (generation %d)", p, g, u.GetGeneration())
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
	dyn, err := dynamic.NewForConfig(srv.Config)
	if err != nil {
		return err
	}
	crontabs := dyn.Resource(crontabsGVR).Namespace("default")
	if _, err := crontabs.Create(ctx, crontab("early", "0 0 * * *"), metav1.CreateOptions{}); err != nil {
		return err
	}
	say("started crdlab in-process, installed the CronTab CRD (with a status subresource), created CronTab early")

	c, err := NewController(dyn, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	// Make the first sync of "flaky" fail, to watch the queue retry it.
	var flakyFailures atomic.Int32
	c.syncHandler = func(ctx context.Context, key string) error {
		if key == "default/flaky" && flakyFailures.Load() < 2 {
			flakyFailures.Add(1)
			return errors.New("injected failure")
		}
		return c.sync(ctx, key)
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- c.Run(runCtx, 2) }()

	got, err := waitForStatus(ctx, dyn, "default", "early", "Scheduled")
	if err != nil {
		return err
	}
	say("controller started (informer + 2 workers): early, from the first list, now has %s", status(got))

	if _, err := crontabs.Create(ctx, crontab("nightly", "0 3 * * *"), metav1.CreateOptions{}); err != nil {
		return err
	}
	got, err = waitForStatus(ctx, dyn, "default", "nightly", "Scheduled")
	if err != nil {
		return err
	}
	say("created nightly: the ADD event queued default/nightly; sync wrote %s", status(got))

	// A spec change bumps the generation; the controller catches up.
	if _, err := crontabs.Patch(ctx, "nightly", client.MergePatchType, []byte(`{"spec":{"suspend":true}}`), metav1.PatchOptions{}); err != nil {
		return err
	}
	got, err = waitForStatus(ctx, dyn, "default", "nightly", "Suspended")
	if err != nil {
		return err
	}
	say("suspended nightly (spec.suspend=true): sync wrote %s", status(got))

	if _, err := crontabs.Create(ctx, crontab("flaky", "*/1 * * * *"), metav1.CreateOptions{}); err != nil {
		return err
	}
	got, err = waitForStatus(ctx, dyn, "default", "flaky", "Scheduled")
	if err != nil {
		return err
	}
	// The worker calls Forget right after the write the server just showed.
	for i := 0; c.queue.NumRequeues("default/flaky") != 0 && i < 2000; i++ {
		waitABit()
	}
	say("created flaky: sync failed %d times, retried with backoff (AddRateLimited), then wrote %s; after Forget: requeues=%d",
		flakyFailures.Load(), status(got), c.queue.NumRequeues("default/flaky"))

	if err := crontabs.Delete(ctx, "early", metav1.DeleteOptions{}); err != nil {
		return err
	}
	deadline := 0
	for {
		if _, err := c.lister.ByNamespace("default").Get("early"); err != nil {
			break
		}
		if deadline++; deadline > 2000 {
			return errors.New("the cache still has early")
		}
		waitABit()
	}
	cached, _ := c.lister.List(nil)
	say("deleted early: the DELETE event queued default/early, sync found it gone from the cache; %d CronTabs cached", len(cached))

	stop()
	if err := <-done; err != nil {
		return err
	}
	say("stopped: workers returned, queue shut down=%v", c.queue.ShuttingDown())
	return nil
}
