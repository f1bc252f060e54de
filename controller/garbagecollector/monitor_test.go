package garbagecollector

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/metadata"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/scheme"
)

// metadataServer answers the configmaps list and watch of a monitor the
// way a server does for the metadata client — PartialObjectMetadata — and
// records the Accept header of each request. The list holds "a" (with
// managedFields and an owner); the watch adds "b" and stays open.
type metadataServer struct {
	mu      sync.Mutex
	accepts map[string]string // "list" or "watch" → Accept
}

func (s *metadataServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/v1/configmaps" {
		http.NotFound(w, r)
		return
	}
	verb := "list"
	if r.URL.Query().Get("watch") == "true" {
		verb = "watch"
	}
	s.mu.Lock()
	s.accepts[verb] = r.Header.Get("Accept")
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if verb == "list" {
		fmt.Fprint(w, `{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"5"},"items":[`+
			`{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a","namespace":"ns","uid":"u-a","resourceVersion":"5",`+
			`"ownerReferences":[{"apiVersion":"stable.example.com/v1","kind":"CronTab","name":"owner","uid":"u-owner"}],`+
			`"managedFields":[{"manager":"m","operation":"Update"}]}}]}`)
		return
	}
	w.WriteHeader(http.StatusOK)
	fmt.Fprintln(w, `{"type":"ADDED","object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"b","namespace":"ns","uid":"u-b","resourceVersion":"6"}}}`)
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

// TestMonitor_ListsAndWatchesMetadataOnly: a monitor asks the server for
// metadata alone (upstream's metadata informers), in its lists and its
// watches, and keeps PartialObjectMetadata without managedFields, which
// become graph changes of the monitor's kind.
func TestMonitor_ListsAndWatchesMetadataOnly(t *testing.T) {
	srv := &metadataServer{accepts: map[string]string{}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	mc, err := metadata.NewForConfig(&client.Config{Host: ts.URL, QPS: -1})
	require.NoError(t, err)
	gb := newDependencyGraphBuilder(mc, DefaultIgnoredResources(), controller.Options{}.WithDefaults("garbagecollector"))

	m, err := gb.monitorFor(scheme.GroupVersionResource{Version: "v1", Resource: "configmaps"}, configMapKind)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { m.informer.Run(ctx) })
	defer func() { cancel(); wg.Wait() }()

	// Both objects reach the graph's queue, as metadata of a ConfigMap.
	got := map[string]*event{}
	for len(got) < 2 {
		done := make(chan *event, 1)
		go func() {
			e, quit := gb.graphChanges.Get()
			if !quit {
				gb.graphChanges.Done(e)
			}
			done <- e
		}()
		select {
		case e := <-done:
			require.NotNil(t, e)
			got[e.obj.GetName()] = e
		case <-time.After(30 * time.Second):
			t.Fatalf("graph changes after 30 s: %v", got)
		}
	}
	for _, name := range []string{"a", "b"} {
		e := got[name]
		require.NotNil(t, e, name)
		assert.IsType(t, &metav1.PartialObjectMetadata{}, e.obj, name)
		assert.Equal(t, configMapKind, e.gvk, name)
		assert.Nil(t, e.obj.GetManagedFields(), "%s keeps no managedFields", name)
	}
	assert.Equal(t, metav1.UID("u-owner"), got["a"].obj.GetOwnerReferences()[0].UID)
	require.True(t, informer.WaitForCacheSync(ctx, m.informer.HasSynced))

	srv.mu.Lock()
	defer srv.mu.Unlock()
	assert.Equal(t, "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json", srv.accepts["list"])
	assert.Equal(t, "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json", srv.accepts["watch"])
}
