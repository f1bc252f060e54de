package unstructured_test

import (
	"fmt"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

// ExampleNestedMap reads a custom resource's spec the way a client does
// (notebooks 04 and 06 do the same): the map it returns is a copy, so
// changing it leaves the object as it was.
func ExampleNestedMap() {
	obj := map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"spec":       map[string]any{"cronSpec": "* * * * */5", "replicas": int64(3)},
	}

	spec, found, err := unstructured.NestedMap(obj, "spec")
	fmt.Println(spec["cronSpec"], found, err)

	spec["replicas"] = int64(5)
	replicas, _, _ := unstructured.NestedInt64(obj, "spec", "replicas")
	fmt.Println("object still has", replicas)

	_, _, err = unstructured.NestedMap(obj, "kind")
	fmt.Println(err)
	// Output:
	// * * * * */5 true <nil>
	// object still has 3
	// .kind accessor error: CronTab is of the type string, expected map[string]interface{}
}
