package client

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/internal/crdgen"
)

// TestDecodeList_KeepsNothingOfTheBody: decodeList reads each item from
// the body itself (itemJSON, no copy), so nothing it decodes may point
// into the body: the list decoded from a body later overwritten is the
// one decoded from a copy. A schema's default and enum (raw JSON) and a
// managedFields entry's fieldsV1 are the values most likely to be kept
// as bytes.
func TestDecodeList_KeepsNothingOfTheBody(t *testing.T) {
	items := [][]byte{
		crdgen.CRD(0, crdgen.Options{Group: "a.example.com", Bytes: 20 << 10, Versions: 2, Seed: 1}),
		[]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
		 "metadata":{"name":"hands.b.example.com","resourceVersion":"7","labels":{"x":"y"},
		  "managedFields":[{"manager":"kubectl","operation":"Apply","apiVersion":"apiextensions.k8s.io/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:group":{}}}}]},
		 "spec":{"group":"b.example.com","scope":"Namespaced","names":{"plural":"hands","singular":"hand","kind":"Hand","listKind":"HandList"},
		  "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
		   "spec":{"type":"object","default":{"n":1.5,"s":"text"},"properties":{"n":{"type":"number","enum":[1.5,2]},"s":{"type":"string","default":"text"}}}}}}}]}}`),
	}
	body := fmt.Appendf(nil, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinitionList","metadata":{"resourceVersion":"42"},"items":[%s]}`,
		bytes.Join(items, []byte(",")))
	var want apiextensionsv1.CustomResourceDefinitionList
	if err := NewSharedSpecs(nil).decodeList(bytes.Clone(body), &want); err != nil {
		t.Fatal(err)
	}
	var got apiextensionsv1.CustomResourceDefinitionList
	if err := NewSharedSpecs(nil).decodeList(body, &got); err != nil {
		t.Fatal(err)
	}
	for i := range body {
		body[i] = '#'
	}
	if len(got.Items) != 2 || got.Items[1].Spec.Versions[0].Schema == nil || len(got.Items[1].ManagedFields) != 1 {
		t.Fatalf("decoded %d items, or the second lost its schema or managedFields", len(got.Items))
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("a decoded item changed with the body: it points into it")
	}
}
