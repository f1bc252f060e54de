package handler

import (
	"bytes"
	"compress/gzip"
	"context"
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/crdlab/crdlab/apis/apiextensions"
	autoscalingv1 "github.com/crdlab/crdlab/apis/autoscaling/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler/endpoints"
	"github.com/crdlab/crdlab/handler/internal/check"
	"github.com/crdlab/crdlab/machinery/openapi"
	"github.com/crdlab/crdlab/scheme"
)

type fakeScaleStorage struct{}

func (fakeScaleStorage) New() scheme.Object { return &autoscalingv1.Scale{} }
func (fakeScaleStorage) Destroy()           {}

// TestNewScaleScope_EncodeResult: the /scale scope is made from a custom
// resource scope, whose in-place encoder only takes custom resources; the
// Scale a registry call returns must not reach it (kubectl scale got a 500
// "expected a custom resource, got *v1.Scale").
func TestNewScaleScope_EncodeResult(t *testing.T) {
	cr := &crCodec{kind: scheme.GroupVersionKind{Group: "stable.example.com", Version: "v1", Kind: "CronTab"},
		storageGV: scheme.GroupVersion{Group: "stable.example.com", Version: "v1"}}
	s := newScaleScope(&endpoints.RequestScope{Encode: cr.encode, EncodeOwned: cr.encodeOwned}, fakeScaleStorage{})
	check.True(t, s.EncodeOwned == nil, "the custom resources' in-place encoder is left on /scale")
	in := &autoscalingv1.Scale{Spec: autoscalingv1.ScaleSpec{Replicas: 3}}
	out, err := s.Encode(in)
	check.NoError(t, err)
	scale, ok := out.(*autoscalingv1.Scale)
	check.True(t, ok, out)
	check.Equal(t, int32(3), scale.Spec.Replicas)
	check.Equal(t, "Scale", scale.Kind)
	check.Equal(t, "autoscaling/v1", scale.APIVersion)
}

// fakeDefaults is a Schema that reports whether it has defaults.
type fakeDefaults struct{ has bool }

func (fakeDefaults) Validate(context.Context, map[string]any, map[string]any) []metav1.StatusCause {
	return nil
}
func (fakeDefaults) Default(map[string]any)        {}
func (fakeDefaults) Prune(map[string]any) []string { return nil }
func (f fakeDefaults) HasDefaults() bool           { return f.has }

// TestCrCodec_EncodeShared checks that a shared object is served as is
// only when reading would not change it, and is never changed.
func TestCrCodec_EncodeShared(t *testing.T) {
	gv := scheme.GroupVersion{Group: "bench.crdlab.dev", Version: "v1"}
	obj := func(apiVersion string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": apiVersion, "kind": "Widget", "metadata": map[string]any{"name": "a"},
		}}
	}
	for _, tc := range []struct {
		name       string
		noDefaults bool
		apiVersion string
		reused     bool
	}{
		{"OK", true, "bench.crdlab.dev/v1", true},
		{"OtherVersion", true, "bench.crdlab.dev/v2", false},
		{"Defaults", false, "bench.crdlab.dev/v1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &crCodec{kind: gv.WithKind("Widget"), storageGV: gv}
			if !tc.noDefaults {
				c.schemas = &crdSchemas{}
				c.schemas.done.Store(&compiledSchemas{storageVersion: "v1", byVersion: map[string]Schema{"v1": fakeDefaults{has: true}}})
			}
			in := obj(tc.apiVersion)
			out, reused, err := c.encodeShared(in)
			if err != nil {
				t.Fatal(err)
			}
			if reused != tc.reused || (out == scheme.Object(in)) != tc.reused {
				t.Errorf("reused = %v (same object: %v), want %v", reused, out == scheme.Object(in), tc.reused)
			}
			if in.GetAPIVersion() != tc.apiVersion {
				t.Errorf("the shared object was changed: apiVersion %s", in.GetAPIVersion())
			}
			if got := out.(*unstructured.Unstructured).GetAPIVersion(); got != "bench.crdlab.dev/v1" {
				t.Errorf("encoded apiVersion %s", got)
			}
		})
	}
	t.Run("SchemaReportsDefaults", func(t *testing.T) {
		var s Schema = fakeDefaults{has: true}
		if d, ok := s.(defaultsReporter); !ok || !d.HasDefaults() {
			t.Error("a schema with defaults is not seen as one")
		}
	})
}

