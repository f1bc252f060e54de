package client_test

import (
	"context"
	"slices"
	"testing"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/internal/apitest"
	"github.com/crdlab/crdlab/machinery/watch"
)

// newCRD returns the CronTab CRD of the Kubernetes docs, named
// <plural>.stable.example.com.
func newCRD(plural, kind string) *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"},
		ObjectMeta: metav1.ObjectMeta{Name: plural + ".stable.example.com", Labels: map[string]string{"team": "a"}},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "stable.example.com",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: plural, Singular: kind, Kind: kind},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema:       &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{Type: "object"}},
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
			}},
		},
	}
}

func newClientset(t *testing.T) (*client.Clientset, *apitest.Server) {
	t.Helper()
	srv := apitest.NewServer(t)
	cs, err := client.NewForConfig(&client.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	return cs, srv
}

// TestCustomResourceDefinitions_RoundTrip walks a CRD through its life, as
// the articles' controllers do over loopback.
func TestCustomResourceDefinitions_RoundTrip(t *testing.T) {
	cs, srv := newClientset(t)
	crds := cs.ApiextensionsV1().CustomResourceDefinitions()
	ctx := context.Background()

	w, err := crds.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	created, err := crds.Create(ctx, newCRD("crontabs", "CronTab"), metav1.CreateOptions{FieldManager: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if created.Name != "crontabs.stable.example.com" || created.UID == "" || created.ResourceVersion == "" ||
		created.Spec.Names.Kind != "CronTab" || created.Spec.Versions[0].Subresources.Status == nil {
		t.Fatalf("Create = %+v", created)
	}
	if ev := next(t, w); ev.Type != watch.Added || ev.Object.(*apiextensionsv1.CustomResourceDefinition).Name != created.Name {
		t.Fatalf("watch event = %s %#v", ev.Type, ev.Object)
	}

	t.Run("ErrAlreadyExists", func(t *testing.T) {
		_, err := crds.Create(ctx, newCRD("crontabs", "CronTab"), metav1.CreateOptions{})
		if !apierrors.IsAlreadyExists(err) {
			t.Fatalf("err = %v", err)
		}
	})

	got, err := crds.Get(ctx, created.Name, metav1.GetOptions{})
	if err != nil || got.ResourceVersion != created.ResourceVersion {
		t.Fatalf("Get = %+v, %v", got, err)
	}

	// The status subresource: what the naming controller writes.
	got.Status.AcceptedNames = got.Spec.Names
	got.Status.Conditions = []apiextensionsv1.CustomResourceDefinitionCondition{
		{Type: apiextensionsv1.NamesAccepted, Status: apiextensionsv1.ConditionTrue, Reason: "NoConflicts"},
	}
	withStatus, err := crds.UpdateStatus(ctx, got, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(withStatus.Status.Conditions) != 1 || withStatus.Status.AcceptedNames.Plural != "crontabs" {
		t.Fatalf("UpdateStatus = %+v", withStatus.Status)
	}
	if ev := next(t, w); ev.Type != watch.Modified {
		t.Fatalf("watch event = %s", ev.Type)
	}

	t.Run("ErrConflict", func(t *testing.T) {
		_, err := crds.Update(ctx, got, metav1.UpdateOptions{}) // got's resourceVersion is stale now
		if !apierrors.IsConflict(err) {
			t.Fatalf("err = %v", err)
		}
	})

	withStatus.Spec.Names.ShortNames = []string{"ct"}
	updated, err := crds.Update(ctx, withStatus, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(updated.Spec.Names.ShortNames, []string{"ct"}) || updated.Generation != 2 || len(updated.Status.Conditions) != 1 {
		t.Fatalf("Update = generation %d, spec %+v, status %+v", updated.Generation, updated.Spec.Names, updated.Status)
	}
	next(t, w)

	patched, err := crds.Patch(ctx, created.Name, client.MergePatchType, []byte(`{"metadata":{"labels":{"team":"b"}}}`), metav1.PatchOptions{FieldManager: "p"})
	if err != nil || patched.Labels["team"] != "b" {
		t.Fatalf("Patch = %v, %v", patched.Labels, err)
	}
	next(t, w)

	t.Run("ErrUnsupportedMediaType", func(t *testing.T) {
		_, err := crds.Patch(ctx, created.Name, client.StrategicMergePatchType, []byte(`{}`), metav1.PatchOptions{})
		if !apierrors.IsUnsupportedMediaType(err) {
			t.Fatalf("err = %v", err)
		}
	})

	if _, err := crds.Create(ctx, newCRD("widgets", "Widget"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	next(t, w)
	list, err := crds.List(ctx, metav1.ListOptions{LabelSelector: "team=a"})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].Name != "widgets.stable.example.com" || list.ResourceVersion == "" {
		t.Fatalf("List = %+v", list)
	}

	if err := crds.Delete(ctx, created.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, w); ev.Type != watch.Deleted {
		t.Fatalf("watch event = %s", ev.Type)
	}
	if _, err := crds.Get(ctx, created.Name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("Get after Delete: err = %v", err)
	}
	if err := crds.Delete(ctx, created.Name, metav1.DeleteOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("second Delete: err = %v", err)
	}

	if err := crds.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "team=a"}); err != nil {
		t.Fatal(err)
	}
	if list, err := crds.List(ctx, metav1.ListOptions{}); err != nil || len(list.Items) != 0 {
		t.Fatalf("List after DeleteCollection = %+v, %v", list, err)
	}

	// The options structs reach the server as query parameters.
	reqs := srv.Requests()
	for _, want := range []string{
		"GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions?watch=true",
		"POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldManager=test",
		"PUT /apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com/status",
		"PATCH /apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com?fieldManager=p",
		"GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions?labelSelector=team%3Da",
		"DELETE /apis/apiextensions.k8s.io/v1/customresourcedefinitions?labelSelector=team%3Da",
	} {
		if !slices.Contains(reqs, want) {
			t.Errorf("no request %q in\n%v", want, reqs)
		}
	}
}

func TestCustomResourceDefinitions_WatchFromResourceVersion(t *testing.T) {
	cs, srv := newClientset(t)
	crds := cs.ApiextensionsV1().CustomResourceDefinitions()
	ctx := context.Background()
	a, err := crds.Create(ctx, newCRD("crontabs", "CronTab"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := crds.Create(ctx, newCRD("widgets", "Widget"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	t.Run("OnlyLaterChanges", func(t *testing.T) {
		w, err := crds.Watch(ctx, metav1.ListOptions{ResourceVersion: a.ResourceVersion})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		ev := next(t, w)
		if crd := ev.Object.(*apiextensionsv1.CustomResourceDefinition); ev.Type != watch.Added || crd.Name != "widgets.stable.example.com" {
			t.Fatalf("first event = %s %s, want ADDED widgets", ev.Type, crd.Name)
		}
	})
	t.Run("ExpiredIsAnErrorEvent", func(t *testing.T) {
		srv.Compact()
		w, err := crds.Watch(ctx, metav1.ListOptions{ResourceVersion: a.ResourceVersion})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		ev := next(t, w)
		status, ok := ev.Object.(*metav1.Status)
		if ev.Type != watch.Error || !ok || !apierrors.IsResourceExpired(apierrors.FromObject(status)) {
			t.Fatalf("event = %s %#v, want ERROR Expired", ev.Type, ev.Object)
		}
		closedSoon(t, w)
	})
}

func TestNewForConfig(t *testing.T) {
	t.Run("ErrHost", func(t *testing.T) {
		if _, err := client.NewForConfig(&client.Config{}); err == nil {
			t.Fatal("no error without a host")
		}
	})
	t.Run("GroupVersionIgnored", func(t *testing.T) {
		cs, err := client.NewForConfig(&client.Config{Host: "h", GroupVersion: &stableV1})
		if err != nil {
			t.Fatal(err)
		}
		rc := cs.ApiextensionsV1().RESTClient()
		if got := rc.Get().Resource("customresourcedefinitions").URL().Path; got != "/apis/apiextensions.k8s.io/v1/customresourcedefinitions" {
			t.Fatalf("path = %s", got)
		}
		if rc.GetRateLimiter() == nil || rc.GetRateLimiter().QPS() != client.DefaultQPS {
			t.Fatal("the Clientset has no default rate limiter")
		}
	})
}
