package fields_test

import (
	"fmt"

	"github.com/crdlab/crdlab/machinery/fields"
)

func ExampleParseSelector() {
	sel, err := fields.ParseSelector("metadata.namespace!=kube-system,metadata.name=web")
	if err != nil {
		panic(err)
	}
	fmt.Println(sel)
	fmt.Println(sel.Matches(map[string]string{"metadata.name": "web", "metadata.namespace": "default"}))
	name, ok := sel.RequiresExactMatch("metadata.name")
	fmt.Println(name, ok)
	// Output:
	// metadata.name=web,metadata.namespace!=kube-system
	// true
	// web true
}

func ExampleEscapeValue() {
	sel := fields.OneTermEqualSelector("spec.path", "a=b,c")
	fmt.Println(sel)
	again, _ := fields.ParseSelector(sel.String())
	v, _ := again.RequiresExactMatch("spec.path")
	fmt.Println(v)
	// Output:
	// spec.path=a\=b\,c
	// a=b,c
}
