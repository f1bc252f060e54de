package cel_test

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions/cel"
	"github.com/crdlab/crdlab/apis/apiextensions/cel/library"
	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

// The expected messages below are what k8s.io/apiextensions-apiserver
// v0.37.2 answers for the same schema and objects.

func schema(t *testing.T, specJSON string) *structural.Structural {
	t.Helper()
	s, err := structural.FromJSON([]byte(`{"type":"object","properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},"spec":` + specJSON + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func object(t *testing.T, specJSON string) map[string]any {
	t.Helper()
	if specJSON == "" {
		return nil
	}
	m, err := unstructured.DecodeJSONObject([]byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":` + specJSON + `}`))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// validate runs the validator as the server does on create (old == "")
// or update, and returns the errors and warnings as sorted strings.
func validate(t *testing.T, s *structural.Structural, newJSON, oldJSON string) (errs, warnings []string) {
	t.Helper()
	v := cel.NewValidator(s, true, library.PerCallLimit)
	obj, old := object(t, newJSON), object(t, oldJSON)
	opts := cel.Options{Warn: func(m string) { warnings = append(warnings, m) }}
	var oldObj any
	if old != nil {
		oldObj = old
		opts.Correlation = cel.NewCorrelatedObject(obj, old, s)
	}
	list, _ := v.Validate(context.Background(), nil, obj, oldObj, library.RuntimeCELCostBudget, opts)
	for _, e := range list {
		errs = append(errs, e.Error())
	}
	sort.Strings(errs)
	sort.Strings(warnings)
	return errs, warnings
}

func rules(props string, rs ...string) string {
	return `{"type":"object","properties":` + props + `,"x-kubernetes-validations":[` + strings.Join(rs, ",") + `]}`
}

func TestValidator_Validate(t *testing.T) {
	for _, tc := range []struct {
		name     string
		spec     string
		new, old string
		want     []string
		warn     []string
	}{
		{
			name: "OK",
			spec: rules(`{"replicas":{"type":"integer"},"max":{"type":"integer"}}`, `{"rule":"self.replicas <= self.max"}`),
			new:  `{"replicas":1,"max":3}`,
		},
		{
			name: "ErrDefaultMessage",
			spec: rules(`{"replicas":{"type":"integer"},"max":{"type":"integer"}}`, `{"rule":"self.replicas <= self.max"}`),
			new:  `{"replicas":5,"max":3}`,
			want: []string{"spec: Invalid value: failed rule: self.replicas <= self.max"},
		},
		{
			name: "ErrMessageOnScalar",
			spec: `{"type":"object","properties":{"name":{"type":"string","x-kubernetes-validations":[{"rule":"self.startsWith('a')","message":"must start with a"}]}}}`,
			new:  `{"name":"bob"}`,
			want: []string{`spec.name: Invalid value: "bob": must start with a`},
		},
		{
			name: "ErrMessageExpression",
			spec: rules(`{"tags":{"type":"array","items":{"type":"string"}}}`, `{"rule":"self.tags.all(t, t.size() < 5)","messageExpression":"'bad tags: ' + self.tags.join(',')"}`),
			new:  `{"tags":["a","abcdefg"]}`,
			want: []string{"spec: Invalid value: bad tags: a,abcdefg"},
		},
		{
			name: "ErrReasonsAndFieldPath",
			spec: rules(`{"a":{"type":"integer"}}`,
				`{"rule":"self.a > 0","reason":"FieldValueForbidden","message":"no"}`,
				`{"rule":"self.a > 1","reason":"FieldValueRequired","message":"req"}`,
				`{"rule":"self.a > 2","reason":"FieldValueDuplicate"}`,
				`{"rule":"self.a > 3","fieldPath":".a"}`),
			new: `{"a":0}`,
			want: []string{
				"spec.a: Invalid value: failed rule: self.a > 3",
				"spec: Duplicate value",
				"spec: Forbidden: no",
				"spec: Required value: req",
			},
		},
		{
			name: "TransitionSkippedOnCreate",
			spec: rules(`{"name":{"type":"string"}}`, `{"rule":"self.name == oldSelf.name","message":"Value is immutable"}`),
			new:  `{"name":"b"}`,
		},
		{
			name: "ErrTransition",
			spec: rules(`{"name":{"type":"string"}}`, `{"rule":"self.name == oldSelf.name","message":"Value is immutable"}`),
			new:  `{"name":"b"}`, old: `{"name":"a"}`,
			want: []string{"spec: Invalid value: Value is immutable"},
		},
		{
			name: "OptionalOldSelfOnCreate",
			spec: rules(`{"a":{"type":"string"}}`, `{"rule":"oldSelf.hasValue() ? self.a == oldSelf.value().a : self.a == 'init'","optionalOldSelf":true,"message":"starts as init"}`),
			new:  `{"a":"x"}`,
			want: []string{"spec: Invalid value: starts as init"},
		},
		{
			name: "MapListTransitionByKey",
			spec: `{"type":"object","properties":{"m":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
				"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"v":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.v >= oldSelf.v","message":"v may not decrease"}]}}}}`,
			new: `{"m":[{"name":"y","v":0},{"name":"x","v":1}]}`, old: `{"m":[{"name":"x","v":2}]}`,
			want: []string{"spec.m[1]: Invalid value: v may not decrease"},
		},
		{
			name: "RatchetUnchangedField",
			spec: `{"type":"object","properties":{"a":{"type":"integer","x-kubernetes-validations":[{"rule":"self < 5"}]},"b":{"type":"integer"}}}`,
			new:  `{"a":7,"b":2}`, old: `{"a":7,"b":1}`,
			warn: []string{"spec.a: Invalid value: 7: failed rule: self < 5"},
		},
		{
			name: "ErrChangedFieldNotRatcheted",
			spec: `{"type":"object","properties":{"a":{"type":"integer","x-kubernetes-validations":[{"rule":"self < 5"}]},"b":{"type":"integer"}}}`,
			new:  `{"a":8,"b":1}`, old: `{"a":7,"b":1}`,
			want: []string{"spec.a: Invalid value: 8: failed rule: self < 5"},
		},
		{
			name: "ErrRuntime",
			spec: rules(`{"m":{"type":"object","additionalProperties":{"type":"string"}},"ios":{"x-kubernetes-int-or-string":true}}`,
				`{"rule":"self.m['missing'] == 'x'"}`, `{"rule":"self.ios + 1 > 0"}`),
			new: `{"m":{},"ios":"x"}`,
			want: []string{
				`spec: Invalid value: "object": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self.ios + 1 > 0`,
				`spec: Invalid value: "object": no such key: missing evaluating rule: self.m['missing'] == 'x'`,
			},
		},
		{
			name: "SetAndMapListEquality",
			spec: rules(`{"set":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
				"m":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"v":{"type":"integer"}}}}}`,
				`{"rule":"self.set == ['b','a']"}`, `{"rule":"self.m == oldSelf.m","message":"m changed"}`),
			new: `{"set":["a","b"],"m":[{"name":"x","v":1},{"name":"y","v":2}]}`,
			old: `{"set":["a","b"],"m":[{"name":"y","v":2},{"name":"x","v":1}]}`,
		},
		{
			name: "Libraries",
			spec: rules(`{"mem":{"type":"string"},"ip":{"type":"string"},"url":{"type":"string"},"v":{"type":"string"}}`,
				`{"rule":"quantity(self.mem).isLessThan(quantity('1Gi'))"}`, `{"rule":"cidr('10.0.0.0/8').containsIP(self.ip)"}`,
				`{"rule":"url(self.url).getScheme() == 'https'"}`, `{"rule":"semver(self.v).major() >= 1"}`,
				`{"rule":"!format.dns1123Label().validate(self.v).hasValue()"}`),
			new: `{"mem":"2Gi","ip":"192.168.0.1","url":"http://x","v":"1.2.3"}`,
			want: []string{
				"spec: Invalid value: failed rule: !format.dns1123Label().validate(self.v).hasValue()",
				"spec: Invalid value: failed rule: cidr('10.0.0.0/8').containsIP(self.ip)",
				"spec: Invalid value: failed rule: quantity(self.mem).isLessThan(quantity('1Gi'))",
				"spec: Invalid value: failed rule: url(self.url).getScheme() == 'https'",
			},
		},
		{
			name: "MetadataAndEmbedded",
			spec: `{"type":"object","properties":{"t":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,
				"x-kubernetes-validations":[{"rule":"self.kind == 'Pod'"},{"rule":"self.metadata.name.size() < 10"}]}}}`,
			new: `{"t":{"apiVersion":"v1","kind":"Svc","metadata":{"name":"abcdefghijkl"}}}`,
			want: []string{
				"spec.t: Invalid value: failed rule: self.kind == 'Pod'",
				"spec.t: Invalid value: failed rule: self.metadata.name.size() < 10",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs, warns := validate(t, schema(t, tc.spec), tc.new, tc.old)
			if strings.Join(errs, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("errors:\n got  %q\n want %q", errs, tc.want)
			}
			if strings.Join(warns, "\n") != strings.Join(tc.warn, "\n") {
				t.Errorf("warnings:\n got  %q\n want %q", warns, tc.warn)
			}
		})
	}
}

// TestValidator_budget: the runtime budget stops a runaway evaluation.
func TestValidator_budget(t *testing.T) {
	s := schema(t, `{"type":"object","properties":{"l":{"type":"array","items":{"type":"integer"}}},"x-kubernetes-validations":[{"rule":"self.l.all(x, self.l.all(y, self.l.all(z, x + y + z >= 0)))"}]}`)
	l := make([]int, 120)
	b, _ := json.Marshal(map[string]any{"l": l})
	errs, _ := validate(t, s, string(b), "")
	want := `spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.l.all(x, self.l.all(y, self.l.all(z, x + y + z >= 0)))`
	if len(errs) != 1 || errs[0] != want {
		t.Fatalf("got %q\nwant %q", errs, want)
	}
}

// TestNewValidator_compiledOnce: the validator holds programs, built when
// it is made; validating does not compile.
func TestNewValidator(t *testing.T) {
	if v := cel.NewValidator(schema(t, `{"type":"object"}`), true, library.PerCallLimit); v != nil {
		t.Errorf("a schema without rules has a validator")
	}
	v := cel.NewValidator(schema(t, rules(`{"a":{"type":"integer"}}`, `{"rule":"self.a > 0"}`)), true, library.PerCallLimit)
	if v == nil || v.Properties["spec"] == nil || v.Properties["spec"].Schema == nil {
		t.Fatalf("no validator for spec: %+v", v)
	}
}
