package apiserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/metadata"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// TestMetadataClient_OnlyMetadataOnTheWire: the metadata client's lists
// and watches (the garbage collector's monitors) get PartialObjectMetadata
// from the server — no spec, no data — for a custom resource and for a
// built-in kind, as upstream serves them.
func TestMetadataClient_OnlyMetadataOnTheWire(t *testing.T) {
	ts, cs, dyn := kubeControllersServer(t)
	ctx := context.Background()
	createNamespace(t, cs, "meta")
	mc, err := metadata.NewForConfig(&client.Config{Host: ts.url, QPS: -1})
	require.NoError(t, err)

	for _, tc := range []struct {
		gvr  scheme.GroupVersionResource
		path string
		obj  func(name string) *unstructured.Unstructured
		body string // a field outside metadata the objects have
	}{
		{crontabsGVR, "/apis/" + group + "/v1/namespaces/meta/crontabs", func(n string) *unstructured.Unstructured { return crontab("meta", n) }, `"spec"`},
		{configMapsGVR, "/api/v1/namespaces/meta/configmaps", func(n string) *unstructured.Unstructured { return configMap("meta", n) }, `"data"`},
	} {
		t.Run(tc.gvr.Resource, func(t *testing.T) {
			_, err := dyn.Resource(tc.gvr).Namespace("meta").Create(ctx, tc.obj("first"), metav1.CreateOptions{})
			require.NoError(t, err)

			// The list, as the server writes it.
			req, err := http.NewRequest(http.MethodGet, ts.url+tc.path, nil)
			require.NoError(t, err)
			req.Header.Set("Accept", metadata.AcceptList)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
			assert.Contains(t, string(body), `"kind":"PartialObjectMetadataList"`)
			assert.Contains(t, string(body), `"name":"first"`)
			assert.NotContains(t, string(body), tc.body, "the list carries only metadata")
			var list metav1.PartialObjectMetadataList
			require.NoError(t, json.Unmarshal(body, &list))

			// A watch from the list's resourceVersion sees the next
			// create, as metadata.
			wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			req, err = http.NewRequestWithContext(wctx, http.MethodGet, ts.url+tc.path+"?watch=true&resourceVersion="+list.ResourceVersion, nil)
			require.NoError(t, err)
			req.Header.Set("Accept", metadata.AcceptObject)
			resp, err = http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode)
			_, err = dyn.Resource(tc.gvr).Namespace("meta").Create(ctx, tc.obj("second"), metav1.CreateOptions{})
			require.NoError(t, err)
			line, err := bufio.NewReader(resp.Body).ReadString('\n')
			require.NoError(t, err)
			var ev struct {
				Type   string
				Object map[string]any
			}
			require.NoError(t, json.Unmarshal([]byte(line), &ev), line)
			assert.Equal(t, "ADDED", ev.Type, line)
			assert.Equal(t, "PartialObjectMetadata", ev.Object["kind"], line)
			assert.Equal(t, "meta.k8s.io/v1", ev.Object["apiVersion"], line)
			assert.Equal(t, "second", ev.Object["metadata"].(map[string]any)["name"], line)
			assert.Len(t, ev.Object, 3, "the watch event carries only metadata: %s", line)
			assert.NotContains(t, line, tc.body, "the watch event carries only metadata")

			// The client reads both.
			got, err := mc.Resource(tc.gvr).Namespace("meta").List(ctx, metav1.ListOptions{})
			require.NoError(t, err)
			require.Len(t, got.Items, 2)
			w, err := mc.Resource(tc.gvr).Namespace("meta").Watch(ctx, metav1.ListOptions{ResourceVersion: got.ResourceVersion})
			require.NoError(t, err)
			defer w.Stop()
			require.NoError(t, dyn.Resource(tc.gvr).Namespace("meta").Delete(ctx, "first", metav1.DeleteOptions{}))
			select {
			case ev := <-w.ResultChan():
				require.Equal(t, watch.Deleted, ev.Type)
				m := ev.Object.(*metav1.PartialObjectMetadata)
				assert.Equal(t, "first", m.Name)
				assert.NotEmpty(t, m.UID)
			case <-time.After(30 * time.Second):
				t.Fatal("no DELETED event within 30 s")
			}
		})
	}
}
