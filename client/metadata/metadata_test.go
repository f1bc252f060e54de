package metadata_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/dynamic"
	"github.com/crdlab/crdlab/client/internal/apitest"
	"github.com/crdlab/crdlab/client/metadata"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

var crontabs = scheme.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}

func newCronTab(name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"spec":       map[string]any{"cronSpec": "*/5 * * * *"},
	}}
	u.SetName(name)
	u.SetLabels(map[string]string{"tier": "batch"})
	return u
}

// TestClient_Verbs drives every verb against a server that cannot convert
// (apitest answers whole objects, as a server without PartialObjectMetadata
// would): the client reads their metadata all the same, without apiVersion
// and kind.
func TestClient_Verbs(t *testing.T) {
	srv := apitest.NewServer(t)
	cfg := &client.Config{Host: srv.URL, QPS: -1}
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	mc, err := metadata.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	crs := mc.Resource(crontabs).Namespace("default")

	w, err := crs.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	for _, n := range []string{"a", "b"} {
		if _, err := dc.Resource(crontabs).Namespace("default").Create(ctx, newCronTab(n), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case ev := <-w.ResultChan():
		m, ok := ev.Object.(*metav1.PartialObjectMetadata)
		if ev.Type != watch.Added || !ok || m.Name != "a" || m.Kind != "" {
			t.Fatalf("event %s %#v", ev.Type, ev.Object)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
	}

	got, err := crs.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "a" || got.UID == "" || got.Labels["tier"] != "batch" || got.APIVersion != "" || got.Kind != "" {
		t.Fatalf("Get = %#v", got)
	}
	if _, err := crs.Get(ctx, "missing", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("Get missing: err = %v", err)
	}

	list, err := crs.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, it := range list.Items {
		names = append(names, it.Name)
	}
	if !slices.Equal(names, []string{"a", "b"}) || list.ResourceVersion == "" {
		t.Fatalf("List = %v at %q", names, list.ResourceVersion)
	}

	patched, err := crs.Patch(ctx, "a", client.MergePatchType, []byte(`{"metadata":{"finalizers":["example.com/f"]}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(patched.Finalizers, []string{"example.com/f"}) {
		t.Fatalf("Patch = %#v", patched)
	}

	if err := crs.Delete(ctx, "b", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := crs.Get(ctx, "b", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("Get after Delete: err = %v", err)
	}
	if err := crs.Delete(ctx, "", metav1.DeleteOptions{}); err != metadata.ErrNameRequired {
		t.Fatalf("Delete without a name: err = %v", err)
	}
	if err := crs.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "tier=batch"}); err != nil {
		t.Fatal(err)
	}
	// "a" has a finalizer: it stays, being deleted.
	if list, err := crs.List(ctx, metav1.ListOptions{}); err != nil || len(list.Items) != 1 || list.Items[0].DeletionTimestamp == nil {
		t.Fatalf("List after DeleteCollection = %v, %v", list, err)
	}
}

// TestClient_AcceptHeaders: the client asks for PartialObjectMetadata
// (PartialObjectMetadataList for a list), with plain JSON as the
// fallback, and refuses an answer that is not an object's metadata.
func TestClient_AcceptHeaders(t *testing.T) {
	accepts := map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		verb := r.Method
		if r.URL.Query().Get("watch") == "true" {
			verb = "WATCH"
		} else if r.Method == http.MethodGet && r.URL.Path == "/api/v1/configmaps" {
			verb = "LIST"
		}
		accepts[verb] = r.Header.Get("Accept")
		w.Header().Set("Content-Type", "application/json")
		switch verb {
		case "LIST":
			w.Write([]byte(`{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"3"},"items":[]}`))
		case "WATCH":
			w.WriteHeader(http.StatusOK)
		default:
			w.Write([]byte(`{"kind":"Widget","apiVersion":"v1","spec":{}}`)) // no metadata
		}
	}))
	defer srv.Close()
	mc, err := metadata.NewForConfig(&client.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cms := mc.Resource(scheme.GroupVersionResource{Version: "v1", Resource: "configmaps"})
	if _, err := cms.List(ctx, metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	w, err := cms.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Stop()
	if _, err := cms.Namespace("default").Get(ctx, "x", metav1.GetOptions{}); err == nil {
		t.Error("Get of an answer without metadata: no error")
	}
	if _, err := cms.Namespace("default").Patch(ctx, "x", client.MergePatchType, []byte(`{}`), metav1.PatchOptions{}); err == nil {
		t.Error("Patch of an answer without metadata: no error")
	}
	want := map[string]string{
		"LIST":  "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json",
		"WATCH": "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json",
		"GET":   "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json",
		"PATCH": "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json",
	}
	for verb, accept := range want {
		if accepts[verb] != accept {
			t.Errorf("%s Accept = %q, want %q", verb, accepts[verb], accept)
		}
	}
}

// TestClient_OmitManagedFields: a client made with OmitManagedFields
// answers Get, List and Watch without managedFields, and the metadata
// around them intact; the plain client keeps them; with
// OmitLabelsAndAnnotations too, the labels go.
func TestClient_OmitManagedFields(t *testing.T) {
	const meta = `{"name":"a","namespace":"default","uid":"u-a","resourceVersion":"7","labels":{"tier":"batch"},"annotations":{"note":"x"},` +
		`"managedFields":[{"manager":"m","operation":"Update","apiVersion":"stable.example.com/v1","time":"2026-12-02T07:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{}}}]}`
	const object = `{"apiVersion":"meta.k8s.io/v1","kind":"PartialObjectMetadata","metadata":` + meta + `}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Query().Get("watch") != "":
			w.Write([]byte(`{"type":"ADDED","object":` + object + "}\n")) //nolint:errcheck
		case r.URL.Path == "/apis/stable.example.com/v1/namespaces/default/crontabs":
			w.Write([]byte(`{"apiVersion":"meta.k8s.io/v1","kind":"PartialObjectMetadataList","metadata":{"resourceVersion":"7"},"items":[` + object + `]}`)) //nolint:errcheck
		default:
			w.Write([]byte(object)) //nolint:errcheck
		}
	}))
	defer srv.Close()
	mc, err := metadata.NewForConfig(&client.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		client *metadata.Client
		fields int    // managedFields entries wanted
		tier   string // the label wanted
	}{
		{"Kept", mc, 1, "batch"},
		{"Omitted", mc.OmitManagedFields(), 0, "batch"},
		{"LabelsAndAnnotationsOmitted", mc.OmitManagedFields().OmitLabelsAndAnnotations(), 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			crs := tc.client.Resource(crontabs).Namespace("default")
			check := func(verb string, m *metav1.PartialObjectMetadata) {
				t.Helper()
				if m.Name != "a" || m.UID != "u-a" || m.ResourceVersion != "7" || m.Labels["tier"] != tc.tier || len(m.Annotations) != len(m.Labels) || len(m.ManagedFields) != tc.fields {
					t.Errorf("%s = %#v", verb, m.ObjectMeta)
				}
			}
			got, err := crs.Get(ctx, "a", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			check("Get", got)
			list, err := crs.List(ctx, metav1.ListOptions{})
			if err != nil || len(list.Items) != 1 {
				t.Fatalf("List = %v, %v", list, err)
			}
			check("List", &list.Items[0])
			w, err := crs.Watch(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			select {
			case ev := <-w.ResultChan():
				m, ok := ev.Object.(*metav1.PartialObjectMetadata)
				if !ok {
					t.Fatalf("event %s %#v", ev.Type, ev.Object)
				}
				check("Watch", m)
			case <-time.After(10 * time.Second):
				t.Fatal("no event")
			}
		})
	}
}
