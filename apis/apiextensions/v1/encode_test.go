package v1

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/internal/crdgen"
)

// plainProps is JSONSchemaProps without MarshalJSON: what encoding/json
// writes for the struct itself, with the Or* types' own MarshalJSON (as
// JSONSchemaProps was written before it had its own).
type plainProps struct {
	ID                     string                        `json:"id,omitempty"`
	Schema                 JSONSchemaURL                 `json:"$schema,omitempty"`
	Ref                    *string                       `json:"$ref,omitempty"`
	Description            string                        `json:"description,omitempty"`
	Type                   string                        `json:"type,omitempty"`
	Format                 string                        `json:"format,omitempty"`
	Title                  string                        `json:"title,omitempty"`
	Default                *JSON                         `json:"default,omitempty"`
	Maximum                *float64                      `json:"maximum,omitempty"`
	ExclusiveMaximum       bool                          `json:"exclusiveMaximum,omitempty"`
	Minimum                *float64                      `json:"minimum,omitempty"`
	ExclusiveMinimum       bool                          `json:"exclusiveMinimum,omitempty"`
	MaxLength              *int64                        `json:"maxLength,omitempty"`
	MinLength              *int64                        `json:"minLength,omitempty"`
	Pattern                string                        `json:"pattern,omitempty"`
	MaxItems               *int64                        `json:"maxItems,omitempty"`
	MinItems               *int64                        `json:"minItems,omitempty"`
	UniqueItems            bool                          `json:"uniqueItems,omitempty"`
	MultipleOf             *float64                      `json:"multipleOf,omitempty"`
	Enum                   []JSON                        `json:"enum,omitempty"`
	MaxProperties          *int64                        `json:"maxProperties,omitempty"`
	MinProperties          *int64                        `json:"minProperties,omitempty"`
	Required               []string                      `json:"required,omitempty"`
	Items                  *plainOrArray                 `json:"items,omitempty"`
	AllOf                  []plainProps                  `json:"allOf,omitempty"`
	OneOf                  []plainProps                  `json:"oneOf,omitempty"`
	AnyOf                  []plainProps                  `json:"anyOf,omitempty"`
	Not                    *plainProps                   `json:"not,omitempty"`
	Properties             map[string]plainProps         `json:"properties,omitempty"`
	AdditionalProperties   *plainOrBool                  `json:"additionalProperties,omitempty"`
	PatternProperties      map[string]plainProps         `json:"patternProperties,omitempty"`
	Dependencies           map[string]plainOrStringArray `json:"dependencies,omitempty"`
	AdditionalItems        *plainOrBool                  `json:"additionalItems,omitempty"`
	Definitions            map[string]plainProps         `json:"definitions,omitempty"`
	ExternalDocs           *ExternalDocumentation        `json:"externalDocs,omitempty"`
	Example                *JSON                         `json:"example,omitempty"`
	Nullable               bool                          `json:"nullable,omitempty"`
	XPreserveUnknownFields *bool                         `json:"x-kubernetes-preserve-unknown-fields,omitempty"`
	XEmbeddedResource      bool                          `json:"x-kubernetes-embedded-resource,omitempty"`
	XIntOrString           bool                          `json:"x-kubernetes-int-or-string,omitempty"`
	XListMapKeys           []string                      `json:"x-kubernetes-list-map-keys,omitempty"`
	XListType              *string                       `json:"x-kubernetes-list-type,omitempty"`
	XMapType               *string                       `json:"x-kubernetes-map-type,omitempty"`
	XValidations           ValidationRules               `json:"x-kubernetes-validations,omitempty"`
}

type plainOrArray struct {
	Schema      *plainProps
	JSONSchemas []plainProps
}

func (s plainOrArray) MarshalJSON() ([]byte, error) {
	if len(s.JSONSchemas) > 0 {
		return json.Marshal(s.JSONSchemas)
	}
	return json.Marshal(s.Schema)
}

type plainOrBool struct {
	Allows bool
	Schema *plainProps
}

func (s plainOrBool) MarshalJSON() ([]byte, error) {
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	return json.Marshal(s.Allows)
}

type plainOrStringArray struct {
	Schema   *plainProps
	Property []string
}

func (s plainOrStringArray) MarshalJSON() ([]byte, error) {
	if len(s.Property) > 0 {
		return json.Marshal(s.Property)
	}
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	return []byte("null"), nil
}

