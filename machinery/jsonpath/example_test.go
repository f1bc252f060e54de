package jsonpath_test

import (
	"fmt"

	"github.com/crdlab/crdlab/machinery/jsonpath"
)

func ExampleParse() {
	obj := map[string]any{
		"spec": map[string]any{"replicas": int64(3)},
		"status": map[string]any{"conditions": []any{
			map[string]any{"type": "Synced", "status": "False"},
			map[string]any{"type": "Ready", "status": "True"},
		}},
	}
	for _, expr := range []string{
		".spec.replicas",
		`{.status.conditions[?(@.type=="Ready")].status}`,
		".status.conditions[*].type",
		".spec.missing",
	} {
		p, err := jsonpath.Parse(expr)
		if err != nil {
			panic(err)
		}
		values, err := p.Execute(obj)
		fmt.Println(p, values, err)
	}
	// Output:
	// .spec.replicas [3] <nil>
	// .status.conditions[?(@.type=='Ready')].status [True] <nil>
	// .status.conditions[*].type [Synced Ready] <nil>
	// .spec.missing [] <nil>
}
