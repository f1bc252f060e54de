package structural_test

import (
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	"github.com/crdlab/crdlab/apis/validation/field"
)

const dns1035Msg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"

func TestValidate_CronTab(t *testing.T) {
	s := mustSchema(t, cronTabSchema)
	const head = `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c"},`
	tests := []struct {
		name string
		spec string // the object's "spec" (and more) after head
		want []string
	}{
		{"OK", `"spec":{"cronSpec":"* * * * */5","image":"nginx","replicas":3,"ratio":1.5,"mode":"a","port":"http",
			"when":"2024-01-02T03:04:05Z","note":null,"tags":["a","b"],"ports":[{"name":"http","port":80},{"name":"https"}],
			"labels":{"a":"x"},"template":{"apiVersion":"v1","kind":"Pod","metadata":{},"spec":{}},"unknown":1},"status":{"x":1}}`, nil},
		{"OKIntOrStringInt", `"spec":{"cronSpec":"1 2 3 4 5","port":8080}}`, nil},
		{"OKWholeFloatIsInteger", `"spec":{"cronSpec":"1 2 3 4 5","replicas":2.0}}`, nil},
		{"OKUnicodeLength", `"spec":{"cronSpec":"1 2 3 4 5","image":"ééé"}}`, nil},
		{"ErrType", `"spec":{"cronSpec":"1 2 3 4 5","replicas":"3"}}`,
			[]string{`spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`}},
		{"ErrTypeNumber", `"spec":{"cronSpec":"1 2 3 4 5","replicas":2.5}}`,
			[]string{`spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"`}},
		{"ErrTypeObject", `"spec":"x"}`,
			[]string{`spec: Invalid value: "string": spec in body must be of type object: "string"`}},
		{"ErrRequired", `"spec":{}}`, []string{`spec.cronSpec: Required value`}},
		{"ErrMinimum", `"spec":{"cronSpec":"1 2 3 4 5","replicas":0}}`,
			[]string{`spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1`}},
		{"ErrMaximum", `"spec":{"cronSpec":"1 2 3 4 5","replicas":11}}`,
			[]string{`spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10`}},
		{"ErrExclusiveMinimum", `"spec":{"cronSpec":"1 2 3 4 5","ratio":0}}`,
			[]string{`spec.ratio: Invalid value: 0: spec.ratio in body should be greater than 0`}},
		{"ErrMultipleOf", `"spec":{"cronSpec":"1 2 3 4 5","ratio":0.7}}`,
			[]string{`spec.ratio: Invalid value: 0.7: spec.ratio in body should be a multiple of 0.5`}},
		{"ErrPattern", `"spec":{"cronSpec":"bad"}}`,
			[]string{`spec.cronSpec: Invalid value: "bad": spec.cronSpec in body should match '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'`}},
		{"ErrMinLength", `"spec":{"cronSpec":"1 2 3 4 5","image":"ab"}}`,
			[]string{`spec.image: Invalid value: "ab": spec.image in body should be at least 3 chars long`}},
		{"ErrMaxLength", `"spec":{"cronSpec":"1 2 3 4 5","image":"abcdefghijk"}}`,
			[]string{`spec.image: Too long: may not be more than 10 bytes`}},
		{"ErrEnum", `"spec":{"cronSpec":"1 2 3 4 5","mode":"c"}}`,
			[]string{`spec.mode: Unsupported value: "c": supported values: "a", "b"`}},
		{"ErrIntOrString", `"spec":{"cronSpec":"1 2 3 4 5","port":true}}`,
			[]string{`spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"`}},
		{"ErrFormat", `"spec":{"cronSpec":"1 2 3 4 5","when":"yesterday"}}`,
			[]string{`spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"`}},
		{"ErrNull", `"spec":{"cronSpec":"1 2 3 4 5","image":null}}`,
			[]string{`spec.image: Invalid value: "null": spec.image in body must be of type string: "null"`}},
		{"ErrMinItems", `"spec":{"cronSpec":"1 2 3 4 5","tags":[]}}`,
			[]string{`spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items`}},
		{"ErrMaxItems", `"spec":{"cronSpec":"1 2 3 4 5","tags":["a","b","c"]}}`,
			[]string{`spec.tags: Too many: 3: must have at most 2 items`}},
		{"ErrSetDuplicate", `"spec":{"cronSpec":"1 2 3 4 5","tags":["a","a"]}}`,
			[]string{`spec.tags[1]: Duplicate value: "a"`}},
		{"ErrItemType", `"spec":{"cronSpec":"1 2 3 4 5","tags":[1]}}`,
			[]string{`spec.tags[0]: Invalid value: "integer": spec.tags[0] in body must be of type string: "integer"`}},
		{"ErrMapDuplicate", `"spec":{"cronSpec":"1 2 3 4 5","ports":[{"name":"http","port":80},{"name":"http","port":81},{"name":"http"}]}}`,
			[]string{`spec.ports[1]: Duplicate value: {"name":"http"}`}},
		{"ErrMapItemRequired", `"spec":{"cronSpec":"1 2 3 4 5","ports":[{"port":80}]}}`,
			[]string{`spec.ports[0].name: Required value`}},
		{"ErrMapNotObject", `"spec":{"cronSpec":"1 2 3 4 5","ports":["x"]}}`,
			[]string{`spec.ports[0]: Invalid value: "string": spec.ports[0] in body must be of type object: "string"`,
				`spec.ports[0]: Invalid value: "x": must be an object for an array of list-type map`}},
		{"ErrAdditionalProperties", `"spec":{"cronSpec":"1 2 3 4 5","labels":{"a":"toolong","b":1}}}`,
			[]string{`spec.labels.a: Too long: may not be more than 3 bytes`,
				`spec.labels.b: Invalid value: "integer": spec.labels.b in body must be of type string: "integer"`}},
		{"ErrEmbeddedMissing", `"spec":{"cronSpec":"1 2 3 4 5","template":{}}}`,
			[]string{`spec.template.apiVersion: Required value`, `spec.template.kind: Required value`}},
		{"ErrEmbeddedInvalid", `"spec":{"cronSpec":"1 2 3 4 5","template":{"apiVersion":"a/b/c","kind":"Pod_x","metadata":"m"}}}`,
			[]string{`spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
				`spec.template.kind: Invalid value: "Pod_x": may have mixed case, but should otherwise match: ` + dns1035Msg,
				`spec.template.metadata: Invalid value: "m": json: cannot unmarshal string into Go value of type v1.ObjectMeta`}},
		{"ErrMany", `"spec":{"replicas":0,"mode":"c","image":"x"}}`,
			[]string{`spec.image: Invalid value: "x": spec.image in body should be at least 3 chars long`,
				`spec.mode: Unsupported value: "c": supported values: "a", "b"`,
				`spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1`,
				`spec.cronSpec: Required value`}},
		{"ErrInsidePreserveUnknown", `"spec":{"cronSpec":"1 2 3 4 5"},"status":{"conditions":[{"type":1}]}}`,
			[]string{`status.conditions[0].type: Invalid value: "integer": status.conditions[0].type in body must be of type string: "integer"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErrors(t, structural.Validate(s, mustObject(t, head+tt.spec)), tt.want)
		})
	}
}

