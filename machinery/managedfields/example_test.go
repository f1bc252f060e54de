package managedfields_test

import (
	"fmt"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/managedfields"
	"github.com/crdlab/crdlab/machinery/openapi"
	"github.com/crdlab/crdlab/scheme"
)

// Two managers, one field: an applier owns spec.replicas, a second
// applier's different value is a conflict, and force moves the field.
func ExampleFieldManager_Apply() {
	models, _ := openapi.Models([]openapi.Resource{{
		Group: "example.com", Version: "v1", Kind: "Widget", Plural: "widgets",
		SchemaJSON: []byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{
			"replicas":{"type":"integer"},"image":{"type":"string"}}}}}`),
	}})
	tc, _ := managedfields.NewTypeConverter(models, false)
	fm, _ := managedfields.New(managedfields.Config{TypeConverter: tc,
		Kind: scheme.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}})

	widget := func(spec map[string]any) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "example.com/v1", "kind": "Widget",
			"metadata": map[string]any{"name": "w"}, "spec": spec,
		}}
	}
	owners := func(obj *unstructured.Unstructured) {
		for _, e := range obj.GetManagedFields() {
			fmt.Printf("  %s (%s): %s\n", e.Manager, e.Operation, e.FieldsV1.Raw)
		}
	}

	live, _ := fm.Apply(fm.NewEmptyObject(), widget(map[string]any{"replicas": int64(1), "image": "nginx"}), "deployer", false)
	live.SetUID("stored")
	fmt.Println("deployer applied:")
	owners(live)

	_, err := fm.Apply(live, widget(map[string]any{"replicas": int64(5)}), "autoscaler", false)
	fmt.Println(apierrors.ToStatus(err).Code, err)

	live, _ = fm.Apply(live, widget(map[string]any{"replicas": int64(5)}), "autoscaler", true)
	fmt.Println("autoscaler forced:")
	owners(live)
	// Output:
	// deployer applied:
	//   deployer (Apply): {"f:spec":{"f:image":{},"f:replicas":{}}}
	// 409 Apply failed with 1 conflict: conflict with "deployer": .spec.replicas
	// autoscaler forced:
	//   autoscaler (Apply): {"f:spec":{"f:replicas":{}}}
	//   deployer (Apply): {"f:spec":{"f:image":{}}}
}
