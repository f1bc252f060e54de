package patch_test

import (
	"errors"
	"fmt"

	"github.com/crdlab/crdlab/machinery/patch"
)

func ExampleMergePatch() {
	doc := []byte(`{"metadata":{"labels":{"app":"web","tier":"fe"}},"spec":{"replicas":1}}`)
	out, err := patch.MergePatch(doc, []byte(`{"metadata":{"labels":{"tier":null}},"spec":{"replicas":3}}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// {"metadata":{"labels":{"app":"web"}},"spec":{"replicas":3}}
}

func ExampleCreateMergePatch() {
	p, _ := patch.CreateMergePatch(
		[]byte(`{"spec":{"replicas":1,"image":"nginx"},"status":{}}`),
		[]byte(`{"spec":{"replicas":2,"image":"nginx"}}`))
	fmt.Println(string(p))
	// Output:
	// {"spec":{"replicas":2},"status":null}
}

func ExampleJSONPatch() {
	doc := []byte(`{"spec":{"ports":[{"name":"http","port":80}]}}`)
	out, err := patch.JSONPatch(doc, []byte(`[
		{"op":"test","path":"/spec/ports/0/name","value":"http"},
		{"op":"add","path":"/spec/ports/-","value":{"name":"https","port":443}},
		{"op":"replace","path":"/spec/ports/0/port","value":8080}
	]`))
	fmt.Println(string(out), err)

	_, err = patch.JSONPatch(doc, []byte(`[{"op":"remove","path":"/spec/replicas"}]`))
	fmt.Println(err)
	fmt.Println(errors.Is(err, patch.ErrNotApplicable))
	// Output:
	// {"spec":{"ports":[{"name":"http","port":8080},{"name":"https","port":443}]}} <nil>
	// error in remove for path: '/spec/replicas': Unable to remove nonexistent key: replicas: missing value
	// true
}
