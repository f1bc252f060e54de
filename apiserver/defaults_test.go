package apiserver

import (
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions/structural"
)

func TestStructuralSchema_HasDefaults(t *testing.T) {
	leaf := func(def any) *structural.Structural { return &structural.Structural{Type: "string", Default: def} }
	for name, tc := range map[string]struct {
		s    *structural.Structural
		want bool
	}{
		"None":                 {&structural.Structural{Type: "object", Properties: map[string]*structural.Structural{"a": leaf(nil)}}, false},
		"Property":             {&structural.Structural{Type: "object", Properties: map[string]*structural.Structural{"a": leaf("x")}}, true},
		"Items":                {&structural.Structural{Type: "array", Items: leaf("x")}, true},
		"AdditionalProperties": {&structural.Structural{Type: "object", AdditionalProperties: leaf("x")}, true},
		"Nil":                  {nil, false},
	} {
		t.Run(name, func(t *testing.T) {
			if got := (structuralSchema{s: tc.s}).HasDefaults(); got != tc.want {
				t.Errorf("HasDefaults = %v, want %v", got, tc.want)
			}
		})
	}
}
