package client

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/internal/crdgen"
)

// TestSplitList_AsEncodingJSON: a CRD list decoded with its items cut out
// by splitList is the list decoded by encoding/json, and a body one
// refuses the other refuses too. The bodies are what a server sends and
// the shapes splitList must hand back (escapes and brackets inside
// strings, white space, null and empty items, keys encoding/json would
// match case-insensitively, duplicates, bad syntax inside and outside the
// items, trailing bytes).
func TestSplitList_AsEncodingJSON(t *testing.T) {
	real := crdgen.CRD(0, crdgen.Options{Group: "a.example.com", Bytes: 20 << 10, Versions: 2, Seed: 1})
	small := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"hands.b.example.com","resourceVersion":"7","annotations":{"q":"a \"}]\\\\ [{"}},` +
		`"spec":{"group":"b.example.com","scope":"Namespaced","names":{"plural":"hands","singular":"hand","kind":"Hand","listKind":"HandList"},` +
		`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","description":"\u00e9 ] } [ {"}}}]}}`
	list := func(items string) string {
		return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinitionList","metadata":{"resourceVersion":"42","continue":"x"},"items":` + items + `}`
	}
	bodies := map[string]string{
		"real and small":        list("[" + string(real) + "," + small + "]"),
		"white space":           " \n{ \"kind\" : \"CustomResourceDefinitionList\" ,\t\"items\" : [ " + small + " , " + small + " ] , \"metadata\":{\"resourceVersion\":\"1\"} }\n",
		"items first":           `{"items":[` + small + `],"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinitionList","metadata":{}}`,
		"empty items":           list("[]"),
		"null items":            list("null"),
		"no items":              `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinitionList","metadata":{"resourceVersion":"3"}}`,
		"empty object":          `{}`,
		"Items key":             `{"kind":"CustomResourceDefinitionList","Items":[` + small + `]}`,
		"items twice":           `{"items":[` + small + `],"items":[]}`,
		"escaped key":           `{"kind":"CustomResourceDefinitionList","\u0069tems":[` + small + `]}`,
		"kind twice":            `{"kind":"A","kind":"CustomResourceDefinitionList","items":[]}`,
		"bad item":              list(`[{"metadata":{"name":"x"},"spec":{"group":tru}}]`),
		"item not an object":    list(`[5]`),
		"null item":             list(`[null]`),
		"bad envelope":          `{"kind":tru,"items":[]}`,
		"unclosed":              list("[" + small),
		"trailing bytes":        list("[]") + "x",
		"two objects":           list("[]") + "{}",
		"not an object":         `[]`,
		"empty body":            ``,
		"items not an array":    list(`{}`),
		"missing comma":         list(`[{} {}]`),
		"control char":          `{"kind":"a` + "\x01" + `","items":[]}`,
		"metadata wrong type":   `{"metadata":5,"items":[]}`,
		"number metadata value": `{"metadata":{"resourceVersion":5},"items":[]}`,
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) { checkSplitList(t, []byte(body)) })
	}
}

// checkSplitList fails if body decodes differently with its items cut out
// by splitList than with encoding/json alone.
func checkSplitList(t *testing.T, body []byte) {
	var want, got apiextensionsv1.CustomResourceDefinitionList
	wantErr := NewSharedSpecs(nil).decodeListSplit(bytes.Clone(body), &want, false)
	gotErr := NewSharedSpecs(nil).decodeListSplit(bytes.Clone(body), &got, true)
	if (wantErr == nil) != (gotErr == nil) {
		t.Fatalf("encoding/json: %v; split: %v", wantErr, gotErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("split list differs:\n got %+v\nwant %+v", got, want)
	}
}

// FuzzSplitList: any body decodes the same with splitList as with
// encoding/json alone (go test runs the seeds; go test -fuzz
// FuzzSplitList ./client/ searches).
func FuzzSplitList(f *testing.F) {
	item := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.b.c","annotations":{"k":"v\"]"}},"spec":{"group":"b.c","names":{"plural":"a","kind":"A"},"scope":"Cluster","versions":[{"name":"v1","served":true,"storage":true}]}}`
	for _, seed := range []string{
		`{"kind":"CustomResourceDefinitionList","metadata":{"resourceVersion":"1"},"items":[` + item + `]}`,
		`{"items":[` + item + `,` + item + `],"kind":"X"}`,
		`{"items":null}`, `{"items":[]}`, `{"Items":[]}`, `{}`, ` {"metadata":{}} `, `[1]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) { checkSplitList(t, body) })
}

// TestSplitList_Cuts checks what splitList itself hands back for a plain
// list: the envelope without the items, and each item's exact bytes.
func TestSplitList_Cuts(t *testing.T) {
	a, b := `{"x":"]"}`, `{"y":[1,{"z":"\""}]}`
	body := fmt.Sprintf(`{"kind":"L","items":[%s, %s],"metadata":{"resourceVersion":"9"}}`, a, b)
	env, items, ok := splitList([]byte(body))
	if !ok {
		t.Fatal("splitList refused a plain list")
	}
	if string(env) != `{"kind":"L","metadata":{"resourceVersion":"9"}}` {
		t.Errorf("envelope %s", env)
	}
	if len(items) != 2 || !bytes.Equal(items[0], []byte(a)) || !bytes.Equal(items[1], []byte(b)) {
		t.Errorf("items %q", items)
	}
	if _, _, ok := splitList([]byte(`{"Items":[]}`)); ok {
		t.Error(`splitList took "Items", which encoding/json matches to items`)
	}
}

// BenchmarkDecodeList decodes a list of 40 real-size CRDs (265 KiB, 2
// versions, 10.6 MB) as the CRD informer's first list is decoded: with
// the items cut out by splitList, and with encoding/json reading the
// envelope.
func BenchmarkDecodeList(b *testing.B) {
	items := make([][]byte, 40)
	for i := range items {
		items[i] = crdgen.CRD(i, crdgen.Options{Group: fmt.Sprintf("g%d.example.com", i), Bytes: 265 << 10, Versions: 2, Seed: uint64(i)})
	}
	body := fmt.Appendf(nil, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinitionList","metadata":{"resourceVersion":"42"},"items":[%s]}`,
		bytes.Join(items, []byte(",")))
	for _, split := range []bool{true, false} {
		b.Run(fmt.Sprintf("split=%v", split), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				var l apiextensionsv1.CustomResourceDefinitionList
				if err := NewSharedSpecs(nil).decodeListSplit(body, &l, split); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
