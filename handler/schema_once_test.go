package handler_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler"
	"github.com/crdlab/crdlab/handler/internal/check"
)

// countingSchema is testSchema that counts how often it checks an object.
type countingSchema struct {
	testSchema
	validations *atomic.Int64
}

func (s countingSchema) Validate(ctx context.Context, obj, old map[string]any) []metav1.StatusCause {
	s.validations.Add(1)
	return s.testSchema.Validate(ctx, obj, old)
}

// TestCRDHandler_SchemaCompiledOnce: a version's schema is compiled once
// per served version (on the first object, see below), and then only
// used: further writes and reads compile nothing. The storage's strategy checks each write with the version the
// request was written in.
func TestCRDHandler_SchemaCompiledOnce(t *testing.T) {
	var compiled, validated atomic.Int64
	compiledFor := map[string]int{}
	ts := newTestServer(t, func(c *handler.Config) {
		c.CustomResourceStorage = func(crd *apiextensionsv1.CustomResourceDefinition, validate handler.CustomResourceValidator) (*handler.CustomResourceStorage, error) {
			st, _ := newMemCRStorage(crd, validate)
			return st, nil
		}
		c.SchemaFor = func(_ *apiextensionsv1.CustomResourceDefinition, version string) (handler.Schema, error) {
			compiled.Add(1)
			compiledFor[version]++
			return countingSchema{validations: &validated}, nil
		}
	})
	check.Equal(t, 201, ts.do(t, "POST", crdPath, crontabCRD).code)
	r := ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com/status", establishedStatus, "Content-Type", "application/merge-patch+json")
	check.Equal(t, 200, r.code, string(r.raw))
	ts.h.CRDs().OnAdd(decodeCRD(t, r.raw))

	for _, name := range []string{"a", "b", "c", "d"} {
		check.Equal(t, 201, ts.do(t, "POST", ctPath, crontab(name, "")).code)
		check.Equal(t, 200, ts.do(t, "GET", ctPath+"/"+name, "").code)
	}
	r = ts.do(t, "POST", ctPath, crontab("bad", `,"replicas":-1`))
	r.status(t, 422, "Invalid")

	check.Equal(t, int64(2), compiled.Load()) // v1 and v2 are served; v3 is not
	check.Equal(t, map[string]int{"v1": 1, "v2": 1}, compiledFor)
	if validated.Load() < 5 {
		t.Errorf("the strategy checked %d writes, want every one of the 5 creates at least", validated.Load())
	}
}

// TestCRDHandler_SchemasCompiledOnFirstObject: serving a CRD whose
// resource has no objects (lists, a get of a missing one, a watch's
// bookmark, a status-only change of the CRD — what a provider's
// controllers do to most of its CRDs) compiles none of its schemas; the first object does, from the
// latest CRD object (a status-only change repoints the serving info, so
// the older object can go), and then the schema prunes and defaults it.
func TestCRDHandler_SchemasCompiledOnFirstObject(t *testing.T) {
	var compiled atomic.Int64
	var compiledFrom atomic.Value // the resourceVersion of the CRD compiled
	ts := newTestServer(t, func(c *handler.Config) {
		c.CustomResourceStorage = func(crd *apiextensionsv1.CustomResourceDefinition, validate handler.CustomResourceValidator) (*handler.CustomResourceStorage, error) {
			st, _ := newMemCRStorage(crd, validate)
			return st, nil
		}
		c.SchemaFor = func(crd *apiextensionsv1.CustomResourceDefinition, version string) (handler.Schema, error) {
			compiled.Add(1)
			compiledFrom.Store(crd.ResourceVersion)
			return testSchema{}, nil
		}
	})
	const name = "crontabs.stable.example.com"
	check.Equal(t, 201, ts.do(t, "POST", crdPath, crontabCRD).code)
	r := ts.do(t, "PATCH", crdPath+"/"+name+"/status", establishedStatus, "Content-Type", "application/merge-patch+json")
	check.Equal(t, 200, r.code, string(r.raw))
	ts.h.CRDs().OnAdd(decodeCRD(t, r.raw))

	check.Equal(t, 200, ts.do(t, "GET", ctPath, "").code)
	check.Equal(t, 200, ts.do(t, "GET", "/apis/stable.example.com/v2/crontabs", "").code)
	check.Equal(t, 404, ts.do(t, "GET", ctPath+"/a", "").code)
	// A watch of no objects: its only event is the bookmark that ends
	// the initial events.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+ctPath+"?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true", nil)
	resp, err := http.DefaultClient.Do(req)
	check.NoError(t, err)
	defer resp.Body.Close()
	check.Equal(t, "BOOKMARK", readEvents(t, resp.Body, 1)[0]["type"])
	r = ts.do(t, "PATCH", crdPath+"/"+name+"/status", `{"status":{"storedVersions":["v2"]}}`, "Content-Type", "application/merge-patch+json")
	check.Equal(t, 200, r.code, string(r.raw))
	latest := decodeCRD(t, r.raw)
	ts.h.CRDs().OnUpdate(latest)
	compiledNow, ok := handler.SchemasCompiled(ts.h.CRDs(), name)
	check.True(t, ok, "no serving info after lists, or a status-only change dropped it")
	check.False(t, compiledNow, "the schemas were compiled before any object was read or written")
	check.Equal(t, int64(0), compiled.Load())

	r = ts.do(t, "POST", ctPath, crontab("a", `,"unknown":true`))
	check.Equal(t, 201, r.code, string(r.raw))
	check.Contains(t, string(r.raw), `"cronSpec":"* * * * *"`) // defaulted
	check.False(t, strings.Contains(string(r.raw), "unknown"), "not pruned: "+string(r.raw))
	compiledNow, _ = handler.SchemasCompiled(ts.h.CRDs(), name)
	check.True(t, compiledNow, "the first object did not compile the schemas")
	check.Equal(t, int64(2), compiled.Load()) // v1 and v2 are served; v3 is not
	check.Equal(t, latest.ResourceVersion, compiledFrom.Load())
}

// TestCRDHandler_SchemaThatDoesNotCompile: a CRD whose schema cannot be
// compiled is still listed (it has no objects), but a write answers 500
// with the reason, and nothing is stored.
func TestCRDHandler_SchemaThatDoesNotCompile(t *testing.T) {
	db := new(*memCRDB)
	ts := newTestServer(t, func(c *handler.Config) {
		c.CustomResourceStorage = func(crd *apiextensionsv1.CustomResourceDefinition, validate handler.CustomResourceValidator) (*handler.CustomResourceStorage, error) {
			st, d := newMemCRStorage(crd, validate)
			*db = d
			return st, nil
		}
		c.SchemaFor = func(crd *apiextensionsv1.CustomResourceDefinition, version string) (handler.Schema, error) {
			return nil, errors.New("no such type")
		}
	})
	check.Equal(t, 201, ts.do(t, "POST", crdPath, crontabCRD).code)
	r := ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com/status", establishedStatus, "Content-Type", "application/merge-patch+json")
	check.Equal(t, 200, r.code, string(r.raw))
	ts.h.CRDs().OnAdd(decodeCRD(t, r.raw))

	check.Equal(t, 200, ts.do(t, "GET", ctPath, "").code)
	r = ts.do(t, "POST", ctPath, crontab("a", ""))
	r.status(t, 500, "InternalError")
	check.Contains(t, string(r.raw), "the schema of version v1 of crontabs.stable.example.com: no such type")
	check.Equal(t, 404, ts.do(t, "GET", ctPath+"/a", "").code)
}
