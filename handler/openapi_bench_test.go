package handler

import (
	"log/slog"
	"net/http/httptest"
	"testing"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/scheme"
)

// BenchmarkOpenAPIService_BuildGroupVersion is one group version's
// document built and served uncompressed once, as bench's crds family
// first asks for each: eight provider CRDs of 265 KB (two versions) in
// one group, as crdbench generates them. At 2,000 CRDs the first round
// over 50 group versions allocated about 1.1 GB (docs/crd-memory.md,
// "Session 20").
//
//	go test -run '^$' -bench OpenAPIService_BuildGroupVersion -benchmem ./handler/
func BenchmarkOpenAPIService_BuildGroupVersion(b *testing.B) {
	h := &GenericAPIServer{logger: slog.New(slog.DiscardHandler)}
	opts := crdgen.Options{Group: "svc0.provider.example.io", Bytes: 265 << 10, Versions: 2, Seed: 1}
	var crds []*apiextensionsv1.CustomResourceDefinition
	for i := range 8 {
		crds = append(crds, servedCRD(b, i*10, opts))
	}
	gv := scheme.GroupVersion{Group: opts.Group, Version: crds[0].Spec.Versions[len(crds[0].Spec.Versions)-1].Name}
	size := 0
	for b.Loop() {
		o := newOpenAPIService(slog.New(slog.DiscardHandler), "v")
		o.setGroup(gv, h.crdOpenAPIResources(gv, crds))
		w := httptest.NewRecorder()
		o.serveGroupVersion(w, httptest.NewRequest("GET", gvPath(gv), nil), gv)
		if w.Code != 200 {
			b.Fatalf("HTTP %d", w.Code)
		}
		size = w.Body.Len()
	}
	b.ReportMetric(float64(size), "doc-bytes")
}
