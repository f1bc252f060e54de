package finalizer

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/metadata"
)

// pagedServer answers lists and delete collections of crontabs in pages,
// as the API does with limit and continue (the token is the offset), over
// n instances in namespace "a" and one in "b", and records each request.
type pagedServer struct {
	n int

	mu       sync.Mutex // guards requests
	requests []string   // method, path and query of each request
}

func (p *pagedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.requests = append(p.requests, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery)
	p.mu.Unlock()
	var names []string // namespace/name
	switch r.URL.Path {
	case "/apis/stable.example.com/v1/crontabs":
		for i := range p.n {
			names = append(names, fmt.Sprintf("a/c-%d", i))
		}
		names = append(names, "b/c-0")
	case "/apis/stable.example.com/v1/namespaces/a/crontabs":
		for i := range p.n {
			names = append(names, fmt.Sprintf("a/c-%d", i))
		}
	default:
		http.NotFound(w, r)
		return
	}
	from, _ := strconv.Atoi(r.URL.Query().Get("continue"))
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	to, next := len(names), ""
	if limit > 0 && from+limit < len(names) {
		to, next = from+limit, strconv.Itoa(from+limit)
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"apiVersion":"meta.k8s.io/v1","kind":"PartialObjectMetadataList","metadata":{"resourceVersion":"7","continue":%q},"items":[`, next)
	for i, nn := range names[from:to] {
		if i > 0 {
			fmt.Fprint(w, ",")
		}
		ns, name, _ := strings.Cut(nn, "/")
		fmt.Fprintf(w, `{"metadata":{"namespace":%q,"name":%q,"labels":{"x":"y"}}}`, ns, name)
	}
	fmt.Fprint(w, "]}")
}

func (p *pagedServer) client(t *testing.T) MetadataCRClientGetter {
	t.Helper()
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	cfg := &client.Config{Host: srv.URL, QPS: -1}
	meta, err := metadata.NewForConfig(cfg)
	require.NoError(t, err)
	rest, err := client.UnversionedRESTClientFor(cfg)
	require.NoError(t, err)
	return MetadataCRClientGetter{Client: meta, REST: rest}
}

func TestMetadataCRClientGetter(t *testing.T) {
	ctx := context.Background()
	crd := deletedCRD(apiextensionsv1.ConditionTrue)
	crd.Spec.Group = "stable.example.com"

	t.Run("List", func(t *testing.T) {
		srv := &pagedServer{n: 2*ListPageSize + 1}
		d, err := srv.client(t).GetCustomResourceListerCollectionDeleter(crd)
		require.NoError(t, err)
		page, err := d.List(ctx, metav1.ListOptions{Limit: ListPageSize, Continue: "1000"})
		require.NoError(t, err)
		require.Len(t, page.Items, 2)
		assert.Equal(t, "b", page.Items[1].Namespace)
		assert.Equal(t, "c-0", page.Items[1].Name)
		assert.Empty(t, page.Continue)
		assert.Equal(t, []string{"GET /apis/stable.example.com/v1/crontabs?continue=1000&limit=500"}, srv.requests)
	})

	t.Run("DeleteCollectionPages", func(t *testing.T) {
		srv := &pagedServer{n: ListPageSize + 1}
		d, err := srv.client(t).GetCustomResourceListerCollectionDeleter(crd)
		require.NoError(t, err)
		require.NoError(t, d.DeleteCollection(ctx, "a"))
		assert.Equal(t, []string{
			"DELETE /apis/stable.example.com/v1/namespaces/a/crontabs?limit=500",
			"DELETE /apis/stable.example.com/v1/namespaces/a/crontabs?continue=500&limit=500",
		}, srv.requests, "a page at a time, following the answers' continue")
	})

	t.Run("ErrDeleteCollection", func(t *testing.T) {
		srv := &pagedServer{}
		d, err := srv.client(t).GetCustomResourceListerCollectionDeleter(crd)
		require.NoError(t, err)
		assert.Error(t, d.DeleteCollection(ctx, "elsewhere"), "a 404 comes back")
	})
}