func TestValidate_Junctors(t *testing.T) {
	tests := []struct {
		name, schema, obj string
		want              []string
	}{
		{"AnyOfOK", `{"type":"object","properties":{"x":{"type":"string","anyOf":[{"maxLength":2},{"pattern":"^a"}]}}}`, `{"x":"abc"}`, nil},
		{"ErrAnyOf", `{"type":"object","properties":{"x":{"type":"string","anyOf":[{"maxLength":2},{"pattern":"^a"}]}}}`, `{"x":"bcd"}`,
			[]string{`<nil>: Invalid value: "": "x" must validate at least one schema (anyOf)`, `x: Too long: may not be more than 2 bytes`}},
		{"OneOfOK", `{"type":"object","properties":{"x":{"type":"integer","oneOf":[{"minimum":5},{"maximum":0}]}}}`, `{"x":7}`, nil},
		{"ErrOneOfNone", `{"type":"object","properties":{"x":{"type":"integer","oneOf":[{"minimum":5},{"maximum":0}]}}}`, `{"x":3}`,
			[]string{`<nil>: Invalid value: "": "x" must validate one and only one schema (oneOf). Found none valid`,
				`x: Invalid value: 3: x in body should be greater than or equal to 5`}},
		{"ErrOneOfTwo", `{"type":"object","properties":{"x":{"type":"integer","oneOf":[{"minimum":5},{"minimum":6}]}}}`, `{"x":7}`,
			[]string{`<nil>: Invalid value: "": "x" must validate one and only one schema (oneOf). Found 2 valid alternatives`}},
		{"ErrAllOf", `{"type":"object","properties":{"x":{"type":"integer","allOf":[{"minimum":5},{"maximum":6}]}}}`, `{"x":7}`,
			[]string{`x: Invalid value: 7: x in body should be less than or equal to 6`, `<nil>: Invalid value: "": "x" must validate all the schemas (allOf)`}},
		{"ErrNot", `{"type":"object","properties":{"x":{"type":"string","not":{"enum":["bad"]}}}}`, `{"x":"bad"}`,
			[]string{`<nil>: Invalid value: "": "x" must not validate the schema (not)`}},
		{"JunctorProperties", `{"type":"object","properties":{"s":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"oneOf":[{"required":["a"]},{"required":["b"]}]}}}`,
			`{"s":{"a":"1","b":"2"}}`, []string{`<nil>: Invalid value: "": "s" must validate one and only one schema (oneOf). Found 2 valid alternatives`}},
		{"ErrFormatNamesGoFormat", `{"type":"object","properties":{"r":{"type":"string","format":"byte"},"t":{"type":"string","format":"date-time"}}}`, `{"r":5,"t":1.5}`,
			[]string{`r: Invalid value: "int64": r in body must be of type byte: "int64"`, `t: Invalid value: "float64": t in body must be of type date-time: "float64"`}},
		{"DurationAsStrfmt", `{"type":"object","properties":{"a":{"type":"string","format":"duration"},"b":{"type":"string","format":"duration"},"c":{"type":"string","format":"duration"}}}`,
			`{"a":"1m-changed","b":"2 hours","c":"1.5h"}`, nil},
		{"ErrDuration", `{"type":"object","properties":{"a":{"type":"string","format":"duration"},"b":{"type":"string","format":"duration"}}}`, `{"a":"soon","b":"5 parsecs"}`,
			[]string{`a: Invalid value: "soon": a in body must be of type duration: "soon"`, `b: Invalid value: "5 parsecs": b in body must be of type duration: "5 parsecs"`}},
		{"FormatLetsAnArrayThrough", `{"type":"object","properties":{"t":{"type":"string","format":"date-time"}}}`, `{"t":["not a time"]}`, nil},
		{"ErrAnyOfTieReportsTheFirst", `{"type":"object","properties":{"w":{"type":"object","properties":{"start":{"type":"integer"},"end":{"type":"integer"},"duration":{"type":"string"}},
		  "anyOf":[{"required":["start","end"]},{"required":["duration"]}]}}}`, `{"w":{}}`,
			[]string{`<nil>: Invalid value: "": "w" must validate at least one schema (anyOf)`, `w.start: Required value`, `w.end: Required value`}},
		{"ErrAnyOfMostChecksWins", `{"type":"object","properties":{"w":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"string"}},
		  "anyOf":[{"required":["a"]},{"required":["c"],"properties":{"b":{"minimum":5}}}]}}}`, `{"w":{"b":1}}`,
			[]string{`<nil>: Invalid value: "": "w" must validate at least one schema (anyOf)`, `w.b: Invalid value: 1: w.b in body should be greater than or equal to 5`, `w.c: Required value`}},
		{"ErrOneOfTieReportsTheFirst", `{"type":"object","properties":{"t":{"type":"object","properties":{"d":{"type":"string"},"s":{"type":"string"}},
		  "oneOf":[{"required":["d"]},{"required":["s"]}]}}}`, `{"t":{}}`,
			[]string{`<nil>: Invalid value: "": "t" must validate one and only one schema (oneOf). Found none valid`, `t.d: Required value`}},
		{"IntOrStringPattern", `{"type":"object","properties":{"p":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}`, `{"p":"80%"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErrors(t, structural.Validate(mustSchema(t, tt.schema), mustObject(t, tt.obj)), tt.want)
		})
	}
}

func TestValidate_Objects(t *testing.T) {
	tests := []struct {
		name, schema, obj string
		want              []string
	}{
		{"ErrAdditionalPropertiesFalse", `{"type":"object","properties":{"s":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}}`,
			`{"s":{"a":"x","b":1}}`, []string{`s: Invalid value: "b": s.b in body is a forbidden property`}},
		{"ErrMinProperties", `{"type":"object","properties":{"s":{"type":"object","minProperties":2,"additionalProperties":{"type":"string"}}}}`,
			`{"s":{"a":1}}`, []string{`s: Invalid value: 1: s in body should have at least 2 properties`, `s.a: Invalid value: "integer": s.a in body must be of type string: "integer"`}},
		// As kube-openapi's objectValidator (and upstream's answer to Gateway
		// API's infrastructure labels): too many properties, and each checked.
		{"ErrMaxPropertiesChecksTheRest", `{"type":"object","properties":{"s":{"type":"object","maxProperties":1,"additionalProperties":{"type":"string","maxLength":1}}}}`,
			`{"s":{"a":"xx","b":2}}`, []string{`s: Too many: 2: must have at most 1 item`, `s.a: Too long: may not be more than 1 byte`, `s.b: Invalid value: "integer": s.b in body must be of type string: "integer"`}},
		{"ErrRootRequired", `{"type":"object","required":["spec"],"properties":{"spec":{"type":"object"}}}`,
			`{"kind":"X"}`, []string{`spec: Required value`}},
		{"ErrMultipleOfInteger", `{"type":"object","properties":{"n":{"type":"integer","multipleOf":3}}}`, `{"n":10}`,
			[]string{`n: Invalid value: 10: n in body should be a multiple of 3`}},
		{"ExclusiveMaximum", `{"type":"object","properties":{"n":{"type":"number","maximum":1.5,"exclusiveMaximum":true}}}`, `{"n":1.5}`,
			[]string{`n: Invalid value: 1.5: n in body should be less than 1.5`}},
		{"NullableEnumNull", `{"type":"object","properties":{"e":{"type":"string","nullable":true,"enum":["a"]}}}`, `{"e":null}`,
			[]string{`e: Unsupported value: null: supported values: "a"`}},
		{"EnumNumbersByValue", `{"type":"object","properties":{"e":{"type":"number","enum":[1,2.5]}}}`, `{"e":1.0}`, nil},
		{"EnumNonStringValues", `{"type":"object","properties":{"e":{"enum":[1,{"a":1}],"x-kubernetes-preserve-unknown-fields":true}}}`, `{"e":2}`,
			[]string{`e: Unsupported value: 2: supported values: "1", "{\"a\":1}"`}},
		{"BadPatternReported", `{"type":"object","properties":{"p":{"type":"string","pattern":"("}}}`, `{"p":"x"}`,
			[]string{"p: Invalid value: \"x\": p in body should match '(, but pattern is invalid: error parsing regexp: missing closing ): `(`'"}},
		{"Formats", `{"type":"object","properties":{
			"a":{"type":"string","format":"date"},"b":{"type":"string","format":"byte"},"c":{"type":"string","format":"uuid"},
			"d":{"type":"string","format":"ipv4"},"e":{"type":"string","format":"email"},"f":{"type":"string","format":"unknown-format"}}}`,
			`{"a":"2024-02-30","b":"!!","c":"123e4567-e89b-12d3-a456-426614174000","d":"1.2.3","e":"a@b.c","f":"anything"}`,
			[]string{`a: Invalid value: "2024-02-30": a in body must be of type date: "2024-02-30"`,
				`b: Invalid value: "!!": b in body must be of type byte: "!!"`,
				`d: Invalid value: "1.2.3": d in body must be of type ipv4: "1.2.3"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErrors(t, structural.Validate(mustSchema(t, tt.schema), mustObject(t, tt.obj)), tt.want)
		})
	}
}

