package event_test

import (
	"time"

	"context"
	"github.com/crdlab/crdlab/machinery/watch"
	"testing"

	"github.com/crdlab/crdlab/apis/core"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/core/event"
	"github.com/crdlab/crdlab/registry/internal/registrytest"
	"github.com/crdlab/crdlab/scheme"
)

func TestREST_ValidatesByRequestVersion(t *testing.T) {
	s, opts := registrytest.Options(t, scheme.GroupVersion{Version: "v1"})
	rest, err := event.NewREST(s, opts, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rest.TTL != event.DefaultTTL {
		t.Errorf("TTL = %v, want the default", rest.TTL)
	}
	ns := registry.WithNamespace(context.Background(), "default")
	legacy := func(name string) *core.Event {
		return &core.Event{ObjectMeta: metav1.ObjectMeta{Name: name}, InvolvedObject: core.ObjectReference{Kind: "ConfigMap", Name: "cm", Namespace: "default"},
			Reason: "Changed", Message: "m", Type: core.EventTypeNormal, Count: 1}
	}
	t.Run("OKLegacyThroughCoreV1", func(t *testing.T) {
		ctx := registry.WithRequestVersion(ns, scheme.GroupVersion{Version: "v1"})
		if _, err := rest.Create(ctx, legacy("a"), nil, nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrLegacyThroughEventsV1", func(t *testing.T) {
		ctx := registry.WithRequestVersion(ns, scheme.GroupVersion{Group: "events.k8s.io", Version: "v1"})
		if _, err := rest.Create(ctx, legacy("b"), nil, nil); !apierrors.IsInvalid(err) {
			t.Errorf("err = %v, want Invalid (eventTime required, count must be unset)", err)
		}
	})
	t.Run("FieldSelectorOnInvolvedObject", func(t *testing.T) {
		ctx := registry.WithRequestVersion(ns, scheme.GroupVersion{Version: "v1"})
		other := legacy("c")
		other.InvolvedObject.Name = "other"
		if _, err := rest.Create(ctx, other, nil, nil); err != nil {
			t.Fatal(err)
		}
		list, err := rest.List(ns, &metav1.ListOptions{FieldSelector: "involvedObject.name=cm,involvedObject.kind=ConfigMap"})
		if err != nil {
			t.Fatal(err)
		}
		if items := list.(*core.EventList).Items; len(items) != 1 || items[0].Name != "a" {
			t.Errorf("items = %v", items)
		}
	})
}

// TestREST_EventsExpire: an Event is deleted ttl after its last write,
// and a watcher sees it DELETED (storage/ttl.go).
func TestREST_EventsExpire(t *testing.T) {
	s, opts := registrytest.Options(t, scheme.GroupVersion{Version: "v1"})
	rest, err := event.NewREST(s, opts, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	ctx := registry.WithRequestVersion(registry.WithNamespace(context.Background(), "default"), scheme.GroupVersion{Version: "v1"})
	w, err := rest.Watch(ctx, &metav1.ListOptions{ResourceVersion: "0"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ev := &core.Event{ObjectMeta: metav1.ObjectMeta{Name: "short-lived"}, InvolvedObject: core.ObjectReference{Kind: "ConfigMap", Name: "cm", Namespace: "default"},
		Reason: "Changed", Message: "m", Type: core.EventTypeNormal, Count: 1}
	if _, err := rest.Create(ctx, ev, nil, nil); err != nil {
		t.Fatal(err)
	}
	var seen []watch.EventType
	timeout := time.After(10 * time.Second)
	for len(seen) < 2 {
		select {
		case e := <-w.ResultChan():
			seen = append(seen, e.Type)
		case <-timeout:
			t.Fatalf("events %v, want ADDED then DELETED", seen)
		}
	}
	if seen[0] != watch.Added || seen[1] != watch.Deleted {
		t.Fatalf("events %v, want ADDED then DELETED", seen)
	}
	if _, err := rest.Get(ctx, "short-lived", &metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("Get after expiry: %v, want NotFound", err)
	}
}
