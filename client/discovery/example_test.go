package discovery_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/discovery"
)

// Ask which resources a group version serves, as kubectl does before it
// can "kubectl get crontabs".
func ExampleDiscoveryClient_ServerResourcesForGroupVersion() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"stable.example.com/v1","resources":[`+
			`{"name":"crontabs","singularName":"crontab","namespaced":true,"kind":"CronTab","verbs":["get","list","watch"],"shortNames":["ct"]},`+
			`{"name":"crontabs/status","singularName":"","namespaced":true,"kind":"CronTab","verbs":["get","patch","update"]}]}`)
	}))
	defer srv.Close()

	d, err := discovery.NewDiscoveryClientForConfig(&client.Config{Host: srv.URL})
	if err != nil {
		panic(err)
	}
	list, err := d.ServerResourcesForGroupVersion(context.Background(), "stable.example.com/v1")
	if err != nil {
		panic(err)
	}
	for _, r := range list.APIResources {
		fmt.Println(r.Name, r.Kind, r.Namespaced, r.Verbs)
	}
	// Output:
	// crontabs CronTab true [get list watch]
	// crontabs/status CronTab true [get patch update]
}
