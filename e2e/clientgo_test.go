package e2e

import (
	"context"
	"fmt"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclientset "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"
)

// cronTabs is the resource of the CronTab CRD, in its storage version.
var cronTabs = schema.GroupVersionResource{Group: crdGroup, Version: "v1", Resource: "crontabs"}

// TestClientGo drives one crdlab server with client-go, as programs
// written for Kubernetes do: the typed apiextensions clientset, discovery
// and a RESTMapper, the dynamic client, and a dynamic shared informer.
func TestClientGo(t *testing.T) {
	s := startServer(t)
	cfg := s.restConfig(t)
	rec := &requestRecorder{}
	cfg.Wrap(rec.wrap)
	ctx := t.Context()
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The namespaces the subtests write in: objects can only be created in
	// a namespace that exists, as in any cluster.
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, ns := range []string{"bulk", "paged", "watched", "informed", "compressed"} {
		if _, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
			t.Fatalf("create namespace %s: %v", ns, err)
		}
	}

	if !t.Run("CRDClientset", func(t *testing.T) {
		row := feature(t, "client-go", "typed apiextensions clientset: create a CRD, watch its conditions",
			"apiextensions clientset: CustomResourceDefinitions().Create, Watch")
		cs, err := apiextensionsclientset.NewForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		crds := cs.ApiextensionsV1().CustomResourceDefinitions()
		created, err := crds.Create(ctx, loadCRD(t), metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("create CRD: %v", err)
		}
		w, err := crds.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=" + crdName, ResourceVersion: created.ResourceVersion})
		if err != nil {
			t.Fatalf("watch CRD: %v", err)
		}
		defer w.Stop()
		seen := map[apiextensionsv1.CustomResourceDefinitionConditionType]bool{}
		timeout := time.After(eventualTimeout)
		for !seen[apiextensionsv1.Established] {
			select {
			case ev, ok := <-w.ResultChan():
				if !ok {
					t.Fatal("CRD watch ended before the CRD was Established")
				}
				crd, isCRD := ev.Object.(*apiextensionsv1.CustomResourceDefinition)
				if ev.Type != watch.Modified || !isCRD {
					t.Fatalf("watch event %s %T, want MODIFIED CustomResourceDefinition", ev.Type, ev.Object)
				}
				for _, c := range crd.Status.Conditions {
					if c.Status == apiextensionsv1.ConditionTrue {
						seen[c.Type] = true
					}
				}
			case <-timeout:
				t.Fatalf("CRD not Established after %v; conditions seen True: %v", eventualTimeout, seen)
			}
		}
		if !seen[apiextensionsv1.NamesAccepted] {
			t.Errorf("Established without NamesAccepted")
		}
		// An update through the clientset (protobuf too) keeps the CRD. It
		// is read, changed and written again on a conflict, as clients do:
		// the status controllers may still be writing the CRD.
		var crd *apiextensionsv1.CustomResourceDefinition
		err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
			cur, err := crds.Get(ctx, crdName, metav1.GetOptions{})
			if err != nil {
				return err
			}
			cur.Labels = map[string]string{"owner": "e2e"}
			crd, err = crds.Update(ctx, cur, metav1.UpdateOptions{})
			return err
		})
		if err != nil || crd.Labels["owner"] != "e2e" {
			t.Fatalf("Update CRD: %v, %v", crd, err)
		}
		if rec.saw(func(r recordedRequest) bool {
			return r.method == http.MethodPost && r.status == http.StatusCreated && strings.HasPrefix(r.sentType, "application/vnd.kubernetes.protobuf")
		}) {
			row.notef("the clientset sends protobuf (client-go's default for built-in kinds); crdlab reads it and answers JSON")
		}
	}) {
		t.Fatal("the CRD is not established; every other step needs it")
	}

	t.Run("Discovery", func(t *testing.T) {
		row := feature(t, "client-go", "discovery client", "discovery.DiscoveryClient: ServerVersion, ServerGroupsAndResources, ServerPreferredResources")
		dc, err := discovery.NewDiscoveryClientForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		v, err := dc.ServerVersion()
		if err != nil || v.Major != "1" {
			t.Errorf("ServerVersion = %+v, %v", v, err)
		}
		// A fresh client sees the CRD at once (crdlab's discovery is
		// updated before the CRD reports Established).
		groups, lists, err := dc.ServerGroupsAndResources()
		if err != nil {
			t.Fatalf("ServerGroupsAndResources: %v", err)
		}
		var group *metav1.APIGroup
		for _, g := range groups {
			if g.Name == crdGroup {
				group = g
			}
		}
		if group == nil || group.PreferredVersion.Version != "v1" || len(group.Versions) != 2 {
			t.Errorf("group %s = %+v, want versions v1 (preferred) and v1beta1", crdGroup, group)
		}
		res := findResource(lists, crdGroup+"/v1", "crontabs")
		if res == nil {
			t.Fatalf("no crontabs in %s/v1", crdGroup)
		}
		if res.Kind != "CronTab" || !res.Namespaced || !slices.Equal(res.ShortNames, []string{"ct"}) ||
			!slices.Equal(res.Categories, []string{"all"}) || !slices.Contains(res.Verbs, "watch") || res.SingularName != "crontab" {
			t.Errorf("crontabs = %+v", res)
		}
		for _, sub := range []string{"crontabs/status", "crontabs/scale"} {
			if findResource(lists, crdGroup+"/v1", sub) == nil {
				t.Errorf("no %s in discovery", sub)
			}
		}
		if scale := findResource(lists, crdGroup+"/v1", "crontabs/scale"); scale != nil && (scale.Group != "autoscaling" || scale.Kind != "Scale") {
			t.Errorf("crontabs/scale kind = %s/%s, want autoscaling Scale", scale.Group, scale.Kind)
		}
		preferred, err := dc.ServerPreferredResources()
		if err != nil {
			t.Fatalf("ServerPreferredResources: %v", err)
		}
		if findResource(preferred, crdGroup+"/v1", "crontabs") == nil {
			t.Errorf("crontabs not preferred in v1")
		}
		if !rec.saw(func(r recordedRequest) bool {
			return r.path == "/apis" && strings.Contains(r.contentType, "apidiscovery.k8s.io")
		}) {
			t.Errorf("client-go did not get aggregated discovery from /apis")
		} else {
			row.notef("aggregated discovery (apidiscovery.k8s.io/v2); /api answers 404, which client-go tolerates")
		}
	})

	t.Run("RESTMapper", func(t *testing.T) {
		feature(t, "client-go", "RESTMapper resolves the new kind", "restmapper.NewDeferredDiscoveryRESTMapper, NewShortcutExpander")
		dc := discovery.NewDiscoveryClientForConfigOrDie(cfg)
		mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
		m, err := mapper.RESTMapping(schema.GroupKind{Group: crdGroup, Kind: "CronTab"})
		if err != nil {
			t.Fatalf("RESTMapping: %v", err)
		}
		if m.Resource != cronTabs || m.Scope.Name() != meta.RESTScopeNameNamespace {
			t.Errorf("RESTMapping = %v %v, want %v, namespaced", m.Resource, m.Scope.Name(), cronTabs)
		}
		m, err = mapper.RESTMapping(schema.GroupKind{Group: crdGroup, Kind: "CronTab"}, "v1beta1")
		if err != nil || m.Resource.Version != "v1beta1" {
			t.Errorf("RESTMapping(v1beta1) = %v, %v", m, err)
		}
		gvk, err := mapper.KindFor(schema.GroupVersionResource{Resource: "crontab"})
		if err != nil || gvk != cronTabs.GroupVersion().WithKind("CronTab") {
			t.Errorf("KindFor(crontab) = %v, %v", gvk, err)
		}
		expander := restmapper.NewShortcutExpander(mapper, dc, nil)
		gvr, err := expander.ResourceFor(schema.GroupVersionResource{Resource: "ct"})
		if err != nil || gvr != cronTabs {
			t.Errorf("ResourceFor(ct) = %v, %v", gvr, err)
		}
	})

	t.Run("DynamicCRUD", func(t *testing.T) {
		feature(t, "client-go", "dynamic client: create, get, update, patch, delete",
			"dynamic.Interface: Create, Get, Update, Patch (merge, JSON), Delete")
		ri := dyn.Resource(cronTabs).Namespace("default")
		created, err := ri.Create(ctx, newCronTab("crud", "img:1"), metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("Create: %v", err)
		}
		if r, _, _ := unstructured.NestedInt64(created.Object, "spec", "replicas"); r != 1 {
			t.Errorf("spec.replicas = %d, want the schema's default 1", r)
		}
		if created.GetUID() == "" || created.GetResourceVersion() == "" || created.GetGeneration() != 1 {
			t.Errorf("created metadata: uid %q rv %q generation %d", created.GetUID(), created.GetResourceVersion(), created.GetGeneration())
		}
		got, err := ri.Get(ctx, "crud", metav1.GetOptions{})
		if err != nil || got.GetResourceVersion() != created.GetResourceVersion() {
			t.Fatalf("Get = %v, %v", got, err)
		}
		_ = unstructured.SetNestedField(got.Object, "img:2", "spec", "image")
		updated, err := ri.Update(ctx, got, metav1.UpdateOptions{})
		if err != nil {
			t.Fatalf("Update: %v", err)
		}
		if updated.GetResourceVersion() == got.GetResourceVersion() || updated.GetGeneration() != 2 {
			t.Errorf("after Update: rv %s (was %s), generation %d, want a new rv and generation 2",
				updated.GetResourceVersion(), got.GetResourceVersion(), updated.GetGeneration())
		}
		patched, err := ri.Patch(ctx, "crud", types.MergePatchType, []byte(`{"spec":{"replicas":4}}`), metav1.PatchOptions{})
		if err != nil {
			t.Fatalf("merge Patch: %v", err)
		}
		if r, _, _ := unstructured.NestedInt64(patched.Object, "spec", "replicas"); r != 4 {
			t.Errorf("after merge patch replicas = %d", r)
		}
		patched, err = ri.Patch(ctx, "crud", types.JSONPatchType, []byte(`[{"op":"add","path":"/metadata/labels","value":{"a":"b"}}]`), metav1.PatchOptions{})
		if err != nil || patched.GetLabels()["a"] != "b" {
			t.Fatalf("JSON Patch = %v, %v", patched, err)
		}
		if err := ri.Delete(ctx, "crud", metav1.DeleteOptions{}); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		if _, err := ri.Get(ctx, "crud", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("Get after Delete: %v, want NotFound", err)
		}
	})

	t.Run("Errors", func(t *testing.T) {
		feature(t, "client-go", "API errors: NotFound, AlreadyExists, Invalid (with field causes)",
			"errors.IsNotFound, IsAlreadyExists, IsInvalid")
		ri := dyn.Resource(cronTabs).Namespace("default")
		if _, err := ri.Create(ctx, newCronTab("dup", "img:1"), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := ri.Create(ctx, newCronTab("dup", "img:1"), metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
			t.Errorf("second Create: %v, want AlreadyExists", err)
		}
		if err := ri.Delete(ctx, "nope", metav1.DeleteOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("Delete of a missing object: %v, want NotFound", err)
		}
		bad := newCronTab("bad", "img:1")
		_ = unstructured.SetNestedField(bad.Object, int64(50), "spec", "replicas")
		_, err := ri.Create(ctx, bad, metav1.CreateOptions{})
		if !apierrors.IsInvalid(err) {
			t.Fatalf("Create with replicas 50: %v, want Invalid", err)
		}
		var st apierrors.APIStatus
		if !asAPIStatus(err, &st) || st.Status().Details == nil || len(st.Status().Details.Causes) == 0 ||
			st.Status().Details.Causes[0].Field != "spec.replicas" {
			t.Errorf("Invalid error causes: %+v", err)
		}
	})

	t.Run("Conflict", func(t *testing.T) {
		feature(t, "client-go", "optimistic concurrency: a stale update is a Conflict", "errors.IsConflict on Update with an old resourceVersion")
		ri := dyn.Resource(cronTabs).Namespace("default")
		obj, err := ri.Create(ctx, newCronTab("contended", "img:1"), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		first, second := obj.DeepCopy(), obj.DeepCopy()
		_ = unstructured.SetNestedField(first.Object, "img:first", "spec", "image")
		_ = unstructured.SetNestedField(second.Object, "img:second", "spec", "image")
		if _, err := ri.Update(ctx, first, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		_, err = ri.Update(ctx, second, metav1.UpdateOptions{})
		if !apierrors.IsConflict(err) {
			t.Fatalf("stale Update: %v, want Conflict", err)
		}
		if !strings.Contains(err.Error(), "the object has been modified; please apply your changes to the latest version and try again") {
			t.Errorf("conflict message = %q", err)
		}
	})

	t.Run("DeleteCollection", func(t *testing.T) {
		feature(t, "client-go", "delete a collection by label selector", "dynamic.Interface: DeleteCollection")
		ri := dyn.Resource(cronTabs).Namespace("bulk")
		for i, bulk := range []string{"yes", "yes", "no"} {
			obj := newCronTab(fmt.Sprintf("bulk-%d", i), "img:1")
			obj.SetLabels(map[string]string{"bulk": bulk})
			if _, err := ri.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		if err := ri.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "bulk=yes"}); err != nil {
			t.Fatalf("DeleteCollection: %v", err)
		}
		list, err := ri.List(ctx, metav1.ListOptions{})
		if err != nil || len(list.Items) != 1 || list.Items[0].GetName() != "bulk-2" {
			t.Errorf("after DeleteCollection: %v, %v; want only bulk-2", list, err)
		}
	})

	t.Run("ServerSideApply", func(t *testing.T) {
		feature(t, "client-go", "server-side apply", "dynamic.Interface: Apply, ApplyStatus")
		ri := dyn.Resource(cronTabs).Namespace("default")
		obj, err := ri.Apply(ctx, "applied", newCronTab("applied", "img:1"), metav1.ApplyOptions{FieldManager: "e2e"})
		if err != nil {
			t.Fatalf("Apply: %v", err)
		}
		mf := obj.GetManagedFields()
		if len(mf) != 1 || mf[0].Manager != "e2e" || mf[0].Operation != metav1.ManagedFieldsOperationApply {
			t.Fatalf("managedFields %+v, want one Apply entry of e2e", mf)
		}
		// Another manager's different image conflicts; force takes it.
		_, err = ri.Apply(ctx, "applied", newCronTab("applied", "img:2"), metav1.ApplyOptions{FieldManager: "other"})
		if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), `conflict with "e2e": .spec.image`) {
			t.Fatalf("Apply by another manager: %v, want a 409 conflict on .spec.image", err)
		}
		obj, err = ri.Apply(ctx, "applied", newCronTab("applied", "img:2"), metav1.ApplyOptions{FieldManager: "other", Force: true})
		if err != nil || obj.Object["spec"].(map[string]any)["image"] != "img:2" {
			t.Fatalf("forced Apply: %v, %v", obj, err)
		}
		st := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "stable.example.com/v1", "kind": "CronTab",
			"metadata": map[string]any{"name": "applied"},
			"status":   map[string]any{"replicas": int64(3)},
		}}
		obj, err = ri.ApplyStatus(ctx, "applied", st, metav1.ApplyOptions{FieldManager: "status-writer"})
		if err != nil {
			t.Fatalf("ApplyStatus: %v", err)
		}
		var sub []string
		for _, e := range obj.GetManagedFields() {
			sub = append(sub, e.Manager+"/"+e.Subresource)
		}
		if !slices.Contains(sub, "status-writer/status") {
			t.Fatalf("managedFields %v, want an entry of status-writer on status", sub)
		}
	})

	t.Run("StatusSubresource", func(t *testing.T) {
		feature(t, "client-go", "status subresource", "dynamic.Interface: UpdateStatus, Update ignores status")
		ri := dyn.Resource(cronTabs).Namespace("default")
		obj, err := ri.Create(ctx, newCronTab("with-status", "img:1"), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// Status writes change status only …
		_ = unstructured.SetNestedField(obj.Object, int64(1), "status", "replicas")
		_ = unstructured.SetNestedField(obj.Object, "img:ignored", "spec", "image")
		st, err := ri.UpdateStatus(ctx, obj, metav1.UpdateOptions{})
		if err != nil {
			t.Fatalf("UpdateStatus: %v", err)
		}
		if r, _, _ := unstructured.NestedInt64(st.Object, "status", "replicas"); r != 1 {
			t.Errorf("status.replicas = %d after UpdateStatus", r)
		}
		if img, _, _ := unstructured.NestedString(st.Object, "spec", "image"); img != "img:1" || st.GetGeneration() != 1 {
			t.Errorf("UpdateStatus changed the spec: image %q generation %d", img, st.GetGeneration())
		}
		// … and main-resource writes change everything but status.
		_ = unstructured.SetNestedField(st.Object, int64(9), "status", "replicas")
		_ = unstructured.SetNestedField(st.Object, int64(2), "spec", "replicas")
		up, err := ri.Update(ctx, st, metav1.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r, _, _ := unstructured.NestedInt64(up.Object, "status", "replicas"); r != 1 {
			t.Errorf("Update changed status.replicas to %d", r)
		}
		got, err := ri.Get(ctx, "with-status", metav1.GetOptions{}, "status")
		if err != nil || got.GetName() != "with-status" {
			t.Errorf("Get status: %v, %v", got, err)
		}
	})

	t.Run("ListPagination", func(t *testing.T) {
		feature(t, "client-go", "list with pagination (limit and continue)", "dynamic.Interface: List with Limit, Continue")
		ri := dyn.Resource(cronTabs).Namespace("paged")
		for i := range 7 {
			if _, err := ri.Create(ctx, newCronTab(fmt.Sprintf("page-%d", i), "img:1"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		var names []string
		var sizes []int
		rv, cont := "", ""
		for {
			page, err := ri.List(ctx, metav1.ListOptions{Limit: 3, Continue: cont})
			if err != nil {
				t.Fatalf("List page %d: %v", len(sizes), err)
			}
			if rv == "" {
				rv = page.GetResourceVersion()
			} else if page.GetResourceVersion() != rv {
				t.Errorf("page %d at resourceVersion %s, want the first page's %s", len(sizes), page.GetResourceVersion(), rv)
			}
			sizes = append(sizes, len(page.Items))
			for _, it := range page.Items {
				names = append(names, it.GetName())
			}
			if cont = page.GetContinue(); cont == "" {
				break
			}
			if len(sizes) > 5 {
				t.Fatal("too many pages")
			}
		}
		if !slices.Equal(sizes, []int{3, 3, 1}) || len(names) != 7 || !slices.IsSorted(names) {
			t.Errorf("pages of %v, names %v; want 3, 3, 1 and 7 sorted names", sizes, names)
		}
	})

	t.Run("CompressedList", func(t *testing.T) {
		feature(t, "client-go", "answers over 128 KiB arrive gzip-compressed, as client-go asks (Go's transport)",
			"dynamic.Interface: List of 40 objects of 4 KiB; Get of one")
		ri := dyn.Resource(cronTabs).Namespace("compressed")
		note := strings.Repeat("a note of four kibibytes. ", 160)[:4096]
		for i := range 40 {
			ct := newCronTab(fmt.Sprintf("big-%d", i), "img:1")
			if err := unstructured.SetNestedField(ct.Object, note, "spec", "note"); err != nil {
				t.Fatal(err)
			}
			if _, err := ri.Create(ctx, ct, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		list, err := ri.List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Items) != 40 {
			t.Fatalf("listed %d objects, want 40", len(list.Items))
		}
		for _, it := range list.Items {
			if got, _, _ := unstructured.NestedString(it.Object, "spec", "note"); got != note {
				t.Fatalf("%s: the note came back as %d bytes", it.GetName(), len(got))
			}
		}
		listPath := "/apis/" + crdGroup + "/v1/namespaces/compressed/crontabs"
		if !rec.saw(func(r recordedRequest) bool { return r.method == "GET" && r.path == listPath && r.uncompressed }) {
			t.Errorf("the list of %d KiB did not come gzip-compressed", 40*4)
		}
		if _, err := ri.Get(ctx, "big-0", metav1.GetOptions{}); err != nil {
			t.Fatal(err)
		}
		if rec.saw(func(r recordedRequest) bool { return r.path == listPath+"/big-0" && r.uncompressed }) {
			t.Errorf("an answer of 4 KiB came compressed")
		}
	})

	t.Run("Watch", func(t *testing.T) {
		feature(t, "client-go", "watch", "dynamic.Interface: Watch from a list's resourceVersion")
		ri := dyn.Resource(cronTabs).Namespace("watched")
		list, err := ri.List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w, err := ri.Watch(ctx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion(), AllowWatchBookmarks: true})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		obj, err := ri.Create(ctx, newCronTab("w", "img:1"), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_ = unstructured.SetNestedField(obj.Object, "img:2", "spec", "image")
		if _, err := ri.Update(ctx, obj, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := ri.Delete(ctx, "w", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		var got []string
		timeout := time.After(eventualTimeout)
		for len(got) < 3 {
			select {
			case ev, ok := <-w.ResultChan():
				if !ok {
					t.Fatalf("watch ended after %v", got)
				}
				if ev.Type == watch.Bookmark {
					continue
				}
				u, _ := ev.Object.(*unstructured.Unstructured)
				img, _, _ := unstructured.NestedString(u.Object, "spec", "image")
				got = append(got, fmt.Sprintf("%s %s %s", ev.Type, u.GetName(), img))
			case <-timeout:
				t.Fatalf("events so far %v", got)
			}
		}
		want := []string{"ADDED w img:1", "MODIFIED w img:2", "DELETED w img:2"}
		if !slices.Equal(got, want) {
			t.Errorf("events = %q, want %q", got, want)
		}
	})

	t.Run("Informer", func(t *testing.T) {
		row := feature(t, "client-go", "dynamic shared informer: sync, add/update/delete (default watch-list on)",
			"dynamicinformer.NewFilteredDynamicSharedInformerFactory, WaitForCacheSync, AddEventHandler")
		ri := dyn.Resource(cronTabs).Namespace("informed")
		if _, err := ri.Create(ctx, newCronTab("before", "img:1"), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		events := make(chan string, 100)
		factory := dynamicinformer.NewFilteredDynamicSharedInformerFactory(dyn, 0, "informed", nil)
		informer := factory.ForResource(cronTabs).Informer()
		_, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) { events <- "add " + nameOf(obj) },
			UpdateFunc: func(_, obj any) {
				img, _, _ := unstructured.NestedString(obj.(*unstructured.Unstructured).Object, "spec", "image")
				events <- "update " + nameOf(obj) + " " + img
			},
			DeleteFunc: func(obj any) { events <- "delete " + nameOf(obj) },
		})
		if err != nil {
			t.Fatal(err)
		}
		infCtx, stop := context.WithCancel(ctx)
		defer func() { stop(); factory.Shutdown() }()
		factory.Start(infCtx.Done())
		syncCtx, cancel := context.WithTimeout(ctx, eventualTimeout)
		defer cancel()
		for gvr, ok := range factory.WaitForCacheSync(syncCtx.Done()) {
			if !ok {
				t.Fatalf("informer for %v did not sync in %v", gvr, eventualTimeout)
			}
		}
		wantEvent(t, events, "add before")

		obj, err := ri.Create(ctx, newCronTab("during", "img:1"), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		wantEvent(t, events, "add during")
		_ = unstructured.SetNestedField(obj.Object, "img:2", "spec", "image")
		if _, err := ri.Update(ctx, obj, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		wantEvent(t, events, "update during img:2")
		if err := ri.Delete(ctx, "during", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		wantEvent(t, events, "delete during")
		if keys := informer.GetStore().ListKeys(); !slices.Equal(keys, []string{"informed/before"}) {
			t.Errorf("informer store keys = %v", keys)
		}

		// client-go's default is to start informers with a watch-list
		// request; a list means that request failed and it fell back.
		path := "/apis/" + crdGroup + "/v1/namespaces/informed/crontabs"
		if !rec.saw(func(r recordedRequest) bool {
			return r.path == path && r.query.Get("sendInitialEvents") == "true" && r.status == http.StatusOK
		}) {
			t.Errorf("the informer sent no watch-list request (sendInitialEvents=true)")
		}
		if rec.saw(func(r recordedRequest) bool {
			return r.method == http.MethodGet && r.path == path && r.query.Get("watch") == ""
		}) {
			t.Errorf("the informer listed: its watch-list request failed and it fell back to list+watch")
		} else {
			row.notef("synced through a watch-list request (sendInitialEvents=true), no fallback to list")
		}
	})

	t.Run("CRDClientsetDelete", func(t *testing.T) {
		feature(t, "client-go", "typed apiextensions clientset: delete the CRD, its instances go", "apiextensions clientset: CustomResourceDefinitions().Delete")
		cs, err := apiextensionsclientset.NewForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		crds := cs.ApiextensionsV1().CustomResourceDefinitions()
		if err := crds.Delete(ctx, crdName, metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationForeground)}); err != nil {
			t.Fatalf("Delete CRD: %v", err)
		}
		eventually(t, "CRD gone", func() error {
			_, err := crds.Get(ctx, crdName, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return nil
			}
			return fmt.Errorf("still there: %v", err)
		})
		// Made again, it has no instances.
		if _, err := crds.Create(ctx, loadCRD(t), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		eventually(t, "instances gone", func() error {
			list, err := dyn.Resource(cronTabs).List(ctx, metav1.ListOptions{})
			if err != nil {
				return err
			}
			if len(list.Items) > 0 {
				return fmt.Errorf("%d instances left", len(list.Items))
			}
			return nil
		})
	})
}

// loadCRD reads testdata/crontab-crd.yaml, the CRD the kubectl tests apply.
func loadCRD(t *testing.T) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	b, err := os.ReadFile("testdata/crontab-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict(b, crd); err != nil {
		t.Fatal(err)
	}
	return crd
}

// newCronTab is a CronTab named name, without replicas (the schema
// defaults them to 1).
func newCronTab(name, image string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": crdGroup + "/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": name},
		"spec":       map[string]any{"cronSpec": "* * * * */5", "image": image},
	}}
}

func findResource(lists []*metav1.APIResourceList, gv, name string) *metav1.APIResource {
	for _, l := range lists {
		if l.GroupVersion != gv {
			continue
		}
		for i := range l.APIResources {
			if l.APIResources[i].Name == name {
				return &l.APIResources[i]
			}
		}
	}
	return nil
}

func nameOf(obj any) string {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("%T", obj)
	}
	return m.GetName()
}

// wantEvent waits for the next informer event and checks it.
func wantEvent(t *testing.T, events <-chan string, want string) {
	t.Helper()
	select {
	case got := <-events:
		if got != want {
			t.Errorf("informer event %q, want %q", got, want)
		}
	case <-time.After(eventualTimeout):
		t.Fatalf("no informer event after %v, want %q", eventualTimeout, want)
	}
}

func asAPIStatus(err error, st *apierrors.APIStatus) bool {
	s, ok := err.(apierrors.APIStatus)
	if ok {
		*st = s
	}
	return ok
}

// recordedRequest is one request a client made, with its answer's status
// and content type.
type recordedRequest struct {
	method, path string
	query        url.Values
	accept       string
	sentType     string // the request's Content-Type
	status       int
	contentType  string
	// uncompressed: the answer came gzip-compressed and Go's transport,
	// which asked for gzip, decompressed it.
	uncompressed bool
}

// requestRecorder is a client transport wrapper that remembers every
// request, so tests can check which protocol a client used.
type requestRecorder struct {
	mu   sync.Mutex // guards reqs
	reqs []recordedRequest
}

func (r *requestRecorder) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(req)
		rr := recordedRequest{method: req.Method, path: req.URL.Path, query: req.URL.Query(),
			accept: req.Header.Get("Accept"), sentType: req.Header.Get("Content-Type")}
		if resp != nil {
			rr.status, rr.contentType, rr.uncompressed = resp.StatusCode, resp.Header.Get("Content-Type"), resp.Uncompressed
		}
		r.mu.Lock()
		r.reqs = append(r.reqs, rr)
		r.mu.Unlock()
		return resp, err
	})
}

// saw reports whether some recorded request matches.
func (r *requestRecorder) saw(match func(recordedRequest) bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.ContainsFunc(r.reqs, match)
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
