package dynamic_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/dynamic"
	"github.com/crdlab/crdlab/client/internal/apitest"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

var crontabs = scheme.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}

func newDynamic(t *testing.T) (*dynamic.DynamicClient, *apitest.Server) {
	t.Helper()
	srv := apitest.NewServer(t)
	dc, err := dynamic.NewForConfig(&client.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	return dc, srv
}

func newCronTab(name string, replicas int64) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"spec":       map[string]any{"cronSpec": "*/5 * * * *", "replicas": replicas},
	}}
	u.SetName(name)
	return u
}

func next(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("watch closed")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
		return watch.Event{}
	}
}

func replicas(t *testing.T, u *unstructured.Unstructured) int64 {
	t.Helper()
	n, _, err := unstructured.NestedInt64(u.Object, "spec", "replicas")
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestDynamicClient_CRUD drives a custom resource through every verb.
func TestDynamicClient_CRUD(t *testing.T) {
	dc, srv := newDynamic(t)
	ctx := context.Background()
	crs := dc.Resource(crontabs).Namespace("default")

	w, err := crs.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	created, err := crs.Create(ctx, newCronTab("a", 1), metav1.CreateOptions{FieldValidation: metav1.FieldValidationStrict})
	if err != nil {
		t.Fatal(err)
	}
	if created.GetNamespace() != "default" || created.GetUID() == "" || created.GetResourceVersion() == "" || replicas(t, created) != 1 {
		t.Fatalf("Create = %v", created.Object)
	}
	if ev := next(t, w); ev.Type != watch.Added || ev.Object.(*unstructured.Unstructured).GetName() != "a" {
		t.Fatalf("event = %s %v", ev.Type, ev.Object)
	}

	t.Run("ErrAlreadyExists", func(t *testing.T) {
		if _, err := crs.Create(ctx, newCronTab("a", 1), metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
			t.Fatalf("err = %v", err)
		}
	})

	got, err := crs.Get(ctx, "a", metav1.GetOptions{})
	if err != nil || got.GetResourceVersion() != created.GetResourceVersion() {
		t.Fatalf("Get = %v, %v", got, err)
	}

	// Update changes the spec; the status it carries is ignored.
	_ = unstructured.SetNestedField(got.Object, int64(3), "spec", "replicas")
	_ = unstructured.SetNestedField(got.Object, "ignored", "status", "phase")
	updated, err := crs.Update(ctx, got, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if replicas(t, updated) != 3 || updated.GetGeneration() != 2 {
		t.Fatalf("Update = %v", updated.Object)
	}
	if _, found, _ := unstructured.NestedFieldNoCopy(updated.Object, "status"); found {
		t.Fatalf("Update wrote status: %v", updated.Object)
	}
	next(t, w)

	t.Run("ErrConflict", func(t *testing.T) {
		if _, err := crs.Update(ctx, got, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
			t.Fatalf("err = %v", err)
		}
	})

	// UpdateStatus changes the status only.
	_ = unstructured.SetNestedField(updated.Object, "Running", "status", "phase")
	_ = unstructured.SetNestedField(updated.Object, int64(99), "spec", "replicas")
	withStatus, err := crs.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if phase, _, _ := unstructured.NestedString(withStatus.Object, "status", "phase"); phase != "Running" || replicas(t, withStatus) != 3 {
		t.Fatalf("UpdateStatus = %v", withStatus.Object)
	}
	if ev := next(t, w); ev.Type != watch.Modified {
		t.Fatalf("event = %s", ev.Type)
	}

	// Get and Patch on the status subresource.
	status, err := crs.Get(ctx, "a", metav1.GetOptions{}, "status")
	if err != nil || status.GetName() != "a" {
		t.Fatalf("Get status = %v, %v", status, err)
	}
	patched, err := crs.Patch(ctx, "a", client.MergePatchType, []byte(`{"status":{"phase":"Done"}}`), metav1.PatchOptions{}, "status")
	if err != nil {
		t.Fatal(err)
	}
	if phase, _, _ := unstructured.NestedString(patched.Object, "status", "phase"); phase != "Done" {
		t.Fatalf("Patch status = %v", patched.Object)
	}
	next(t, w)
	patched, err = crs.Patch(ctx, "a", client.MergePatchType, []byte(`{"spec":{"replicas":5}}`), metav1.PatchOptions{})
	if err != nil || replicas(t, patched) != 5 {
		t.Fatalf("Patch = %v, %v", patched, err)
	}
	next(t, w)

	t.Run("ErrUnsupportedMediaType", func(t *testing.T) {
		_, err := crs.Patch(ctx, "a", client.StrategicMergePatchType, []byte(`{}`), metav1.PatchOptions{})
		if !apierrors.IsUnsupportedMediaType(err) {
			t.Fatalf("err = %v", err)
		}
	})

	b := newCronTab("b", 2)
	b.SetLabels(map[string]string{"tier": "batch"})
	if _, err := crs.Create(ctx, b, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	next(t, w)
	if _, err := dc.Resource(crontabs).Namespace("other").Create(ctx, newCronTab("c", 1), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	list, err := crs.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if names := itemNames(list); !slices.Equal(names, []string{"a", "b"}) || list.GetResourceVersion() == "" {
		t.Fatalf("List = %v at %q", names, list.GetResourceVersion())
	}
	if list.GroupVersionKind().Kind != "CronTabList" {
		t.Fatalf("list kind = %v", list.GroupVersionKind())
	}
	all, err := dc.Resource(crontabs).List(ctx, metav1.ListOptions{})
	if err != nil || !slices.Equal(itemNames(all), []string{"a", "b", "c"}) {
		t.Fatalf("List all namespaces = %v, %v", itemNames(all), err)
	}
	selected, err := crs.List(ctx, metav1.ListOptions{LabelSelector: "tier=batch"})
	if err != nil || !slices.Equal(itemNames(selected), []string{"b"}) {
		t.Fatalf("List tier=batch = %v, %v", itemNames(selected), err)
	}

	if err := crs.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, w); ev.Type != watch.Deleted || ev.Object.(*unstructured.Unstructured).GetName() != "a" {
		t.Fatalf("event = %s %v", ev.Type, ev.Object)
	}
	if _, err := crs.Get(ctx, "a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("Get after Delete: err = %v", err)
	}
	if err := crs.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "tier=batch"}); err != nil {
		t.Fatal(err)
	}
	if list, _ := crs.List(ctx, metav1.ListOptions{}); len(list.Items) != 0 {
		t.Fatalf("left after DeleteCollection: %v", itemNames(list))
	}

	reqs := srv.Requests()
	for _, want := range []string{
		"GET /apis/stable.example.com/v1/namespaces/default/crontabs?watch=true",
		"POST /apis/stable.example.com/v1/namespaces/default/crontabs?fieldValidation=Strict",
		"PUT /apis/stable.example.com/v1/namespaces/default/crontabs/a/status",
		"GET /apis/stable.example.com/v1/namespaces/default/crontabs/a/status",
		"PATCH /apis/stable.example.com/v1/namespaces/default/crontabs/a/status",
		"GET /apis/stable.example.com/v1/crontabs",
		"DELETE /apis/stable.example.com/v1/namespaces/default/crontabs?labelSelector=tier%3Dbatch",
	} {
		if !slices.Contains(reqs, want) {
			t.Errorf("no request %q in\n%v", want, reqs)
		}
	}
}

func itemNames(l *unstructured.UnstructuredList) []string {
	var names []string
	for _, it := range l.Items {
		names = append(names, it.GetName())
	}
	return names
}

func TestDynamicClient_DeletePreconditions(t *testing.T) {
	dc, _ := newDynamic(t)
	ctx := context.Background()
	crs := dc.Resource(crontabs).Namespace("default")
	created, err := crs.Create(ctx, newCronTab("a", 1), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stale := "1000"
	err = crs.Delete(ctx, "a", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &stale}})
	if !apierrors.IsConflict(err) {
		t.Fatalf("err = %v, want Conflict", err)
	}
	rv := created.GetResourceVersion()
	if err := crs.Delete(ctx, "a", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &rv}}); err != nil {
		t.Fatal(err)
	}
}