func TestValidateValue(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"a":{"type":"integer"}}}`)
	checkErrors(t, structural.ValidateValue(s, field.NewPath("spec", "x"), map[string]any{"a": "s"}),
		[]string{`spec.x.a: Invalid value: "string": a in body must be of type integer: "string"`})
	checkErrors(t, structural.ValidateValue(s, field.NewPath("spec", "x"), "s"),
		[]string{`spec.x: Invalid value: "string":  in body must be of type object: "string"`})
	checkErrors(t, structural.ValidateValue(s, nil, map[string]any{"a": int64(1)}), nil)
	if errs := structural.Validate(nil, map[string]any{"a": 1}); errs != nil {
		t.Errorf("Validate(nil) = %v", errs)
	}
}

func TestValidate_GoNumberTypes(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"i":{"type":"integer","minimum":1},"f":{"type":"number","maximum":1}}}`)
	checkErrors(t, structural.Validate(s, map[string]any{"i": 0, "f": float32(2)}), []string{
		`f: Invalid value: 2: f in body should be less than or equal to 1`,
		`i: Invalid value: 0: i in body should be greater than or equal to 1`,
	})
}

// TestValidateListSetsAndMaps: uniqueness of list-type set and map lists,
// as upstream's listtype package reports it (issue 18): each duplicate
// once, at its second appearance, as "Duplicate value"; a map list's
// duplicate shows its key ({} when the key is missing); scalars compare as
// Go values, so 1 and 1.0 differ; objects by their JSON.
func TestValidateListSetsAndMaps(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{
		"set":{"type":"array","x-kubernetes-list-type":"set","items":{"x-kubernetes-preserve-unknown-fields":true}},
		"one":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","properties":{"name":{"type":"string"},"v":{"type":"integer"}}}},
		"two":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a","b"],"items":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}},
		"m":{"type":"object","additionalProperties":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}}`)
	obj := mustObject(t, `{
		"set":["a","a","a",1,1.0,{"x":1},{"x":1},[1],[1],null,null],
		"one":[{"name":"x","v":1},{"name":"x","v":2},{"v":3},{"v":4}],
		"two":[{"a":"p","b":1},{"a":"p","b":2},{"b":1,"a":"p"}],
		"m":{"k":["z","z"]}}`)
	checkErrors(t, structural.ValidateListSetsAndMaps(nil, s, obj), []string{
		`m[k][1]: Duplicate value: "z"`,
		`one[1]: Duplicate value: {"name":"x"}`,
		`one[3]: Duplicate value: {}`,
		`set[1]: Duplicate value: "a"`,
		`set[6]: Duplicate value: {"x":1}`,
		`set[8]: Duplicate value: [1]`,
		`set[10]: Duplicate value: null`,
		`two[2]: Duplicate value: {"a":"p","b":1}`,
	})
}

// TestValidate_HandBuilt: a Structural not read by FromJSON (its walk
// flags unset) is still walked for embedded resources and list types.
func TestValidate_HandBuilt(t *testing.T) {
	set := "set"
	s := &structural.Structural{Type: "object", Properties: map[string]*structural.Structural{
		"e": {Type: "object", XEmbeddedResource: true, XPreserveUnknownFields: true},
		"l": {Type: "array", XListType: &set, Items: &structural.Structural{Type: "string"}},
	}}
	checkErrors(t, structural.Validate(s, map[string]any{"e": map[string]any{"kind": "K"}, "l": []any{"a", "a"}}),
		[]string{"e.apiVersion: Required value", `l[1]: Duplicate value: "a"`})
}
