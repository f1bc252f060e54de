package informer_test

import (
	"context"
	"fmt"
	"slices"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// crontab returns a CronTab custom resource.
func crontab(ns, name, rv, schedule string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"spec":       map[string]any{"cronSpec": schedule},
	}}
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetResourceVersion(rv)
	return u
}

// An informer over a hand-driven source: the list holds two CronTabs at
// resourceVersion 10, and the watch delivers what the example sends it. A
// real program builds the ListWatch from a client instead.
func Example() {
	w := watch.NewFake()
	lw := &informer.ListWatch{
		ListFunc: func(ctx context.Context, opts metav1.ListOptions) (scheme.Object, error) {
			list := &unstructured.UnstructuredList{Object: map[string]any{}}
			list.SetResourceVersion("10")
			list.Items = []unstructured.Unstructured{
				*crontab("default", "backup", "8", "0 3 * * *"),
				*crontab("default", "report", "9", "0 8 * * 1"),
			}
			return list, nil
		},
		// The Reflector watches from the list's resourceVersion, "10".
		WatchFunc: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return w, nil
		},
	}
	inf := informer.NewSharedIndexInformer(lw, 0, informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc})

	deleted := make(chan struct{})
	reg, _ := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj any, isInInitialList bool) {
			u := obj.(*unstructured.Unstructured)
			fmt.Printf("add %s (initial list: %v)\n", u.GetName(), isInInitialList)
		},
		UpdateFunc: func(oldObj, newObj any) {
			o, n := oldObj.(*unstructured.Unstructured), newObj.(*unstructured.Unstructured)
			oldSpec, _, _ := unstructured.NestedString(o.Object, "spec", "cronSpec")
			newSpec, _, _ := unstructured.NestedString(n.Object, "spec", "cronSpec")
			fmt.Printf("update %s: %q -> %q\n", n.GetName(), oldSpec, newSpec)
		},
		DeleteFunc: func(obj any) {
			if d, ok := obj.(informer.DeletedFinalStateUnknown); ok {
				obj = d.Obj // the delete was missed; this is the last known state
			}
			fmt.Println("delete", obj.(*unstructured.Unstructured).GetName())
			close(deleted)
		},
	})

	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { inf.Run(ctx); close(stopped) }()
	informer.WaitForCacheSync(ctx, reg.HasSynced)

	w.Modify(crontab("default", "backup", "11", "0 4 * * *"))
	w.Delete(crontab("default", "report", "12", "0 8 * * 1"))
	<-deleted

	// Controllers read the cache through a lister, not the server.
	lister := informer.NewLister[*unstructured.Unstructured](inf.GetIndexer(),
		scheme.GroupResource{Group: "stable.example.com", Resource: "crontabs"})
	left, _ := lister.ByNamespace("default").List(nil)
	for _, u := range left {
		fmt.Println("cached:", u.GetName(), "at", u.GetResourceVersion())
	}
	_, err := lister.ByNamespace("default").Get("report")
	fmt.Println(err, apierrors.IsNotFound(err))

	cancel()
	<-stopped
	// Output:
	// add backup (initial list: true)
	// add report (initial list: true)
	// update backup: "0 3 * * *" -> "0 4 * * *"
	// delete report
	// cached: backup at 11
	// crontabs.stable.example.com "report" not found true
}

// A relist after a missed delete: Replace turns the new list into Replaced
// deltas, and the key the cache knew but the list lacks into a Deleted
// tombstone.
func ExampleDeltaFIFO_Replace() {
	cache := informer.NewStore(informer.MetaNamespaceKeyFunc)
	_ = cache.Add(crontab("default", "backup", "8", "0 3 * * *"))
	_ = cache.Add(crontab("default", "report", "9", "0 8 * * 1"))

	fifo := informer.NewDeltaFIFO(informer.DeltaFIFOOptions{KnownObjects: cache})
	_ = fifo.Replace([]any{crontab("default", "backup", "8", "0 3 * * *")}, "20")

	var popped []string
	for range 2 {
		_, _ = fifo.Pop(func(obj any, isInInitialList bool) error {
			for _, d := range obj.(informer.Deltas) {
				switch o := d.Object.(type) {
				case informer.DeletedFinalStateUnknown:
					popped = append(popped, fmt.Sprintf("%s tombstone %s", d.Type, o.Key))
				case *unstructured.Unstructured:
					popped = append(popped, fmt.Sprintf("%s %s/%s", d.Type, o.GetNamespace(), o.GetName()))
				}
			}
			return nil
		})
	}
	slices.Sort(popped)
	for _, p := range popped {
		fmt.Println(p)
	}
	fmt.Println("synced:", fifo.HasSynced())
	// Output:
	// Deleted tombstone default/report
	// Replaced default/backup
	// synced: true
}

// Two controllers asking for the informer of one resource share it: one
// list, one watch, one cache.
func ExampleSharedInformerFactory_InformerFor() {
	gvr := scheme.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}
	lists := 0
	newInformer := func() informer.SharedIndexInformer {
		lw := &informer.ListWatch{
			ListFunc: func(ctx context.Context, opts metav1.ListOptions) (scheme.Object, error) {
				lists++
				list := &unstructured.UnstructuredList{Object: map[string]any{}}
				list.SetResourceVersion("1")
				return list, nil
			},
			WatchFunc: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				return watch.NewFake(), nil
			},
		}
		return informer.NewSharedIndexInformer(lw, 0, nil)
	}

	factory := informer.NewSharedInformerFactory()
	forNaming := factory.InformerFor(gvr, newInformer)
	forEstablishing := factory.InformerFor(gvr, newInformer)
	fmt.Println("same informer:", forNaming == forEstablishing)

	factory.Start(context.Background())
	fmt.Println("synced:", factory.WaitForCacheSync(context.Background())[gvr])
	factory.Shutdown()
	fmt.Println("lists:", lists)
	// Output:
	// same informer: true
	// synced: true
	// lists: 1
}
