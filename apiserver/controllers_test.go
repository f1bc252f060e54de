package apiserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/dynamic"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage/bolt"
)

// These tests drive the whole CRD lifecycle through a real server on a
// free loopback port, over HTTP, with the real informer and controllers:
// what docs/crd-states.md draws.

const group = "stable.example.com"

var crontabsGVR = scheme.GroupVersionResource{Group: group, Version: "v1", Resource: "crontabs"}

// lifecycleServer starts a server and returns it, ready, with clients.
func lifecycleServer(t *testing.T) (*testServer, client.CustomResourceDefinitionInterface, *dynamic.DynamicClient) {
	t.Helper()
	return lifecycleServerWith(t, Config{})
}

// lifecycleServerWith is lifecycleServer with cfg.
func lifecycleServerWith(t *testing.T, cfg Config) (*testServer, client.CustomResourceDefinitionInterface, *dynamic.DynamicClient) {
	t.Helper()
	ts := startServer(t, cfg)
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	ccfg := &client.Config{Host: ts.url, QPS: -1}
	cs, err := client.NewForConfig(ccfg)
	require.NoError(t, err)
	dyn, err := dynamic.NewForConfig(ccfg)
	require.NoError(t, err)
	return ts, cs.ApiextensionsV1().CustomResourceDefinitions(), dyn
}

// createNamespaces creates namespaces through the API: objects can only
// be created in a namespace that exists (NamespaceLifecycle).
func createNamespaces(t *testing.T, dyn *dynamic.DynamicClient, names ...string) {
	t.Helper()
	nsGVR := scheme.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	for _, n := range names {
		ns := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": n}}}
		_, err := dyn.Resource(nsGVR).Create(context.Background(), ns, metav1.CreateOptions{})
		require.NoError(t, err)
	}
}

// crontabCRD is the CronTab CRD of the Kubernetes docs, with short name ct.
func crontabCRD() *apiextensionsv1.CustomResourceDefinition {
	preserve := true
	return &apiextensionsv1.CustomResourceDefinition{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"},
		ObjectMeta: metav1.ObjectMeta{Name: "crontabs." + group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: group,
			Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Plural: "crontabs", Singular: "crontab", Kind: "CronTab", ShortNames: []string{"ct"},
			},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: &preserve,
				}},
			}},
		},
	}
}

func crontab(ns, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": group + "/v1", "kind": "CronTab",
		"spec": map[string]any{"cronSpec": "* * * * */5"},
	}}
	u.SetNamespace(ns)
	u.SetName(name)
	return u
}

// condition returns the status and reason of a condition ("" if absent).
func condition(crd *apiextensionsv1.CustomResourceDefinition, t apiextensionsv1.CustomResourceDefinitionConditionType) (apiextensionsv1.ConditionStatus, string) {
	if c := helpers.FindCRDCondition(crd, t); c != nil {
		return c.Status, c.Reason
	}
	return "", ""
}

// settleTimeout bounds the wait for a state the controllers reach on
// their own (Established, NamesAccepted False): a bound for a loaded CI
// machine under -race, not a speed target (those live in bench/).
const settleTimeout = 10 * time.Second

// waitFor polls the CRD every 5ms until ok, failing after within.
func waitFor(t *testing.T, crds client.CustomResourceDefinitionInterface, name string, within time.Duration, ok func(*apiextensionsv1.CustomResourceDefinition) bool) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		crd, err := crds.Get(context.Background(), name, metav1.GetOptions{})
		if err == nil && ok(crd) {
			return crd
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: condition not reached within %v (last: %+v, err %v)", name, within, crd.Status.Conditions, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func established(crd *apiextensionsv1.CustomResourceDefinition) bool {
	return helpers.IsCRDConditionTrue(crd, apiextensionsv1.NamesAccepted) && helpers.IsCRDConditionTrue(crd, apiextensionsv1.Established)
}

// discoveryResources returns the resources /apis/<group>/<version> lists,
// or nil if it answers 404.
func discoveryResources(t *testing.T, ts *testServer, gv string) []string {
	t.Helper()
	code, body := get(t, ts.url+"/apis/"+gv)
	if code == 404 {
		return nil
	}
	require.Equal(t, 200, code, body)
	var list metav1.APIResourceList
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	names := []string{}
	for _, r := range list.APIResources {
		names = append(names, r.Name)
	}
	return names
}

