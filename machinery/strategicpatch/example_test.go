package strategicpatch_test

import (
	"fmt"

	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	"github.com/crdlab/crdlab/machinery/strategicpatch"
)

// A strategic merge patch of a ConfigMap: finalizers merge as a set,
// ownerReferences by uid (one deleted by $patch), data as a JSON merge
// patch would.
func ExampleStrategicMergePatch() {
	schema, err := strategicpatch.NewPatchMetaFromStruct(&corev1.ConfigMap{})
	if err != nil {
		panic(err)
	}
	current := `{"metadata":{"name":"c","finalizers":["a"],"ownerReferences":[{"uid":"1","name":"x"},{"uid":"2","name":"y"}]},"data":{"k":"v","old":"o"}}`
	patch := `{"metadata":{"finalizers":["b"],"ownerReferences":[{"uid":"1","$patch":"delete"}]},"data":{"old":null}}`
	out, err := strategicpatch.StrategicMergePatch([]byte(current), []byte(patch), schema)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// {"data":{"k":"v"},"metadata":{"finalizers":["b","a"],"name":"c","ownerReferences":[{"name":"y","uid":"2"}]}}
}
