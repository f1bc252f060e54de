package dynamic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/dynamic"
	"github.com/crdlab/crdlab/scheme"
)

// Create a CronTab, a custom resource with no Go type, and read its status.
func ExampleDynamicClient() {
	// A server that answers like crdlab for one CronTab: create stores it
	// with a resourceVersion, status updates replace its status.
	var stored map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		switch r.Method + " " + r.URL.Path {
		case "POST /apis/stable.example.com/v1/namespaces/default/crontabs":
			stored = body
			stored["metadata"].(map[string]any)["resourceVersion"] = "1"
			w.WriteHeader(http.StatusCreated)
		case "PUT /apis/stable.example.com/v1/namespaces/default/crontabs/my-cron/status":
			stored["status"] = body["status"]
			stored["metadata"].(map[string]any)["resourceVersion"] = "2"
		}
		json.NewEncoder(w).Encode(stored)
	}))
	defer srv.Close()

	dc, err := dynamic.NewForConfig(&client.Config{Host: srv.URL})
	if err != nil {
		panic(err)
	}
	gvr := scheme.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}
	crontabs := dc.Resource(gvr).Namespace("default")
	ctx := context.Background()

	cron := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": "my-cron", "namespace": "default"},
		"spec":       map[string]any{"cronSpec": "*/5 * * * *", "replicas": int64(1)},
	}}
	created, err := crontabs.Create(ctx, cron, metav1.CreateOptions{})
	if err != nil {
		panic(err)
	}
	_ = unstructured.SetNestedField(created.Object, "Scheduled", "status", "phase")
	updated, err := crontabs.UpdateStatus(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		panic(err)
	}
	phase, _, _ := unstructured.NestedString(updated.Object, "status", "phase")
	replicas, _, _ := unstructured.NestedInt64(updated.Object, "spec", "replicas")
	fmt.Println(updated.GetName(), updated.GetResourceVersion(), phase, replicas)
	// Output:
	// my-cron 2 Scheduled 1
}
