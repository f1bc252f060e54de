package handler_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/controller"
	discoverycontroller "github.com/crdlab/crdlab/controller/discovery"
	openapicontroller "github.com/crdlab/crdlab/controller/openapi"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// startControllers runs against ts, over HTTP, what apiserver/controllers.go
// runs against a real server as far as the handler is concerned: a CRD
// informer whose events reach the crdHandler's hooks (what is served), the
// DiscoveryController (the only writer of CRD groups' discovery) and the
// OpenAPI controller (their /openapi/v3 documents). It returns once the
// informer watches: the in-memory CRD REST replays no missed event.
func startControllers(t *testing.T, ts *testServer) {
	t.Helper()
	cs, err := client.NewForConfig(&client.Config{Host: ts.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	crdClient := cs.ApiextensionsV1().CustomResourceDefinitions()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	inf := informer.NewSharedIndexInformerWithOptions(&informer.ListWatch{
		ListFunc: func(ctx context.Context, o metav1.ListOptions) (scheme.Object, error) {
			return crdClient.List(ctx, o)
		},
		WatchFunc: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return crdClient.Watch(ctx, o)
		},
	}, informer.SharedIndexInformerOptions{Name: "customresourcedefinitions", Logger: log})

	crds := ts.h.CRDs()
	if _, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj any, _ bool) {
			if crd, ok := controller.CRDFromObject(obj); ok {
				crds.OnAdd(crd)
			}
		},
		UpdateFunc: func(_, obj any) {
			if crd, ok := controller.CRDFromObject(obj); ok {
				crds.OnUpdate(crd)
			}
		},
		DeleteFunc: func(obj any) {
			if crd, ok := controller.CRDFromObject(obj); ok {
				crds.OnDelete(crd)
			}
		},
	}); err != nil {
		t.Fatal(err)
	}
	opts := controller.Options{Logger: log}
	discovery, err := discoverycontroller.NewDiscoveryController(inf, ts.h.Discovery(), opts)
	if err != nil {
		t.Fatal(err)
	}
	openAPI, err := openapicontroller.NewController(inf, ts.h, opts)
	if err != nil {
		t.Fatal(err)
	}

	watchers := ts.rest.watchers()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { inf.Run(ctx) })
	wg.Go(func() { discovery.Run(ctx, 1) })
	wg.Go(func() { openAPI.Run(ctx, 1) })
	// Before the server closes (cleanups run last first): the informer's
	// watch is a request the server would wait for.
	t.Cleanup(func() { cancel(); wg.Wait() })
	eventually(t, "the controllers watch CRDs", func() bool {
		return discovery.HasSynced() && ts.rest.watchers() > watchers
	})
}

// eventually polls cond every 5 ms for up to 30 s (a slow CI machine;
// the condition is usually true within milliseconds).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// patchCRDStatus merge-patches the CRD's status through the API.
func (ts *testServer) patchCRDStatus(t *testing.T, name, patch string) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	r := ts.do(t, "PATCH", crdPath+"/"+name+"/status", patch, "Content-Type", "application/merge-patch+json")
	if r.code != 200 {
		t.Fatalf("PATCH %s/status: %d %s", name, r.code, r.raw)
	}
	return decodeCRD(t, r.raw)
}