// TestResetTopFields: a CRD's /status leaves spec out of an update's
// bookkeeping (its reset field in both versions), the main endpoint
// status; nothing is left out when a version lacks the reset field, or
// for metadata; the object left out of is a copy.
func TestResetTopFields(t *testing.T) {
	resources := []openapi.Resource{{Group: "apiextensions.k8s.io", Version: "v1"}, {Group: "apiextensions.k8s.io", Version: "v1beta1"}}
	set := func(paths ...string) *fieldpath.Set {
		s := fieldpath.NewSet()
		for _, p := range paths {
			var parts []any
			for _, f := range strings.Split(p, ".") {
				parts = append(parts, f)
			}
			s.Insert(fieldpath.MakePathOrDie(parts...))
		}
		return s
	}
	both := func(s *fieldpath.Set) map[fieldpath.APIVersion]*fieldpath.Set {
		return map[fieldpath.APIVersion]*fieldpath.Set{"apiextensions.k8s.io/v1": s, "apiextensions.k8s.io/v1beta1": s}
	}
	check.Equal(t, map[string]bool{"spec": true}, resetTopFields(resources, both(set("spec"))))
	check.Equal(t, map[string]bool{"status": true}, resetTopFields(resources, both(set("status", "metadata", "spec.x"))))
	check.Equal(t, 0, len(resetTopFields(resources, map[fieldpath.APIVersion]*fieldpath.Set{"apiextensions.k8s.io/v1": set("spec")})))
	check.Equal(t, 0, len(resetTopFields(resources, nil)))

	crd := &apiextensions.CustomResourceDefinition{Spec: apiextensions.CustomResourceDefinitionSpec{Group: "example.com"}}
	crd.Name = "widgets.example.com"
	crd.Status.StoredVersions = []string{"v1"}
	out, ok := withoutFields(crd, map[string]bool{"spec": true}).(*apiextensions.CustomResourceDefinition)
	check.True(t, ok)
	check.True(t, out != crd, "not a copy")
	check.Equal(t, "", out.Spec.Group)
	check.Equal(t, "widgets.example.com", out.Name)
	check.Equal(t, []string{"v1"}, out.Status.StoredVersions)
	check.Equal(t, "example.com", crd.Spec.Group)
	check.True(t, withoutFields(crd, map[string]bool{"nope": true}) == scheme.Object(crd), "copied without a field to leave out")
}

// TestPlainCache: uncompressed documents are kept up to the bound, the
// least recently used go first, and a document with another hash is
// never answered from an older entry.
func TestPlainCache(t *testing.T) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		_, _ = zw.Write([]byte(s))
		_ = zw.Close()
		return b.Bytes()
	}
	a, b := scheme.GroupVersion{Group: "a.example.com", Version: "v1"}, scheme.GroupVersion{Group: "b.example.com", Version: "v1"}
	c := newPlainCache(10)
	got, err := c.get(a, "h1", gz("aaaaa"))
	check.NoError(t, err)
	check.Equal(t, "aaaaa", string(got))
	got, _ = c.get(a, "h1", []byte("not gzip: answered from the cache"))
	check.Equal(t, "aaaaa", string(got))
	got, _ = c.get(a, "h2", gz("AAAAA"))
	check.Equal(t, "AAAAA", string(got))
	_, _ = c.get(b, "h1", gz("bbbbb")) // 15 bytes: a/h1 goes
	check.Equal(t, 10, c.size)
	_, err = c.get(a, "h1", []byte("not gzip"))
	check.True(t, err != nil, "a/h1 was not evicted")
	got, _ = c.get(b, "h1", []byte("not gzip"))
	check.Equal(t, "bbbbb", string(got))
	got, _ = c.get(b, "big", gz("more than ten bytes"))
	check.Equal(t, "more than ten bytes", string(got))
	check.Equal(t, 10, c.size)
}
