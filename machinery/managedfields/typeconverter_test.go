package managedfields_test

import (
	"testing"

	"github.com/crdlab/crdlab/machinery/managedfields"
	"github.com/crdlab/crdlab/machinery/openapi"
	"github.com/crdlab/crdlab/scheme"
)

func TestAtomicField(t *testing.T) {
	const spec = `{"type":"object","properties":{"spec":{"type":"object","properties":{
	  "size":{"type":"integer"},
	  "tags":{"type":"array","items":{"type":"string"}},
	  "set":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
	  "color":{"type":"object","x-kubernetes-map-type":"atomic","properties":{"r":{"type":"integer"}}},
	  "box":{"type":"object","properties":{"w":{"type":"integer"}}},
	  "whole":{"type":"object","x-kubernetes-map-type":"atomic","properties":{"inner":{"type":"array","items":{"type":"string"}}}}}}}}`
	kind := scheme.GroupVersionKind{Group: "g.example.com", Version: "v1", Kind: "Widget"}
	models, err := openapi.Models([]openapi.Resource{{Group: kind.Group, Version: kind.Version, Kind: kind.Kind, Plural: "widgets", SchemaJSON: []byte(spec)}})
	if err != nil {
		t.Fatal(err)
	}
	tc, err := managedfields.NewTypeConverter(models, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		tc   managedfields.TypeConverter
		kind scheme.GroupVersionKind
		path []string
		want bool
	}{
		{"Scalar", tc, kind, []string{"spec", "size"}, true},
		{"AtomicList", tc, kind, []string{"spec", "tags"}, true},
		{"AtomicMap", tc, kind, []string{"spec", "color"}, true},
		{"ErrSetList", tc, kind, []string{"spec", "set"}, false},
		{"ErrGranularMap", tc, kind, []string{"spec", "box"}, false},
		{"ErrInsideAtomic", tc, kind, []string{"spec", "whole", "inner"}, false},
		{"ErrNoSuchField", tc, kind, []string{"spec", "nope"}, false},
		{"ErrNoPath", tc, kind, nil, false},
		{"ErrOtherKind", tc, scheme.GroupVersionKind{Group: "g.example.com", Version: "v2", Kind: "Widget"}, []string{"spec", "size"}, false},
		{"ErrDeduced", managedfields.NewDeducedTypeConverter(), kind, []string{"spec", "size"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := managedfields.AtomicField(c.tc, c.kind, c.path...); got != c.want {
				t.Fatalf("AtomicField(%v) = %v, want %v", c.path, got, c.want)
			}
		})
	}
}
