package field_test

import (
	"errors"
	"testing"

	"github.com/crdlab/crdlab/apis/validation/field"
)

func TestPath_String(t *testing.T) {
	for _, tc := range []struct {
		path *field.Path
		want string
	}{
		{field.NewPath("spec"), "spec"},
		{field.NewPath("spec", "names", "plural"), "spec.names.plural"},
		{field.NewPath("spec").Child("versions").Index(0).Child("name"), "spec.versions[0].name"},
		{field.NewPath("metadata").Child("labels").Key("app"), "metadata.labels[app]"},
		{field.NewPath("spec").Child("a", "b").Index(2).Index(3), "spec.a.b[2][3]"},
		{nil, "<nil>"},
	} {
		if got := tc.path.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
	root := field.NewPath("spec")
	_ = root.Child("a")
	if root.String() != "spec" {
		t.Errorf("Child modified its parent")
	}
}

func TestError_Error(t *testing.T) {
	p := field.NewPath("spec")
	for _, tc := range []struct {
		name string
		err  *field.Error
		want string
	}{
		{"Required", field.Required(p.Child("group"), ""), "spec.group: Required value"},
		{"RequiredDetail", field.Required(p.Child("group"), "must be set"), "spec.group: Required value: must be set"},
		{"Invalid", field.Invalid(p.Child("names", "plural"), "X", "detail"), `spec.names.plural: Invalid value: "X": detail`},
		{"InvalidInt", field.Invalid(p.Child("replicas"), int64(-1), "must be greater than or equal to 0"), "spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
		{"InvalidNil", field.Invalid(p, nil, "bad"), "spec: Invalid value: null: bad"},
		{"InvalidOmitted", field.Invalid(p, field.OmitValue, "bad"), "spec: Invalid value: bad"},
		{"InvalidList", field.Invalid(p, []string{"a"}, "bad"), `spec: Invalid value: ["a"]: bad`},
		{"InvalidPointer", field.Invalid(p, ptr(true), "bad"), "spec: Invalid value: true: bad"},
		{"NotSupported", field.NotSupported(p.Child("scope"), "x", []string{"a", "b"}), `spec.scope: Unsupported value: "x": supported values: "a", "b"`},
		{"Forbidden", field.Forbidden(p.Child("validation"), "no"), "spec.validation: Forbidden: no"},
		{"Duplicate", field.Duplicate(p.Child("x"), "y"), `spec.x: Duplicate value: "y"`},
		{"TooLong", field.TooLong(p.Child("x"), "yyyy", 3), "spec.x: Too long: may not be more than 3 bytes"},
		{"TooMany", field.TooMany(p.Child("x"), 9, 8), "spec.x: Too many: 9: must have at most 8 items"},
		{"TypeInvalid", field.TypeInvalid(p.Child("x"), "s", "must be integer"), `spec.x: Invalid value: "s": must be integer`},
		{"Internal", field.InternalError(p, errors.New("boom")), "spec: Internal error: boom"},
		{"NotFound", field.NotFound(p.Child("x"), "y"), `spec.x: Not found: "y"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestErrorList_ToAggregate(t *testing.T) {
	if (field.ErrorList{}).ToAggregate() != nil {
		t.Error("empty list should aggregate to nil")
	}
	a := field.Required(field.NewPath("a"), "")
	b := field.Required(field.NewPath("b"), "")
	one := field.ErrorList{a}.ToAggregate()
	if one.Error() != "a: Required value" {
		t.Errorf("one: %q", one)
	}
	two := field.ErrorList{a, b, a}.ToAggregate()
	if two.Error() != "[a: Required value, b: Required value]" {
		t.Errorf("two: %q", two)
	}
	var fe *field.Error
	if !errors.As(two, &fe) || fe.Field != "a" {
		t.Errorf("errors.As should find the first *field.Error")
	}
}

func ptr[T any](v T) *T { return &v }
