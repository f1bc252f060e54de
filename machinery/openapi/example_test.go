package openapi_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/crdlab/crdlab/machinery/openapi"
)

func ExampleBuildGroupVersion() {
	doc, err := openapi.BuildGroupVersion("stable.example.com", "v1", []openapi.Resource{{
		Group: "stable.example.com", Version: "v1", Kind: "CronTab", Plural: "crontabs", Singular: "crontab",
		Namespaced: true,
		SchemaJSON: []byte(`{"type":"object","properties":{"spec":{"type":"object"}}}`),
	}})
	if err != nil {
		panic(err)
	}
	var d struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Parameters  []struct{ Name, In string }
		} `json:"paths"`
	}
	_ = json.Unmarshal(doc, &d)
	patch := d.Paths["/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}"]["patch"]
	var names []string
	for _, p := range patch.Parameters {
		names = append(names, p.Name)
	}
	fmt.Println(patch.OperationID, strings.Join(names, ","))

	fmt.Println(len(openapi.Hash(doc)))
	root := openapi.RootDocument(map[string]string{"apis/stable.example.com/v1": "0A1B"})
	fmt.Println(string(root))
	// Output:
	// patchStableExampleComV1NamespacedCronTab dryRun,fieldManager,fieldValidation,force
	// 128
	// {"paths":{"apis/stable.example.com/v1":{"serverRelativeURL":"/openapi/v3/apis/stable.example.com/v1?hash=0A1B"}}}
}

// Gadget is the kind of ExampleGoTypes_SchemaOf.
type Gadget struct {
	Kind string     `json:"kind,omitempty"`
	Spec GadgetSpec `json:"spec"`
}

func (Gadget) SwaggerDoc() map[string]string {
	return map[string]string{"": "A gadget.", "spec": "What the gadget should do."}
}

type GadgetSpec struct {
	Size  int32    `json:"size"`
	Modes []string `json:"modes,omitempty"`
}

func ExampleGoTypes_SchemaOf() {
	types := openapi.GoTypes{Name: func(t reflect.Type) string { return "com.example.v1." + t.Name() }}
	schema, defs, err := types.SchemaOf(reflect.TypeFor[Gadget]())
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(schema)
	fmt.Println(string(b))
	b, _ = json.Marshal(defs)
	fmt.Println(string(b))
	// Output:
	// {"description":"A gadget.","properties":{"kind":{"type":"string"},"spec":{"allOf":[{"$ref":"#/components/schemas/com.example.v1.GadgetSpec"}],"description":"What the gadget should do."}},"required":["spec"],"type":"object"}
	// {"com.example.v1.GadgetSpec":{"properties":{"modes":{"items":{"type":"string"},"type":"array"},"size":{"format":"int32","type":"integer"}},"required":["size"],"type":"object"}}
}