// discoveryVerbs returns the verbs /apis/<group>/v1 lists for crontabs,
// or nil if it does not list them.
func discoveryVerbs(t *testing.T, ts *testServer) []string {
	t.Helper()
	code, body := get(t, ts.url+"/apis/"+group+"/v1")
	if code != 200 {
		return nil
	}
	var list metav1.APIResourceList
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	for _, r := range list.APIResources {
		if r.Name == "crontabs" {
			return r.Verbs
		}
	}
	return nil
}

// openAPIDocumented reports whether /openapi/v3 lists <group>/v1.
func openAPIDocumented(t *testing.T, ts *testServer) bool {
	t.Helper()
	code, body := get(t, ts.url+"/openapi/v3")
	require.Equal(t, 200, code, body)
	var root struct {
		Paths map[string]struct {
			ServerRelativeURL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &root))
	_, ok := root.Paths["apis/"+group+"/v1"]
	return ok
}

func groupAdvertised(t *testing.T, ts *testServer) bool {
	t.Helper()
	code, _ := get(t, ts.url+"/apis/"+group)
	return code == 200
}

// TestCRDLifecycle_Established: create → NamesAccepted → Established
// within a second → served → in discovery.
func TestCRDLifecycle_Established(t *testing.T) {
	ts, crds, dyn := lifecycleServer(t)
	ctx := context.Background()
	require.False(t, groupAdvertised(t, ts))

	start := time.Now()
	_, err := crds.Create(ctx, crontabCRD(), metav1.CreateOptions{})
	require.NoError(t, err)
	crd := waitFor(t, crds, "crontabs."+group, settleTimeout, established)
	t.Logf("created → Established in %v", time.Since(start))

	status, reason := condition(crd, apiextensionsv1.NamesAccepted)
	assert.Equal(t, apiextensionsv1.ConditionTrue, status)
	assert.Equal(t, "NoConflicts", reason)
	_, reason = condition(crd, apiextensionsv1.Established)
	assert.Equal(t, "InitialNamesAccepted", reason)
	assert.Equal(t, crd.Spec.Names.Plural, crd.Status.AcceptedNames.Plural)
	assert.Equal(t, []string{"ct"}, crd.Status.AcceptedNames.ShortNames)

	// Served.
	_, err = dyn.Resource(crontabsGVR).Namespace("default").Create(ctx, crontab("default", "my-new-cron-object"), metav1.CreateOptions{})
	require.NoError(t, err)
	got, err := dyn.Resource(crontabsGVR).Namespace("default").Get(ctx, "my-new-cron-object", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "CronTab", got.GetKind())

	// In discovery: the group, its version and the resource, with every
	// verb.
	eventually(t, "discovery lists crontabs", func() bool {
		rs := discoveryResources(t, ts, group+"/v1")
		return len(rs) == 1 && rs[0] == "crontabs"
	})
	assert.Equal(t, []string{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"}, discoveryVerbs(t, ts))
	code, body := get(t, ts.url+"/apis")
	require.Equal(t, 200, code)
	assert.Contains(t, body, `"name":"`+group+`"`)

	// In OpenAPI: the OpenAPI controller hands the CRD to the handler.
	eventually(t, "OpenAPI documents "+group+"/v1", func() bool { return openAPIDocumented(t, ts) })
	code, body = get(t, ts.url+"/openapi/v3/apis/"+group+"/v1")
	require.Equal(t, 200, code)
	assert.Contains(t, body, `"com.example.stable.v1.CronTab"`)
}

// TestCRDLifecycle_PluralConflict: a CRD whose plural is another CRD's
// short name is not accepted, not served, not in discovery — until the
// other CRD goes and frees the name.
func TestCRDLifecycle_PluralConflict(t *testing.T) {
	ts, crds, dyn := lifecycleServer(t)
	ctx := context.Background()
	_, err := crds.Create(ctx, crontabCRD(), metav1.CreateOptions{})
	require.NoError(t, err)
	waitFor(t, crds, "crontabs."+group, settleTimeout, established)

	ct := crontabCRD()
	ct.Name = "ct." + group
	ct.Spec.Names = apiextensionsv1.CustomResourceDefinitionNames{Plural: "ct", Singular: "cronthing", Kind: "CronThing"}
	_, err = crds.Create(ctx, ct, metav1.CreateOptions{})
	require.NoError(t, err)

	got := waitFor(t, crds, ct.Name, settleTimeout, func(crd *apiextensionsv1.CustomResourceDefinition) bool {
		return helpers.IsCRDConditionFalse(crd, apiextensionsv1.NamesAccepted)
	})
	c := helpers.FindCRDCondition(got, apiextensionsv1.NamesAccepted)
	assert.Equal(t, "PluralConflict", c.Reason)
	assert.Equal(t, `"ct" is already in use`, c.Message)
	status, reason := condition(got, apiextensionsv1.Established)
	assert.Equal(t, apiextensionsv1.ConditionFalse, status)
	assert.Equal(t, "NotAccepted", reason)
	assert.Empty(t, got.Status.AcceptedNames.Plural)

	// Not served, not in discovery.
	ctGVR := scheme.GroupVersionResource{Group: group, Version: "v1", Resource: "ct"}
	_, err = dyn.Resource(ctGVR).Namespace("default").List(ctx, metav1.ListOptions{})
	assert.True(t, apierrors.IsNotFound(err), "want 404, got %v", err)
	code, _ := get(t, ts.url+"/apis/"+group+"/v1/namespaces/default/ct")
	assert.Equal(t, 404, code)
	assert.Equal(t, []string{"crontabs"}, discoveryResources(t, ts, group+"/v1"))

	// The holder of "ct" goes: the naming controller re-kicks the group.
	require.NoError(t, crds.Delete(ctx, "crontabs."+group, metav1.DeleteOptions{}))
	got = waitFor(t, crds, ct.Name, settleTimeout, established)
	_, reason = condition(got, apiextensionsv1.NamesAccepted)
	assert.Equal(t, "NoConflicts", reason)
	eventually(t, "discovery lists ct alone", func() bool {
		rs := discoveryResources(t, ts, group+"/v1")
		return len(rs) == 1 && rs[0] == "ct"
	})
}

// TestCRDLifecycle_NamesNeverCollide: CRDs of one group created at once,
// all asking for one short name and half of them for one kind. The naming
// controller decides them one at a time (its one worker and its mutation
// cache, controller/status): in the end one CRD holds the short name, one
// the kind, and no accepted name of the group is held twice.
func TestCRDLifecycle_NamesNeverCollide(t *testing.T) {
	_, crds, _ := lifecycleServer(t)
	ctx := context.Background()
	const n = 12
	var wg sync.WaitGroup
	for i := range n {
		crd := crontabCRD()
		crd.Spec.Names = apiextensionsv1.CustomResourceDefinitionNames{Plural: fmt.Sprintf("things%d", i),
			Singular: fmt.Sprintf("thing%d", i), Kind: fmt.Sprintf("Thing%d", i), ShortNames: []string{"th"}}
		if i%2 == 1 {
			crd.Spec.Names.Kind = "SharedThing"
		}
		crd.Name = crd.Spec.Names.Plural + "." + group
		wg.Go(func() {
			_, err := crds.Create(ctx, crd, metav1.CreateOptions{})
			assert.NoError(t, err)
		})
	}
	wg.Wait()

	// Settled: every CRD has been decided, one holds the short name and
	// one the shared kind.
	var list *apiextensionsv1.CustomResourceDefinitionList
	eventually(t, "names settled", func() bool {
		var err error
		if list, err = crds.List(ctx, metav1.ListOptions{}); err != nil || len(list.Items) != n {
			return false
		}
		short, kind := 0, 0
		for _, crd := range list.Items {
			if helpers.FindCRDCondition(&crd, apiextensionsv1.NamesAccepted) == nil {
				return false
			}
			if len(crd.Status.AcceptedNames.ShortNames) > 0 {
				short++
			}
			if crd.Status.AcceptedNames.Kind == "SharedThing" {
				kind++
			}
		}
		return short >= 1 && kind >= 1
	})
	holders := map[string][]string{}
	for _, crd := range list.Items {
		a := crd.Status.AcceptedNames
		for _, name := range append([]string{a.Plural, a.Singular, "kind:" + a.Kind, "kind:" + a.ListKind}, a.ShortNames...) {
			if name != "" && name != "kind:" {
				holders[name] = append(holders[name], crd.Name)
			}
		}
		if !namesMatch(crd) {
			status, reason := condition(&crd, apiextensionsv1.NamesAccepted)
			assert.Equal(t, apiextensionsv1.ConditionFalse, status, crd.Name)
			assert.Contains(t, []string{"ShortNamesConflict", "KindConflict", "ListKindConflict"}, reason, crd.Name)
		}
	}
	for name, crds := range holders {
		assert.Len(t, crds, 1, "%q accepted for %v", name, crds)
	}
	assert.Len(t, holders["th"], 1)
	assert.Len(t, holders["kind:SharedThing"], 1)
}

// namesMatch reports whether every requested name of crd is accepted.
func namesMatch(crd apiextensionsv1.CustomResourceDefinition) bool {
	s, a := crd.Spec.Names, crd.Status.AcceptedNames
	return s.Plural == a.Plural && s.Singular == a.Singular && s.Kind == a.Kind && s.ListKind == a.ListKind &&
		slices.Equal(s.ShortNames, a.ShortNames)
}

// TestCRDLifecycle_DeleteWithInstances: deleting a CRD with 1,000
// instances goes through Terminating (seen on a watch of the CRD), removes
// every instance, then the CRD; its endpoint 404s and discovery forgets
// the group.
func TestCRDLifecycle_DeleteWithInstances(t *testing.T) {
	// More instances per namespace than the finalizer deletes in one
	// page (listPageSize, 500).
	const instances = 1200
	// The test's watch of the instances must not be cut as too slow
	// (DefaultWatchBufferSize events behind, storage/bolt/watch.go): the
	// finalizer deletes them faster than a loaded machine may let the
	// test read (CI runs packages side by side), and once the CRD is gone
	// the watch cannot be resumed as a reflector would.
	ts, crds, dyn := lifecycleServerWith(t, Config{Storage: bolt.Options{WatchBufferSize: 4 * instances}})
	ctx := context.Background()
	name := "crontabs." + group
	_, err := crds.Create(ctx, crontabCRD(), metav1.CreateOptions{})
	require.NoError(t, err)
	crd := waitFor(t, crds, name, settleTimeout, established)

	// 1,200 instances over 2 namespaces, 8 clients at a time.
	createNamespaces(t, dyn, "ns-0", "ns-1")
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, instances)
	sem := make(chan struct{}, 8)
	for i := range instances {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			ns := fmt.Sprintf("ns-%d", i%2)
			if _, err := dyn.Resource(crontabsGVR).Namespace(ns).Create(ctx, crontab(ns, fmt.Sprintf("cron-%04d", i)), metav1.CreateOptions{}); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	list, err := dyn.Resource(crontabsGVR).List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list.Items, instances)
	t.Logf("created %d instances in %v", instances, time.Since(start))
	eventually(t, "discovery lists crontabs", func() bool { return len(discoveryResources(t, ts, group+"/v1")) == 1 })

	// Watch the CRD, and the instances, from here on.
	w, err := crds.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=" + name, ResourceVersion: crd.ResourceVersion})
	require.NoError(t, err)
	defer w.Stop()
	crWatch, err := dyn.Resource(crontabsGVR).Watch(ctx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
	require.NoError(t, err)
	defer crWatch.Stop()
	deletedInstances := make(chan map[string]bool, 1)
	go func() {
		seen := map[string]bool{}
		for ev := range crWatch.ResultChan() {
			if m, ok := metav1.Accessor(ev.Object); ok && ev.Type == watch.Deleted {
				seen[m.GetNamespace()+"/"+m.GetName()] = true
			}
			if len(seen) == instances {
				break
			}
		}
		deletedInstances <- seen
	}()

	start = time.Now()
	require.NoError(t, crds.Delete(ctx, name, metav1.DeleteOptions{}))

	var reasons []string // Terminating reasons, in the order seen
	deleted := false
	timeout := time.After(30 * time.Second)
	for !deleted {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "watch ended early")
			require.NotEqual(t, watch.Error, ev.Type, "%v", ev.Object)
			got, isCRD := ev.Object.(*apiextensionsv1.CustomResourceDefinition)
			if !isCRD {
				continue
			}
			if _, reason := condition(got, apiextensionsv1.Terminating); reason != "" && (len(reasons) == 0 || reasons[len(reasons)-1] != reason) {
				reasons = append(reasons, reason)
			}
			deleted = ev.Type == watch.Deleted
		case <-timeout:
			t.Fatalf("CRD not deleted within 30s; Terminating reasons seen: %v", reasons)
		}
	}
	t.Logf("deleted with %d instances in %v; Terminating reasons: %v", instances, time.Since(start), reasons)
	// Pending is the CRD storage's (on DELETE), InProgress the
	// finalizer's. Its last write — Terminating=False
	// InstanceDeletionCompleted, finalizer removed — deletes the CRD, so
	// the DELETED event carries the state stored before it.
	assert.Equal(t, []string{"InstanceDeletionPending", "InstanceDeletionInProgress"}, reasons)
	// Every instance went with a DELETED event.
	select {
	case seen := <-deletedInstances:
		assert.Len(t, seen, instances, "DELETED events of distinct instances")
	case <-time.After(30 * time.Second):
		t.Fatal("no DELETED event for every instance within 30s")
	}

	// The instances and the CRD are gone, the endpoint 404s.
	_, err = crds.Get(ctx, name, metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "CRD: want 404, got %v", err)
	eventually(t, "endpoint 404s", func() bool {
		code, _ := get(t, ts.url+"/apis/"+group+"/v1/crontabs")
		return code == 404
	})
	eventually(t, "discovery forgets the group", func() bool { return !groupAdvertised(t, ts) })
	eventually(t, "OpenAPI forgets the group", func() bool { return !openAPIDocumented(t, ts) })

	// The instances are gone from storage too: a CRD of the same name
	// starts empty.
	_, err = crds.Create(ctx, crontabCRD(), metav1.CreateOptions{})
	require.NoError(t, err)
	waitFor(t, crds, name, settleTimeout, established)
	list, err = dyn.Resource(crontabsGVR).List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, list.Items)
}

