package handler_test

import (
	"strings"
	"testing"

	"github.com/crdlab/crdlab/handler"
	"github.com/crdlab/crdlab/handler/internal/check"
)

// TestCRDHandler_TypeConverterBuiltOnFirstWrite: serving a CRD (a list, a
// get, a status-only change of the CRD) does not build its type converter
// — a provider's CRDs are listed and watched by its controllers, but few
// get objects, and a real-size CRD's typed schema costs about 0.2 MiB —
// the first write does, and the managedFields it records are typed by the
// CRD's schema (the converter that was built is the real one).
func TestCRDHandler_TypeConverterBuiltOnFirstWrite(t *testing.T) {
	ts, _ := crServer(t)
	const name = "crontabs.stable.example.com"
	check.Equal(t, 200, ts.do(t, "GET", ctPath, "").code)
	check.Equal(t, 404, ts.do(t, "GET", ctPath+"/a", "").code)
	built, ok := handler.TypeConverterBuilt(ts.h.CRDs(), name)
	check.True(t, ok, "no serving info after a list")
	check.False(t, built, "the type converter was built before any write")

	// A status-only change keeps the serving info, pointed at the new
	// object's spec: still nothing built.
	r := ts.do(t, "PATCH", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+name+"/status",
		`{"status":{"storedVersions":["v1"]}}`, "Content-Type", "application/merge-patch+json")
	check.Equal(t, 200, r.code, string(r.raw))
	ts.h.CRDs().OnUpdate(decodeCRD(t, r.raw))
	built, ok = handler.TypeConverterBuilt(ts.h.CRDs(), name)
	check.True(t, ok, "a status-only change dropped the serving info")
	check.False(t, built, "the type converter was built by a status-only change of the CRD")

	r = ts.do(t, "POST", ctPath+"?fieldManager=tester", crontab("a", `,"cronSpec":"*/5 * * * *"`))
	check.Equal(t, 201, r.code, string(r.raw))
	built, _ = handler.TypeConverterBuilt(ts.h.CRDs(), name)
	check.True(t, built, "the first write did not build the type converter")
	check.Contains(t, string(r.raw), `"manager":"tester"`)
	check.Contains(t, string(r.raw), `"f:cronSpec":{}`)

	// An apply merges by the schema's types: replicas is the creator's, so
	// applying it is a conflict.
	r = ts.do(t, "PATCH", ctPath+"/a?fieldManager=applier", `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"spec":{"replicas":3}}`,
		"Content-Type", "application/apply-patch+yaml")
	check.Equal(t, 409, r.code, string(r.raw))
	check.True(t, strings.Contains(string(r.raw), `.spec.replicas`), string(r.raw))
}
