package handler_test

import (
	"context"
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

// TestCRDHandler_SchemaCompiledOnce: a version's schema (and the CEL
// programs in it) is compiled when the CRD's serving info is built, once
// per served version, and then only used: writes and reads compile
// nothing. The storage's strategy checks each write with the version the
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
