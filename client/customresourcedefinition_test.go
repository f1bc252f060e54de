package client_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
)

// bodyRecorder is a server that answers every request with its own body
// and remembers the apiVersion and kind each body carried.
type bodyRecorder struct {
	mu       sync.Mutex // guards typeMeta
	typeMeta []metav1.TypeMeta
}

func (b *bodyRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var tm metav1.TypeMeta
	_ = json.Unmarshal(body, &tm)
	b.mu.Lock()
	b.typeMeta = append(b.typeMeta, tm)
	b.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

func (b *bodyRecorder) last() metav1.TypeMeta {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.typeMeta[len(b.typeMeta)-1]
}

// TestCustomResourceDefinitions_TypeMeta checks that a CRD built in Go
// without TypeMeta goes out as apiextensions.k8s.io/v1
// CustomResourceDefinition (else the server answers "Object 'Kind' is
// missing"), and that the caller's CRD is not changed.
func TestCustomResourceDefinitions_TypeMeta(t *testing.T) {
	rec := &bodyRecorder{}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	cs, err := client.NewForConfig(&client.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	crds := cs.ApiextensionsV1().CustomResourceDefinitions()
	want := metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"}
	ctx := context.Background()

	for _, tc := range []struct {
		name string
		call func(*apiextensionsv1.CustomResourceDefinition) (*apiextensionsv1.CustomResourceDefinition, error)
	}{
		{"Create", func(c *apiextensionsv1.CustomResourceDefinition) (*apiextensionsv1.CustomResourceDefinition, error) {
			return crds.Create(ctx, c, metav1.CreateOptions{})
		}},
		{"Update", func(c *apiextensionsv1.CustomResourceDefinition) (*apiextensionsv1.CustomResourceDefinition, error) {
			return crds.Update(ctx, c, metav1.UpdateOptions{})
		}},
		{"UpdateStatus", func(c *apiextensionsv1.CustomResourceDefinition) (*apiextensionsv1.CustomResourceDefinition, error) {
			return crds.UpdateStatus(ctx, c, metav1.UpdateOptions{})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, tm := range []metav1.TypeMeta{{}, {APIVersion: "apiextensions.k8s.io/v1beta1", Kind: "Wrong"}} {
				crd := newCRD("crontabs", "CronTab")
				crd.TypeMeta = tm
				got, err := tc.call(crd)
				if err != nil {
					t.Fatal(err)
				}
				if sent := rec.last(); sent != want {
					t.Errorf("body of a CRD with TypeMeta %+v: apiVersion/kind = %+v, want %+v", tm, sent, want)
				}
				if crd.TypeMeta != tm {
					t.Errorf("the caller's CRD was changed: TypeMeta = %+v, want %+v", crd.TypeMeta, tm)
				}
				if got.Name != crd.Name || got.TypeMeta != want {
					t.Errorf("result = %s %+v, want %s %+v", got.Name, got.TypeMeta, crd.Name, want)
				}
			}
		})
	}
}