// TestCRDLifecycle_TerminatingWaitsForInstances: an instance with a
// finalizer of its own holds its CRD in Terminating; creates are refused
// meanwhile (403 Forbidden, as upstream), applies that would create too;
// once the instance's finalizer goes, the CRD goes too
// (the finalizer retried with backoff).
func TestCRDLifecycle_TerminatingWaitsForInstances(t *testing.T) {
	ts, crds, dyn := lifecycleServer(t)
	ctx := context.Background()
	name := "crontabs." + group
	_, err := crds.Create(ctx, crontabCRD(), metav1.CreateOptions{})
	require.NoError(t, err)
	waitFor(t, crds, name, settleTimeout, established)

	held := crontab("default", "held")
	held.SetFinalizers([]string{"example.com/hold"})
	_, err = dyn.Resource(crontabsGVR).Namespace("default").Create(ctx, held, metav1.CreateOptions{})
	require.NoError(t, err)

	require.NoError(t, crds.Delete(ctx, name, metav1.DeleteOptions{}))
	waitFor(t, crds, name, settleTimeout, func(crd *apiextensionsv1.CustomResourceDefinition) bool {
		_, reason := condition(crd, apiextensionsv1.Terminating)
		return reason == "InstanceDeletionInProgress"
	})

	// Creates are refused while Terminating.
	eventually(t, "create refused", func() bool {
		_, err := dyn.Resource(crontabsGVR).Namespace("default").Create(ctx, crontab("default", "late"), metav1.CreateOptions{})
		var se *apierrors.StatusError
		return errors.As(err, &se) && se.ErrStatus.Code == 403 && se.ErrStatus.Reason == metav1.StatusReasonForbidden &&
			se.ErrStatus.Message == `crontabs.`+group+` "late" is forbidden: create not allowed while custom resource definition is terminating`
	})
	// An apply that would create is a create.
	req, err := http.NewRequest("PATCH", ts.url+"/apis/"+group+"/v1/namespaces/default/crontabs/applied?fieldManager=t",
		strings.NewReader(`{"apiVersion":"`+group+`/v1","kind":"CronTab","metadata":{"name":"applied"}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/apply-patch+yaml")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, 403, resp.StatusCode, string(body))
	assert.Contains(t, string(body), `crontabs.`+group+` \"applied\" is forbidden: create not allowed while custom resource definition is terminating`)
	// Discovery still lists the resource, with the verbs that still work:
	// no create, update or patch (the DiscoveryController is discovery's
	// only writer, so nothing puts them back).
	assert.Equal(t, []string{"crontabs"}, discoveryResources(t, ts, group+"/v1"))
	eventually(t, "discovery drops create, update and patch", func() bool { return len(discoveryVerbs(t, ts)) == 5 })
	assert.Equal(t, []string{"delete", "deletecollection", "get", "list", "watch"}, discoveryVerbs(t, ts))

	// Still there a while later: the instance holds it.
	time.Sleep(300 * time.Millisecond)
	_, err = crds.Get(ctx, name, metav1.GetOptions{})
	require.NoError(t, err)

	// Release the instance: the CRD goes.
	_, err = dyn.Resource(crontabsGVR).Namespace("default").Patch(ctx, "held", client.MergePatchType,
		[]byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
	require.NoError(t, err)
	deadline := time.Now().Add(15 * time.Second)
	for {
		_, err = crds.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			break
		}
		require.True(t, time.Now().Before(deadline), "CRD still there 15s after its last instance was released")
		time.Sleep(20 * time.Millisecond)
	}
}

// TestCRDLifecycle_DeleteNeverEstablished: a CRD whose names were never
// accepted has no instances to delete; it goes at once.
func TestCRDLifecycle_DeleteNeverEstablished(t *testing.T) {
	_, crds, _ := lifecycleServer(t)
	ctx := context.Background()
	_, err := crds.Create(ctx, crontabCRD(), metav1.CreateOptions{})
	require.NoError(t, err)
	waitFor(t, crds, "crontabs."+group, settleTimeout, established)

	ct := crontabCRD()
	ct.Name = "ct." + group
	ct.Spec.Names = apiextensionsv1.CustomResourceDefinitionNames{Plural: "ct", Singular: "cronthing", Kind: "CronThing"}
	_, err = crds.Create(ctx, ct, metav1.CreateOptions{})
	require.NoError(t, err)
	waitFor(t, crds, ct.Name, settleTimeout, func(crd *apiextensionsv1.CustomResourceDefinition) bool {
		return helpers.IsCRDConditionFalse(crd, apiextensionsv1.NamesAccepted)
	})

	require.NoError(t, crds.Delete(ctx, ct.Name, metav1.DeleteOptions{}))
	eventually(t, "never-established CRD gone", func() bool {
		_, err := crds.Get(ctx, ct.Name, metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	})
}

// TestCRDLifecycle_Restart: after a restart, a CRD Established before is
// served and in discovery as soon as the server reports ready.
func TestCRDLifecycle_Restart(t *testing.T) {
	dir := t.TempDir()
	ts := startServer(t, Config{DataDir: dir})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	cs, err := client.NewForConfig(&client.Config{Host: ts.url, QPS: -1})
	require.NoError(t, err)
	crds := cs.ApiextensionsV1().CustomResourceDefinitions()
	_, err = crds.Create(context.Background(), crontabCRD(), metav1.CreateOptions{})
	require.NoError(t, err)
	waitFor(t, crds, "crontabs."+group, settleTimeout, established)
	require.NoError(t, ts.stop(t))

	ts2 := startServer(t, Config{DataDir: dir})
	eventually(t, "ready", func() bool { code, _ := get(t, ts2.url+"/readyz"); return code == 200 })
	assert.Equal(t, []string{"crontabs"}, discoveryResources(t, ts2, group+"/v1"), "discovery complete when ready")
	code, _ := get(t, ts2.url+"/apis/"+group+"/v1/crontabs")
	assert.Equal(t, 200, code, "served when ready")
}
