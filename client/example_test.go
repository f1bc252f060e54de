package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/scheme"
)

// notFound is the body crdlab answers a GET of a missing CronTab with.
const notFound = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",` +
	`"message":"crontabs.stable.example.com \"other\" not found","reason":"NotFound",` +
	`"details":{"name":"other","group":"stable.example.com","kind":"crontabs"},"code":404}`

// A RESTClient builds requests fluently; a Status answer becomes an error
// the apierrors helpers understand.
func ExampleRESTClient() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/apis/stable.example.com/v1/namespaces/default/crontabs/my-cron" {
			io.WriteString(w, `{"apiVersion":"stable.example.com/v1","kind":"CronTab",`+
				`"metadata":{"name":"my-cron","namespace":"default","resourceVersion":"42"},"spec":{"cronSpec":"*/5 * * * *"}}`)
			return
		}
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, notFound)
	}))
	defer srv.Close()

	gv := scheme.GroupVersion{Group: "stable.example.com", Version: "v1"}
	c, err := client.RESTClientFor(&client.Config{Host: srv.URL, GroupVersion: &gv})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	var cron unstructured.Unstructured
	err = c.Get().Namespace("default").Resource("crontabs").Name("my-cron").Do(ctx).Into(&cron)
	spec, _, _ := unstructured.NestedString(cron.Object, "spec", "cronSpec")
	fmt.Println(cron.GetName(), cron.GetResourceVersion(), spec, err)

	err = c.Get().Namespace("default").Resource("crontabs").Name("other").Do(ctx).Into(&cron)
	fmt.Println(apierrors.IsNotFound(fmt.Errorf("syncing: %w", err)), err)
	// Output:
	// my-cron 42 */5 * * * * <nil>
	// true crontabs.stable.example.com "other" not found
}

// Watch decodes the stream of {"type","object"} lines into events.
func ExampleRequest_Watch() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for _, line := range []string{
			`{"type":"ADDED","object":{"kind":"CronTab","metadata":{"name":"a","resourceVersion":"5"}}}`,
			`{"type":"MODIFIED","object":{"kind":"CronTab","metadata":{"name":"a","resourceVersion":"6"}}}`,
			`{"type":"BOOKMARK","object":{"kind":"CronTab","metadata":{"resourceVersion":"9"}}}`,
			`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410}}`,
		} {
			io.WriteString(w, line+"\n")
		}
	}))
	defer srv.Close()

	gv := scheme.GroupVersion{Group: "stable.example.com", Version: "v1"}
	c, _ := client.RESTClientFor(&client.Config{Host: srv.URL, GroupVersion: &gv})
	w, err := c.Get().Namespace("default").Resource("crontabs").
		VersionedParams(&metav1.ListOptions{Watch: true, AllowWatchBookmarks: true}).
		Watch(context.Background())
	if err != nil {
		panic(err)
	}
	defer w.Stop()
	for ev := range w.ResultChan() { // closes when the server ends the stream
		switch obj := ev.Object.(type) {
		case *unstructured.Unstructured:
			fmt.Println(ev.Type, obj.GetName(), obj.GetResourceVersion())
		case *metav1.Status:
			fmt.Println(ev.Type, obj.Code, obj.Reason)
		}
	}
	// Output:
	// ADDED a 5
	// MODIFIED a 6
	// BOOKMARK  9
	// ERROR 410 Expired
}

// The Clientset's typed CRD client is what crdlab's controllers use over
// the loopback address.
func ExampleNewForConfig() {
	var mu sync.Mutex
	stored := map[string][]byte{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch r.Method {
		case http.MethodPost: // create: store the body with a resourceVersion
			var crd map[string]any
			json.NewDecoder(r.Body).Decode(&crd)
			meta := crd["metadata"].(map[string]any)
			meta["resourceVersion"] = "1"
			body, _ := json.Marshal(crd)
			stored[meta["name"].(string)] = body
			w.WriteHeader(http.StatusCreated)
			w.Write(body)
		case http.MethodGet:
			name := r.URL.Path[len("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"):]
			w.Write(stored[name])
		}
	}))
	defer srv.Close()

	cs, err := client.NewForConfig(&client.Config{Host: srv.URL, QPS: 50, Burst: 100})
	if err != nil {
		panic(err)
	}
	crds := cs.ApiextensionsV1().CustomResourceDefinitions()
	ctx := context.Background()
	_, err = crds.Create(ctx, &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "crontabs.stable.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "stable.example.com",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "crontabs", Kind: "CronTab"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
				{Name: "v1", Served: true, Storage: true},
			},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		panic(err)
	}
	crd, err := crds.Get(ctx, "crontabs.stable.example.com", metav1.GetOptions{})
	fmt.Println(crd.Name, crd.ResourceVersion, crd.Spec.Names.Kind, crd.Spec.Scope, err)
	// Output:
	// crontabs.stable.example.com 1 CronTab Namespaced <nil>
}
