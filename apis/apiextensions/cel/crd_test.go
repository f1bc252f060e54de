package cel_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions/cel"
	"github.com/crdlab/crdlab/apis/validation/field"
)

const specPath = "spec.validation.openAPIV3Schema.properties[spec]"

func TestValidateSchemaRules(t *testing.T) {
	costHint := " (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
	for _, tc := range []struct {
		name string
		spec string
		opts cel.CRDOptions
		want []string
	}{
		{
			name: "OK",
			spec: rules(`{"a":{"type":"integer"},"l":{"type":"array","maxItems":10,"items":{"type":"string","maxLength":10}}}`,
				`{"rule":"self.a > 0","messageExpression":"'a is ' + (self.a < 0 ? 'negative' : 'zero')"}`, `{"rule":"self.l.all(x, x.size() < 5)"}`),
			opts: cel.CRDOptions{Compile: true},
		},
		{
			name: "ErrRuleFields",
			spec: rules(`{"a":{"type":"integer"}}`,
				`{"rule":"  "}`, `{"rule":"self.a > 0","message":"a\nb"}`, `{"rule":"self.a >\n 0"}`,
				`{"rule":"self.a > 0","reason":"Bogus"}`, `{"rule":"self.a > 0","fieldPath":".b"}`),
			opts: cel.CRDOptions{Compile: true},
			want: []string{
				specPath + `.x-kubernetes-validations[0].rule: Required value: rule is not specified`,
				specPath + `.x-kubernetes-validations[1].message: Invalid value: "a\nb": must not contain line breaks`,
				specPath + `.x-kubernetes-validations[2].message: Required value: message must be specified if rule contains line breaks`,
				specPath + `.x-kubernetes-validations[3].reason: Unsupported value: "Bogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
				specPath + `.x-kubernetes-validations[4].fieldPath: Invalid value: ".b": must be a valid path`,
			},
		},
		{
			name: "ErrCompile",
			spec: rules(`{"a":{"type":"integer"}}`, `{"rule":"self.a"}`, `{"rule":"self.a > 0","messageExpression":"self.a"}`, `{"rule":"self.a > 0","optionalOldSelf":true}`),
			opts: cel.CRDOptions{Compile: true},
			want: []string{
				specPath + `.x-kubernetes-validations[0].rule: Invalid value: {"Rule":"self.a","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: cel expression must evaluate to a bool`,
				specPath + `.x-kubernetes-validations[1].messageExpression: Invalid value: {"Rule":"self.a \u003e 0","Message":"","MessageExpression":"self.a","Reason":null,"FieldPath":"","OptionalOldSelf":null}: messageExpression must evaluate to a string`,
				specPath + `.x-kubernetes-validations[2].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
			},
		},
		{
			name: "ErrParse",
			spec: rules(`{"a":{"type":"integer"}}`, `{"rule":"self.a >"}`),
			opts: cel.CRDOptions{Compile: true},
			want: []string{specPath + `.x-kubernetes-validations[0].rule: Invalid value: {"Rule":"self.a \u003e","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:9: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
 | self.a >
 | ........^`},
		},
		{
			name: "NoCompileWhenSchemaInvalid",
			spec: rules(`{"a":{"type":"integer"}}`, `{"rule":"self.a"}`),
		},
		{
			name: "ErrIncludesIsStoredOnly",
			spec: rules(`{"a":{"type":"array","items":{"type":"integer"}}}`, `{"rule":"self.a.includes(1)"}`),
			opts: cel.CRDOptions{Compile: true},
			want: []string{specPath + `.x-kubernetes-validations[0].rule: Invalid value: {"Rule":"self.a.includes(1)","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:16: undeclared reference to 'includes' (in container '')
 | self.a.includes(1)
 | ...............^`},
		},
		{
			name: "IncludesKeptOnUpdate",
			spec: rules(`{"a":{"type":"array","items":{"type":"integer"}}}`, `{"rule":"self.a.includes(1)"}`),
			opts: cel.CRDOptions{Compile: true, Stored: cel.ExpressionSet{Rules: map[string]bool{"self.a.includes(1)": true}}},
		},
		{
			name: "ErrUncorrelatableOldSelf",
			spec: `{"type":"object","properties":{"l":{"type":"array","maxItems":10,"items":{"type":"object","properties":{"a":{"type":"string","maxLength":10}},"x-kubernetes-validations":[{"rule":"self.a == oldSelf.a"}]}}}}`,
			opts: cel.CRDOptions{Compile: true},
			want: []string{specPath + `.properties[l].items.x-kubernetes-validations[0].rule: Invalid value: "self.a == oldSelf.a": oldSelf cannot be used on the uncorrelatable portion of the schema within ` + specPath + `.properties[l]`},
		},
		{
			name: "ErrCost",
			spec: `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"}}},"x-kubernetes-validations":[{"rule":"self.l.all(x, self.l.all(y, x == y))"}]}`,
			opts: cel.CRDOptions{Compile: true},
			want: []string{
				specPath + `.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
				specPath + `.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x` + costHint,
				`spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x` + costHint,
			},
		},
		{
			name: "CostOKWithLimits",
			spec: `{"type":"object","properties":{"l":{"type":"array","maxItems":100,"items":{"type":"string","maxLength":64}}},"x-kubernetes-validations":[{"rule":"self.l.all(x, self.l.all(y, x == y || x != y))"}]}`,
			opts: cel.CRDOptions{Compile: true},
		},
		{
			name: "PerRuleCostSuppressedForUnchangedSchema",
			spec: `{"type":"object","properties":{"l":{"type":"array","maxItems":1000,"items":{"type":"string","maxLength":64}}},"x-kubernetes-validations":[{"rule":"self.l.all(x, self.l.all(y, x == y || x != y))"}]}`,
			opts: cel.CRDOptions{Compile: true, SuppressPerExpressionCost: true},
		},
		{
			name: "ErrPerRuleCost",
			spec: `{"type":"object","properties":{"l":{"type":"array","maxItems":1000,"items":{"type":"string","maxLength":64}}},"x-kubernetes-validations":[{"rule":"self.l.all(x, self.l.all(y, x == y || x != y))"}]}`,
			opts: cel.CRDOptions{Compile: true},
			want: []string{specPath + `.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 5.9x` + costHint},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := validateRules(t, tc.spec, tc.opts)
			if want := strings.Join(tc.want, "\n"); got != want {
				t.Errorf("got:\n  %s\nwant:\n  %s", strings.ReplaceAll(got, "\n", "\n  "), strings.ReplaceAll(want, "\n", "\n  "))
			}
			// The same with the parses remembered, twice: the second
			// time every expression is checked from its remembered parse.
			opts := tc.opts
			opts.Parses = &cel.Parses{}
			for i := range 2 {
				if again := validateRules(t, tc.spec, opts); again != got {
					t.Errorf("with Parses, run %d:\n  %s\nwithout:\n  %s", i, strings.ReplaceAll(again, "\n", "\n  "), strings.ReplaceAll(got, "\n", "\n  "))
				}
			}
		})
	}
}

// validateRules returns the errors of ValidateSchemaRules for the schema
// spec, one a line, sorted.
func validateRules(t *testing.T, spec string, opts cel.CRDOptions) string {
	t.Helper()
	var got []string
	for _, e := range cel.ValidateSchemaRules(schema(t, spec), field.NewPath("spec", "validation", "openAPIV3Schema"), opts) {
		got = append(got, e.Error())
	}
	sort.Strings(got)
	return strings.Join(got, "\n")
}

// TestParses_SameTextOtherTypes: one rule, parsed once, checked against
// two schemas in which it types differently (as in two versions of a
// CRD): each gets the answer a fresh compile gives.
func TestParses_SameTextOtherTypes(t *testing.T) {
	rule := `{"rule":"self.a > 0 && self.b.startsWith('x')","messageExpression":"'a is ' + string(self.a)"}`
	specs := []string{
		rules(`{"a":{"type":"integer"},"b":{"type":"string"}}`, rule),
		rules(`{"a":{"type":"string"},"b":{"type":"string"}}`, rule),
		rules(`{"a":{"type":"integer"},"b":{"type":"integer"}}`, rule),
		rules(`{"a":{"type":"integer"},"b":{"type":"string"}}`, rule),
	}
	parses := &cel.Parses{}
	for i, spec := range specs {
		want := validateRules(t, spec, cel.CRDOptions{Compile: true})
		if i > 0 && i < 3 && want == "" {
			t.Fatalf("schema %d: the rule should not compile against it", i)
		}
		if got := validateRules(t, spec, cel.CRDOptions{Compile: true, Parses: parses}); got != want {
			t.Errorf("schema %d, with Parses:\n  %s\nwant:\n  %s", i, got, want)
		}
	}
}

func TestValidFieldPath(t *testing.T) {
	s := schema(t, `{"type":"object","properties":{"a.b":{"type":"string"},"m":{"type":"object","additionalProperties":{"type":"object","properties":{"x":{"type":"string"}}}}}}`).Properties["spec"]
	for _, tc := range []struct{ in, want, err string }{
		{in: "['a.b']", want: "a.b"},
		{in: ".m['k'].x", want: "m[k].x"},
		{in: ".m.k.x", want: "m[k].x"},
		{in: ".nope", err: "does not refer to a valid field"},
		{in: "m", err: "expected [ or . but got: m"},
		{in: ".m[k]", err: "expected single quoted string but got k"},
		{in: "['a.b'", err: "unexpected end of JSON path"},
	} {
		p, _, err := cel.ValidFieldPath(tc.in, s)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: got %v, want %q", tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case p.String() != tc.want:
			t.Errorf("%q: got %s, want %s", tc.in, p, tc.want)
		}
	}
}

func TestEscape(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"name", "name", true},
		{"namespace", "__namespace__", true},
		{"x-y.z/w", "x__dash__y__dot__z__slash__w", true},
		{"a__b", "a__underscores__b", true},
		{"1abc", "", false},
		{"a b", "", false},
	} {
		got, ok := cel.Escape(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Escape(%q) = %q, %v", tc.in, got, ok)
		}
		if ok {
			if back, ok := cel.Unescape(got); !ok || back != tc.in {
				t.Errorf("Unescape(%q) = %q, %v", got, back, ok)
			}
		}
	}
}
