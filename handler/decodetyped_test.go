package handler

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/install"
	"github.com/crdlab/crdlab/handler/endpoints"
	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/registry/customresourcedefinition"
	"github.com/crdlab/crdlab/scheme"
)

// decodeCheckingFirst is what decodeTyped replaced: the body's kind
// checked (with encoding/json's scanner) before it is decoded.
func decodeCheckingFirst(s *scheme.Scheme, codecs scheme.CodecFactory, kind scheme.GroupVersionKind, bodies bodyDecoder,
	body []byte, strict bool) (scheme.Object, *scheme.StrictDecodingError, error) {
	if err := endpoints.CheckTypeMeta(body, kind); err != nil {
		return nil, nil, err
	}
	return decodeTypedBody(s, codecs, kind, bodies, body, strict)
}

// typedDecodeCase is decodeTyped's setup for a CRD scope: the plain
// decode, and the storage codec's, with remembered a spec it has read.
type typedDecodeCase struct {
	s          *scheme.Scheme
	codecs     scheme.CodecFactory
	kind       scheme.GroupVersionKind
	memo       bodyDecoder
	remembered []byte // a body whose spec the memo holds
}

func newTypedDecodeCase(t testing.TB) *typedDecodeCase {
	t.Helper()
	s := scheme.NewScheme()
	install.Install(s)
	codec := customresourcedefinition.NewCodec(s)
	body := crdgen.CRD(1, crdgen.Options{Bytes: 40 << 10, Versions: 2, Seed: 3})
	// Stored, with storedVersions: the codec remembers its spec.
	stored := append(bytes.Clone(body[:len(body)-1]), `,"status":{"storedVersions":["v1beta1"]}}`...)
	if err := codec.Decode(stored, &apiextensions.CustomResourceDefinition{}); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := codec.DecodeBody(stored, true); !ok {
		t.Fatal("the codec does not decode the stored body without its spec")
	}
	return &typedDecodeCase{s: s, codecs: scheme.NewCodecFactory(s), kind: crdKind, memo: codec, remembered: stored}
}

var crdKind = scheme.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}

// check decodes body both ways, with and without the memo, strictly and
// not, and fails if they differ in object, strict errors or error.
func (c *typedDecodeCase) check(t testing.TB, body []byte) {
	t.Helper()
	for _, bodies := range []bodyDecoder{nil, c.memo} {
		for _, strict := range []bool{false, true} {
			obj, strictErr, err := decodeTyped(c.s, c.codecs, c.kind, bodies, body, strict)
			wantObj, wantStrict, wantErr := decodeCheckingFirst(c.s, c.codecs, c.kind, bodies, body, strict)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("%.200q (memo %v, strict %v): error %v, checking first %v", body, bodies != nil, strict, err, wantErr)
			}
			if fmt.Sprint(strictErr) != fmt.Sprint(wantStrict) {
				t.Fatalf("%.200q (memo %v, strict %v): strict errors %v, checking first %v", body, bodies != nil, strict, strictErr, wantStrict)
			}
			if !reflect.DeepEqual(obj, wantObj) {
				t.Fatalf("%.200q (memo %v, strict %v): another object than checking first", body, bodies != nil, strict)
			}
		}
	}
}

// TestDecodeTyped_SameAsCheckingFirst checks that reading the kind
// without checking the body first (decodeTyped) answers every body as
// checking it first did: the same object, strict errors and error —
// malformed JSON anywhere (in a schema, in a spec the storage codec
// remembers, after the object), a wrong or missing kind, YAML.
func TestDecodeTyped_SameAsCheckingFirst(t *testing.T) {
	c := newTypedDecodeCase(t)
	good := c.remembered
	desc := []byte(`"description":"`)
	at := bytes.Index(good, desc) + len(desc)
	last := bytes.LastIndex(good, desc) + len(desc)
	with := func(b []byte, i int, insert string) []byte {
		return append(append(append([]byte(nil), b[:i]...), insert...), b[i:]...)
	}
	bodies := map[string][]byte{
		"Remembered":                good,
		"Generated":                 crdgen.CRD(2, crdgen.Options{Bytes: 20 << 10, Seed: 4}),
		"BadEscapeInSchema":         with(good, at, `\q`),
		"BadEscapeInLastSchema":     with(good, last, `\q`),
		"ControlByteInSchema":       with(good, at, "\x01"),
		"TrailingGarbage":           append(append([]byte(nil), good...), `x`...),
		"TrailingObject":            append(append([]byte(nil), good...), `{}`...),
		"Truncated":                 good[:len(good)-2],
		"UnknownField":              bytes.Replace(good, []byte(`"scope":`), []byte(`"foo":1,"scope":`), 1),
		"RepeatedField":             bytes.Replace(good, []byte(`"scope":`), []byte(`"scope":"Namespaced","scope":`), 1),
		"WrongKind":                 bytes.Replace(good, []byte(`"kind":"CustomResourceDefinition"`), []byte(`"kind":"Pod"`), 1),
		"WrongKindAndMalformed":     with(bytes.Replace(good, []byte(`"kind":"CustomResourceDefinition"`), []byte(`"kind":"Pod"`), 1), at, `\q`),
		"WrongVersion":              bytes.Replace(good, []byte(`"apiextensions.k8s.io/v1"`), []byte(`"apiextensions.k8s.io/v1beta1"`), 1),
		"NoKind":                    []byte(`{"apiVersion":"apiextensions.k8s.io/v1","metadata":{"name":"a"}}`),
		"NoKindMalformed":           []byte(`{"apiVersion":"apiextensions.k8s.io/v1","metadata":{"name":"a\q"}}`),
		"KindTwice":                 bytes.Replace(good, []byte(`"kind":"CustomResourceDefinition"`), []byte(`"kind":"CustomResourceDefinition","kind":"Pod"`), 1),
		"NotAnObject":               []byte(`[1,2]`),
		"Empty":                     []byte(``),
		"MalformedStart":            []byte(`{"apiVersion":`),
		"YAML":                      []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: ys.example.com}\nspec: {group: example.com, scope: Cluster, names: {plural: ys, kind: Y}, versions: [{name: v1, served: true, storage: true}]}\n"),
		"SchemaNotAnObject":         bytes.Replace(good, []byte(`"openAPIV3Schema":{`), []byte(`"openAPIV3Schema":[{`), 1),
		"BadEscapeBesideRemembered": bytes.Replace(good, []byte(`"storedVersions":["`), []byte(`"storedVersions":["\q`), 1),
		"ControlBesideRemembered":   bytes.Replace(good, []byte(`"storedVersions":["`), []byte("\"storedVersions\":[\"\x02"), 1),
		"UnbalancedInRememberedSp":  with(good, bytes.Index(good, []byte(`"spec":{`))+len(`"spec":{`), `]`),
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) { c.check(t, body) })
	}
}

// FuzzDecodeTyped is TestDecodeTyped_SameAsCheckingFirst on mutated
// bodies.
func FuzzDecodeTyped(f *testing.F) {
	small := crdgen.CRD(5, crdgen.Options{Bytes: 4 << 10, Versions: 1, Seed: 9})
	f.Add(small)
	f.Add([]byte(strings.Replace(string(small), `"type":"object"`, `"type":"object\u0041"`, 1)))
	f.Add([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"versions":[{"schema":{"openAPIV3Schema":{"type":"x"}}}]}}`))
	c := newTypedDecodeCase(f)
	f.Fuzz(func(t *testing.T, body []byte) { c.check(t, body) })
}