func TestDynamicClient_Finalizers(t *testing.T) {
	dc, _ := newDynamic(t)
	ctx := context.Background()
	crs := dc.Resource(crontabs).Namespace("default")
	obj := newCronTab("a", 1)
	obj.SetFinalizers([]string{"example.com/cleanup"})
	if _, err := crs.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := crs.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	terminating, err := crs.Get(ctx, "a", metav1.GetOptions{})
	if err != nil || terminating.GetDeletionTimestamp() == nil {
		t.Fatalf("Get = %v, %v; want a deletionTimestamp", terminating, err)
	}
	terminating.SetFinalizers(nil)
	if _, err := crs.Update(ctx, terminating, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := crs.Get(ctx, "a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("err = %v, want NotFound once the finalizer is gone", err)
	}
}

func TestDynamicClient_Watch(t *testing.T) {
	dc, srv := newDynamic(t)
	ctx := context.Background()
	crs := dc.Resource(crontabs).Namespace("default")
	first, err := crs.Create(ctx, newCronTab("a", 1), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("InitialEventsThenBookmark", func(t *testing.T) {
		w, err := crs.Watch(ctx, metav1.ListOptions{AllowWatchBookmarks: true})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		if ev := next(t, w); ev.Type != watch.Added {
			t.Fatalf("event = %s", ev.Type)
		}
		ev := next(t, w)
		if u := ev.Object.(*unstructured.Unstructured); ev.Type != watch.Bookmark || u.GetResourceVersion() != first.GetResourceVersion() {
			t.Fatalf("event = %s %v", ev.Type, ev.Object)
		}
	})
	t.Run("FieldSelector", func(t *testing.T) {
		w, err := crs.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=b", ResourceVersion: first.GetResourceVersion()})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		if _, err := crs.Create(ctx, newCronTab("z", 1), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := crs.Create(ctx, newCronTab("b", 1), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if ev := next(t, w); ev.Object.(*unstructured.Unstructured).GetName() != "b" {
			t.Fatalf("event for %v, want only b", ev.Object)
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		srv.Compact()
		w, err := crs.Watch(ctx, metav1.ListOptions{ResourceVersion: first.GetResourceVersion()})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		ev := next(t, w)
		status, ok := ev.Object.(*metav1.Status)
		if ev.Type != watch.Error || !ok || !apierrors.IsResourceExpired(apierrors.FromObject(status)) {
			t.Fatalf("event = %s %v", ev.Type, ev.Object)
		}
	})
}

func TestDynamicClient_Errors(t *testing.T) {
	dc, _ := newDynamic(t)
	ctx := context.Background()
	crs := dc.Resource(crontabs).Namespace("default")
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"GetNoName", func() error { _, err := crs.Get(ctx, "", metav1.GetOptions{}); return err }},
		{"UpdateNoName", func() error { _, err := crs.Update(ctx, newCronTab("", 1), metav1.UpdateOptions{}); return err }},
		{"DeleteNoName", func() error { return crs.Delete(ctx, "", metav1.DeleteOptions{}) }},
		{"PatchNoName", func() error {
			_, err := crs.Patch(ctx, "", client.MergePatchType, []byte(`{}`), metav1.PatchOptions{})
			return err
		}},
		{"CreateSubresourceNoName", func() error {
			_, err := crs.Create(ctx, newCronTab("", 1), metav1.CreateOptions{}, "status")
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); !errors.Is(err, dynamic.ErrNameRequired) {
				t.Fatalf("err = %v, want ErrNameRequired", err)
			}
		})
	}
	t.Run("ErrInvalidName", func(t *testing.T) {
		if _, err := crs.Get(ctx, "a/b", metav1.GetOptions{}); err == nil {
			t.Fatal("no error for a name with a slash")
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		_, err := dc.Resource(scheme.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default").Get(ctx, "x", metav1.GetOptions{})
		if !apierrors.IsNotFound(err) {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestDynamicClient_Concurrent has writers and a watcher share one client.
func TestDynamicClient_Concurrent(t *testing.T) {
	dc, _ := newDynamic(t)
	ctx := context.Background()
	crs := dc.Resource(crontabs).Namespace("default")
	w, err := crs.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	const writers, each = 4, 5
	errs := make(chan error, writers)
	for i := range writers {
		go func() {
			for j := range each {
				_, err := crs.Create(ctx, newCronTab(string(rune('a'+i))+string(rune('a'+j)), 1), metav1.CreateOptions{})
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range writers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	var last int
	for range writers * each {
		ev := next(t, w)
		n, err := strconv.Atoi(ev.Object.(*unstructured.Unstructured).GetResourceVersion())
		if err != nil {
			t.Fatal(err)
		}
		if n <= last {
			t.Fatalf("resourceVersion %d after %d: events out of order", n, last)
		}
		last = n
	}
}