// copyInto copies src into dst, of a type with the same shape (fields in
// the same order, kinds alike).
func copyInto(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		dst.Set(reflect.New(dst.Type().Elem()))
		copyInto(dst.Elem(), src.Elem())
	case reflect.Struct:
		for i := range src.NumField() {
			copyInto(dst.Field(i), src.Field(i))
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		dst.Set(reflect.MakeSlice(dst.Type(), src.Len(), src.Len()))
		for i := range src.Len() {
			copyInto(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		dst.Set(reflect.MakeMap(dst.Type()))
		for it := src.MapRange(); it.Next(); {
			v := reflect.New(dst.Type().Elem()).Elem()
			copyInto(v, it.Value())
			dst.SetMapIndex(it.Key().Convert(dst.Type().Key()), v)
		}
	default:
		dst.Set(src.Convert(dst.Type()))
	}
}

func toPlain(s *JSONSchemaProps) *plainProps {
	var p plainProps
	copyInto(reflect.ValueOf(&p).Elem(), reflect.ValueOf(s).Elem())
	return &p
}

// tricky are strings encoding/json escapes in every way it does.
var tricky = []string{"", "plain", `quote " and \ backslash`, "<tag> & amp", "tab\tnewline\n\x01\x7f",
	"ünïcode ✓", "line\u2028sep\u2029", "bad utf8 \xff\xfe", "\b\f\r"}

// randomSchema builds a schema using every field, depth levels deep.
func randomSchema(r *rand.Rand, depth int) *JSONSchemaProps {
	str := func() string { return tricky[r.IntN(len(tricky))] }
	maybe := func() bool { return r.IntN(3) == 0 }
	strp := func() *string {
		if maybe() {
			s := str()
			return &s
		}
		return nil
	}
	i64 := func() *int64 {
		if maybe() {
			v := r.Int64N(1000) - 10
			return &v
		}
		return nil
	}
	f64 := func() *float64 {
		if maybe() {
			v := []float64{0, -0.5, 1e21, 1e-7, 123.456, math.MaxFloat64, 3}[r.IntN(7)]
			return &v
		}
		return nil
	}
	raw := func() *JSON {
		if maybe() {
			return &JSON{Raw: []byte([]string{`"x"`, `{ "a" : [1, 2 ,"<&>"] }`, `null`, `12.50`, "\"\u2028\"", ``}[r.IntN(6)])}
		}
		return nil
	}
	bp := func() *bool {
		if maybe() {
			b := r.IntN(2) == 0
			return &b
		}
		return nil
	}
	strs := func() []string {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		return []string{str(), str()}
	}
	s := &JSONSchemaProps{
		ID: str(), Schema: JSONSchemaURL(str()), Ref: strp(), Description: str(), Type: str(), Format: str(), Title: str(),
		Default: raw(), Maximum: f64(), ExclusiveMaximum: maybe(), Minimum: f64(), ExclusiveMinimum: maybe(),
		MaxLength: i64(), MinLength: i64(), Pattern: str(), MaxItems: i64(), MinItems: i64(), UniqueItems: maybe(),
		MultipleOf: f64(), MaxProperties: i64(), MinProperties: i64(), Required: strs(), Example: raw(), Nullable: maybe(),
		XPreserveUnknownFields: bp(), XEmbeddedResource: maybe(), XIntOrString: maybe(), XListMapKeys: strs(),
		XListType: strp(), XMapType: strp(),
	}
	if maybe() {
		s.Enum = []JSON{{Raw: []byte(`"a"`)}, {}, {Raw: []byte(` [ "<b>" ] `)}}
	}
	if maybe() {
		s.ExternalDocs = &ExternalDocumentation{Description: str(), URL: str()}
	}
	if maybe() {
		reason := FieldValueErrorReason(str())
		s.XValidations = ValidationRules{{Rule: str()}, {Rule: "self.a > 0", Message: str(), MessageExpression: str(), Reason: &reason, FieldPath: str(), OptionalOldSelf: bp()}}
	}
	if depth == 0 {
		return s
	}
	sub := func() *JSONSchemaProps { return randomSchema(r, depth-1) }
	list := func() []JSONSchemaProps {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return []JSONSchemaProps{}
		}
		return []JSONSchemaProps{*sub(), *sub()}
	}
	smap := func() map[string]JSONSchemaProps {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return map[string]JSONSchemaProps{}
		}
		return map[string]JSONSchemaProps{str(): *sub(), "b": *sub(), "a<": *sub()}
	}
	orBool := func() *JSONSchemaPropsOrBool {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return &JSONSchemaPropsOrBool{Allows: maybe()}
		}
		return &JSONSchemaPropsOrBool{Allows: true, Schema: sub()}
	}
	switch r.IntN(4) {
	case 1:
		s.Items = &JSONSchemaPropsOrArray{Schema: sub()}
	case 2:
		s.Items = &JSONSchemaPropsOrArray{JSONSchemas: list()}
	case 3:
		s.Items = &JSONSchemaPropsOrArray{}
	}
	s.AllOf, s.OneOf, s.AnyOf = list(), list(), list()
	if maybe() {
		s.Not = sub()
	}
	s.Properties, s.PatternProperties, s.Definitions = smap(), smap(), smap()
	s.AdditionalProperties, s.AdditionalItems = orBool(), orBool()
	switch r.IntN(3) {
	case 1:
		s.Dependencies = JSONSchemaDependencies{}
	case 2:
		s.Dependencies = JSONSchemaDependencies{"a": {Property: []string{str()}}, "b": {Schema: sub()}, "c": {}, "d": {Property: []string{}}}
	}
	return s
}

