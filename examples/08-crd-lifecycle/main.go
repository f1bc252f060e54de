// Command 08-crd-lifecycle follows one CustomResourceDefinition through
// its whole life, in numbered steps, against a crdlab server it starts
// in-process: created → NamesAccepted → Established → served (and in
// discovery) → a second CRD that cannot have its name → deleted:
// Terminating, creates refused, instances removed → gone, its name free
// for the other CRD. Every condition change is read from a watch on the
// CRDs, as kubectl wait does.
//
//	go run ./examples/08-crd-lifecycle
//
// To watch it move, open the /ui page of the server it starts (the
// example waits for the page, and keeps it up until Ctrl-C):
//
//	CRDLAB_UI=127.0.0.1:8090 go run ./examples/08-crd-lifecycle   # open http://127.0.0.1:8090/ui/
//
// The controllers at work are in controller/status (naming),
// controller/establish, controller/finalizer and controller/discovery;
// docs/crd-states.md draws the states. Seed 000, "State Transition".
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/dynamic"
	"github.com/crdlab/crdlab/examples/internal/labserver"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

func main() {
	dir, err := os.MkdirTemp("", "crdlab-08-crd-lifecycle")
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

const group = "stable.example.com"

// tracker reads a watch of CRDs and remembers every condition change, so
// the steps can wait for one.
type tracker struct {
	mu      sync.Mutex // guards the fields below
	changed *sync.Cond
	// seen holds "<crd> <Type>=<Status> <Reason>" for every condition
	// state observed, and "<crd> DELETED".
	seen map[string]bool
	last map[string]*apiextensionsv1.CustomResourceDefinition
}

func newTracker(w watch.Interface) *tracker {
	t := &tracker{seen: map[string]bool{}, last: map[string]*apiextensionsv1.CustomResourceDefinition{}}
	t.changed = sync.NewCond(&t.mu)
	go func() {
		for ev := range w.ResultChan() {
			crd, ok := ev.Object.(*apiextensionsv1.CustomResourceDefinition)
			if !ok {
				continue
			}
			t.mu.Lock()
			for _, c := range crd.Status.Conditions {
				t.seen[fmt.Sprintf("%s %s=%s %s", crd.Name, c.Type, c.Status, c.Reason)] = true
			}
			if ev.Type == watch.Deleted {
				t.seen[crd.Name+" DELETED"] = true
			}
			t.last[crd.Name] = crd
			t.changed.Broadcast()
			t.mu.Unlock()
		}
	}()
	return t
}

// await waits until the watch has shown what (a key of seen) and returns
// the CRD as last seen.
func (t *tracker) await(what string) (*apiextensionsv1.CustomResourceDefinition, error) {
	timer := time.AfterFunc(10*time.Second, func() {
		t.mu.Lock()
		t.changed.Broadcast()
		t.mu.Unlock()
	})
	defer timer.Stop()
	deadline := time.Now().Add(10 * time.Second)
	t.mu.Lock()
	defer t.mu.Unlock()
	for !t.seen[what] {
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the watch did not show %q within 10s", what)
		}
		t.changed.Wait()
	}
	name, _, _ := strings.Cut(what, " ")
	return t.last[name], nil
}

// cond renders a condition as Type=Status (Reason).
func cond(crd *apiextensionsv1.CustomResourceDefinition, ct apiextensionsv1.CustomResourceDefinitionConditionType) string {
	c := helpers.FindCRDCondition(crd, ct)
	if c == nil {
		return string(ct) + " absent"
	}
	s := fmt.Sprintf("%s=%s (%s", ct, c.Status, c.Reason)
	if c.Status == apiextensionsv1.ConditionFalse && c.Message != "" {
		s += ": " + c.Message
	}
	return s + ")"
}

func crontab(name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": group + "/v1", "kind": "CronTab",
		"spec": map[string]any{"cronSpec": "* * * * */5"},
	}}
	u.SetNamespace("default")
	u.SetName(name)
	return u
}

// discovery returns the resources /apis/<group>/v1 lists (subresources
// left out), or "404".
func discovery(base string) (string, error) {
	resp, err := http.Get(base + "/apis/" + group + "/v1")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return "404", nil
	}
	var list metav1.APIResourceList
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		return "", err
	}
	var names []string
	for _, r := range list.APIResources {
		if !strings.Contains(r.Name, "/") {
			names = append(names, r.Name)
		}
	}
	return "[" + strings.Join(names, " ") + "]", nil
}

