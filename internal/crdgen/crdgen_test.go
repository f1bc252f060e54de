package crdgen_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/crdlab/crdlab/internal/crdgen"
)

func TestCRD(t *testing.T) {
	for _, size := range []int{50 << 10, 100 << 10, 265 << 10, 600 << 10} {
		o := crdgen.Options{Bytes: size, Versions: 3, Seed: 7}
		b := crdgen.CRD(4, o)
		if got := len(b); got < size*85/100 || got > size*115/100 {
			t.Errorf("Bytes %d: CRD is %d bytes, want within 15%%", size, got)
		}
		if !bytes.Equal(b, crdgen.CRD(4, o)) {
			t.Errorf("Bytes %d: two calls differ", size)
		}
		if bytes.Equal(b, crdgen.CRD(5, o)) {
			t.Errorf("Bytes %d: CRDs 4 and 5 are equal", size)
		}
		var crd struct {
			Metadata struct{ Name string }
			Spec     struct {
				Names    struct{ Plural string }
				Versions []struct {
					Name    string
					Storage bool
				}
			}
		}
		if err := json.Unmarshal(b, &crd); err != nil {
			t.Fatal(err)
		}
		n := crdgen.NamesOf(4, o)
		if crd.Metadata.Name != n.Name || crd.Spec.Names.Plural != n.Plural {
			t.Errorf("names %q %q, want %q %q", crd.Metadata.Name, crd.Spec.Names.Plural, n.Name, n.Plural)
		}
		if len(crd.Spec.Versions) != 3 || !crd.Spec.Versions[2].Storage || crd.Spec.Versions[0].Storage {
			t.Errorf("versions %+v, want 3 with the last one storage", crd.Spec.Versions)
		}
		for i, v := range crd.Spec.Versions {
			if v.Name != n.Versions[i] {
				t.Errorf("version %d is %q, want %q", i, v.Name, n.Versions[i])
			}
		}
	}
}

func TestCRD_Depth(t *testing.T) {
	b := crdgen.CRD(1, crdgen.Options{Bytes: 265 << 10, Depth: 5})
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		t.Fatal(err)
	}
	// Deepest nesting of "properties" anywhere in the CRD.
	var deepest func(v any, d int) int
	deepest = func(v any, d int) int {
		best := d
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				nd := d
				if k == "properties" {
					nd++
				}
				best = max(best, deepest(c, nd))
			}
		case []any:
			for _, c := range v {
				best = max(best, deepest(c, d))
			}
		}
		return best
	}
	// root → spec → forProvider → blocks in blocks in blocks.
	if got := deepest(root, 0); got < 6 {
		t.Errorf("properties nest %d deep, want at least 6", got)
	}
}