// TestMarshalJSON_SameBytes checks that JSONSchemaProps.MarshalJSON
// writes what encoding/json writes for the plain struct, byte for byte,
// for random schemas using every field and for generated provider CRDs'
// schemas, as a value, a pointer and inside another struct.
func TestMarshalJSON_SameBytes(t *testing.T) {
	check := func(name string, s *JSONSchemaProps) {
		t.Helper()
		want, wantErr := json.Marshal(toPlain(s))
		for _, v := range []any{s, *s, struct{ S *JSONSchemaProps }{s}} {
			got, err := json.Marshal(v)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("%s: error %v, want %v", name, err, wantErr)
			}
			if err == nil && !bytes.Equal(bytes.TrimSuffix(bytes.TrimPrefix(got, []byte(`{"S":`)), []byte("}")), want) && !bytes.Equal(got, want) {
				t.Fatalf("%s: %T encodes to\n%s\nwant\n%s", name, v, got, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		check(fmt.Sprintf("random schema %d", i), randomSchema(r, 2))
	}
	for i := range 3 {
		var crd CustomResourceDefinition
		if err := json.Unmarshal(crdgen.CRD(i, crdgen.Options{Group: "g.example.io", Bytes: 60 << 10, Versions: 2, Seed: 1}), &crd); err != nil {
			t.Fatal(err)
		}
		for _, v := range crd.Spec.Versions {
			check(fmt.Sprintf("generated CRD %d %s", i, v.Name), v.Schema.OpenAPIV3Schema)
		}
	}
	nan := math.NaN()
	check("NaN maximum", &JSONSchemaProps{Maximum: &nan})
	check("invalid default", &JSONSchemaProps{Default: &JSON{Raw: []byte("{")}})
}

// TestMarshalJSON_OnePass checks that a schema nested deep through items,
// additionalProperties and dependencies is written in one buffer, not
// re-marshalled (and its output re-scanned) at each level: the
// allocations do not grow with the depth.
func TestMarshalJSON_OnePass(t *testing.T) {
	deep := func(n int) *JSONSchemaProps {
		s := &JSONSchemaProps{Type: "string"}
		for i := range n {
			switch i % 3 {
			case 0:
				s = &JSONSchemaProps{Type: "array", Items: &JSONSchemaPropsOrArray{Schema: s}}
			case 1:
				s = &JSONSchemaProps{Type: "object", AdditionalProperties: &JSONSchemaPropsOrBool{Allows: true, Schema: s}}
			default:
				s = &JSONSchemaProps{Type: "object", Dependencies: JSONSchemaDependencies{"a": {Schema: s}}}
			}
		}
		return s
	}
	allocs := func(s *JSONSchemaProps) float64 {
		return testing.AllocsPerRun(5, func() {
			if _, err := json.Marshal(s); err != nil {
				t.Fatal(err)
			}
		})
	}
	shallow, deeper := allocs(deep(30)), allocs(deep(300))
	if deeper > shallow+30 {
		t.Errorf("marshalling 300 levels took %.0f allocations, 30 levels %.0f: the cost grows with the depth", deeper, shallow)
	}
}

// TestAppendJSON_SameBytes checks that a CRD's AppendJSON appends what
// json.Marshal writes for it: generated provider CRDs, random schemas, a
// version without a schema, and a CRD whose description holds the
// placeholder AppendJSON uses.
func TestAppendJSON_SameBytes(t *testing.T) {
	check := func(name string, crd *CustomResourceDefinition) {
		t.Helper()
		want, err := json.Marshal(crd)
		if err != nil {
			t.Fatal(err)
		}
		got, err := crd.AppendJSON([]byte("prefix"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, append([]byte("prefix"), want...)) {
			t.Fatalf("%s: AppendJSON wrote\n%s\njson.Marshal writes\n%s", name, got, want)
		}
	}
	for i := range 3 {
		var crd CustomResourceDefinition
		if err := json.Unmarshal(crdgen.CRD(i, crdgen.Options{Group: "g.example.io", Bytes: 60 << 10, Versions: 3, Seed: 1}), &crd); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("generated CRD %d", i), &crd)
		crd.Spec.Versions[1].Schema = nil
		check(fmt.Sprintf("generated CRD %d, a version without a schema", i), &crd)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 100 {
		var crd CustomResourceDefinition
		if err := json.Unmarshal(crdWith(t, randomSchema(r, 2), randomSchema(r, 1)), &crd); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("random schemas %d", i), &crd)
	}
	var crd CustomResourceDefinition
	json.Unmarshal(crdWith(t, &JSONSchemaProps{Description: placeholderNonce + "0"}, &JSONSchemaProps{ID: placeholderNonce + "1"}), &crd) //nolint:errcheck
	check("the placeholder in the CRD", &crd)
	check("no versions", &CustomResourceDefinition{})
}