// awaitDiscovery polls discovery until it says want.
func awaitDiscovery(base, want string) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := discovery(base)
		if err != nil {
			return err
		}
		if got == want {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("discovery says %s, want %s", got, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func code(err error) string {
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		return fmt.Sprintf("%d %s: %s", se.ErrStatus.Code, se.ErrStatus.Reason, se.ErrStatus.Message)
	}
	if err == nil {
		return "OK"
	}
	return err.Error()
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
	cs, err := client.NewForConfig(srv.Config)
	if err != nil {
		return err
	}
	crds := cs.ApiextensionsV1().CustomResourceDefinitions()
	dyn, err := dynamic.NewForConfig(srv.Config)
	if err != nil {
		return err
	}
	w8, err := crds.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	defer w8.Stop()
	t := newTracker(w8)
	say("started crdlab in-process and a watch on customresourcedefinitions")

	// Created: the CRD storage resets status; no condition yet.
	created, err := crds.Create(ctx, labserver.CronTabCRD(), metav1.CreateOptions{})
	if err != nil {
		return err
	}
	say("created crontabs.%s: %d condition(s)", group, len(created.Status.Conditions))

	// The naming controller checks the names against the group.
	crd, err := t.await("crontabs." + group + " NamesAccepted=True NoConflicts")
	if err != nil {
		return err
	}
	say("naming controller: %s, accepted plural %q, short names %v",
		cond(crd, apiextensionsv1.NamesAccepted), crd.Status.AcceptedNames.Plural, crd.Status.AcceptedNames.ShortNames)

	// The crdHandler hands it to the establishing controller.
	crd, err = t.await("crontabs." + group + " Established=True InitialNamesAccepted")
	if err != nil {
		return err
	}
	say("establishing controller: %s", cond(crd, apiextensionsv1.Established))

	crontabs := dyn.Resource(scheme.GroupVersionResource{Group: group, Version: "v1", Resource: "crontabs"}).Namespace("default")
	for _, n := range []string{"every-5-minutes", "nightly"} {
		if _, err := crontabs.Create(ctx, crontab(n), metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	list, err := crontabs.List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	if err := awaitDiscovery(srv.URL, "[crontabs]"); err != nil {
		return err
	}
	say("served: created 2 CronTabs, listed %d; discovery /apis/%s/v1: [crontabs]", len(list.Items), group)

	// A second CRD whose plural is the first one's short name.
	ct := labserver.CronTabCRD()
	ct.Name = "ct." + group
	ct.Spec.Names = apiextensionsv1.CustomResourceDefinitionNames{Plural: "ct", Singular: "cronthing", Kind: "CronThing"}
	if _, err := crds.Create(ctx, ct, metav1.CreateOptions{}); err != nil {
		return err
	}
	crd, err = t.await("ct." + group + " NamesAccepted=False PluralConflict")
	if err != nil {
		return err
	}
	say("created ct.%s: %s, %s", group, cond(crd, apiextensionsv1.NamesAccepted), cond(crd, apiextensionsv1.Established))
	cts := dyn.Resource(scheme.GroupVersionResource{Group: group, Version: "v1", Resource: "ct"}).Namespace("default")
	_, err = cts.List(ctx, metav1.ListOptions{})
	say("GET /apis/%s/v1/namespaces/default/ct: %s", group, code(err))

	// An instance with a finalizer of its own holds the CRD in Terminating.
	held := crontab("held")
	held.SetFinalizers([]string{"example.com/hold"})
	if _, err := crontabs.Create(ctx, held, metav1.CreateOptions{}); err != nil {
		return err
	}
	if err := crds.Delete(ctx, "crontabs."+group, metav1.DeleteOptions{}); err != nil {
		return err
	}
	if _, err := t.await("crontabs." + group + " Terminating=True InstanceDeletionPending"); err != nil {
		return err
	}
	crd, err = t.await("crontabs." + group + " Terminating=True InstanceDeletionInProgress")
	if err != nil {
		return err
	}
	say("deleted crontabs.%s (CronTab held has a finalizer): Terminating=True (InstanceDeletionPending), then %s; finalizers %v",
		group, cond(crd, apiextensionsv1.Terminating), crd.Finalizers)

	// While Terminating, creates are refused; reads and deletes work.
	var createErr error
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, createErr = crontabs.Create(ctx, crontab("late"), metav1.CreateOptions{})
		if apierrors.IsForbidden(createErr) || time.Now().After(deadline) {
			break
		}
		if createErr == nil {
			_ = crontabs.Delete(ctx, "late", metav1.DeleteOptions{})
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The finalizer deletes what it can; held stays until released.
	var left []string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		list, err = crontabs.List(ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		left = left[:0]
		for _, item := range list.Items {
			left = append(left, item.GetName())
		}
		if len(left) == 1 || time.Now().After(deadline) {
			break
		}
	}
	say("while Terminating: create → %s; the finalizer deleted the others, list → %v", code(createErr), left)

	// Release the held instance: the finalizer's next try finds none left.
	if _, err := crontabs.Patch(ctx, "held", client.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{}); err != nil {
		return err
	}
	if _, err := t.await("crontabs." + group + " DELETED"); err != nil {
		return err
	}
	_, getErr := crds.Get(ctx, "crontabs."+group, metav1.GetOptions{})
	// The server's crdHandler hears of the delete through its own
	// informer, a moment after our watch may.
	var listErr error
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		_, listErr = crontabs.List(ctx, metav1.ListOptions{})
		if apierrors.IsNotFound(listErr) || time.Now().After(deadline) {
			break
		}
	}
	say("released held: the watch shows DELETED; GET the CRD → %s; GET its CronTabs → %s",
		code(getErr), strings.SplitN(code(listErr), ":", 2)[0])

	// The name "ct" is free now: the naming controller re-kicked the group.
	if _, err := t.await("ct." + group + " NamesAccepted=True NoConflicts"); err != nil {
		return err
	}
	crd, err = t.await("ct." + group + " Established=True InitialNamesAccepted")
	if err != nil {
		return err
	}
	if err := awaitDiscovery(srv.URL, "[ct]"); err != nil {
		return err
	}
	say("ct.%s takes the freed name: %s, %s; discovery: [ct]",
		group, cond(crd, apiextensionsv1.NamesAccepted), cond(crd, apiextensionsv1.Established))
	return nil
}
