package labels_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/machinery/labels"
	"github.com/crdlab/crdlab/storage"
)

// The selectors must satisfy the store's contract.
var (
	_ storage.LabelSelector = labels.Everything()
	_ storage.LabelSelector = labels.Nothing()
	_ storage.LabelSelector = labels.SelectorFromSet(nil)
)

func mustParse(t *testing.T, s string) labels.Selector {
	t.Helper()
	sel, err := labels.Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return sel
}

func TestParse_OK(t *testing.T) {
	tests := []struct {
		in   string
		want string // canonical String()
	}{
		{"", ""},
		{"   ", ""},
		{"x", "x"},
		{"!x", "!x"},
		{"x=a", "x=a"},
		{"x==a", "x==a"},
		{"x!=a", "x!=a"},
		{"x=a,y=b,z=c", "x=a,y=b,z=c"},
		{"z=c,x=a,y=b", "x=a,y=b,z=c"},
		{"x= a , y = b", "x=a,y=b"},
		{"x=", "x="},
		{"x=,z= ", "x=,z="},
		{"x>1", "x>1"},
		{"x<5", "x<5"},
		{"x>1,z<5", "x>1,z<5"},
		{"x in (a)", "x in (a)"},
		{"x in (b,a)", "x in (a,b)"},
		{"x in (a,a,b)", "x in (a,b)"},
		{"x in ( a , b )", "x in (a,b)"},
		{"x in ()", "x in ()"},
		{"x in (,a)", "x in (,a)"},
		{"x in (a,)", "x in (,a)"},
		{"x in (a,,b)", "x in (,a,b)"},
		{"x notin (a,b)", "x notin (a,b)"},
		{"x in (in,notin)", "x in (in,notin)"},
		{"in in (in)", "in in (in)"},
		{"x=in", "x=in"},
		{"environment in (production, qa),tier notin (frontend,backend),!canary",
			"!canary,environment in (production,qa),tier notin (backend,frontend)"},
		{"example.com/app=web", "example.com/app=web"},
		{"app.kubernetes.io/name=my-app_1.0", "app.kubernetes.io/name=my-app_1.0"},
		{"\tx\n=\ra", "x=a"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			sel := mustParse(t, tt.in)
			if got := sel.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if got, want := sel.Empty(), tt.want == ""; got != want {
				t.Errorf("Empty() = %v, want %v", got, want)
			}
			again := mustParse(t, sel.String())
			if again.String() != sel.String() {
				t.Errorf("round trip: %q became %q", sel.String(), again.String())
			}
		})
	}
}

const (
	valueRegexMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
	nameRegexMsg  = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
)

func TestParse_Errors(t *testing.T) {
	tests := []struct {
		in      string
		wantMsg string
	}{
		{"x=a||y=b", `unable to parse requirement: values[0][x]: Invalid value: "a||y": ` + valueRegexMsg},
		{"x==a==b", "found '==', expected: ',' or 'end of string'"},
		{"!x=a", "found '=', expected: ',' or 'end of string'"},
		{"x in", "unable to parse requirement: found '' expected: '('"},
		{"x in a", "unable to parse requirement: found 'a' expected: '('"},
		{"x in (", "unable to parse requirement: found '', expected: ',', ')' or identifier"},
		{"x in (a", "unable to parse requirement: found '', expected: ',' or ')'"},
		{"x in (a b)", "unable to parse requirement: found 'b', expected: ',' or ')'"},
		{"x in (a,,)", "unable to parse requirement: found ')', expected: ',', or identifier"},
		{"x in (=)", "unable to parse requirement: found '=', expected: ',', ')' or identifier"},
		{"x y", "unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt"},
		{"x=(", "unable to parse requirement: found '(', expected: identifier"},
		{",x", "found ',', expected: !, identifier, or 'end of string'"},
		{"x,", "found '', expected: identifier after ','"},
		{"x,,y", "found ',', expected: identifier after ','"},
		{"!", "unable to parse requirement: found '', expected: identifier"},
		{"!!x", "unable to parse requirement: found '!', expected: identifier"},
		{"x>a", `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"x<", `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"-x", `unable to parse requirement: <nil>: Invalid value: "-x": ` + nameRegexMsg},
		{"a/b/c", `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`},
		{"/x", `unable to parse requirement: <nil>: Invalid value: "/x": prefix part must be non-empty`},
		{"Example.com/x", `unable to parse requirement: <nil>: Invalid value: "Example.com/x": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"x/", `unable to parse requirement: <nil>: Invalid value: "x/": name part must be non-empty; ` + nameRegexMsg},
		{strings.Repeat("k", 64), `unable to parse requirement: <nil>: Invalid value: "` + strings.Repeat("k", 64) + `": name part must be no more than 63 characters`},
		{"x=" + strings.Repeat("v", 64), `unable to parse requirement: values[0][x]: Invalid value: "` + strings.Repeat("v", 64) + `": must be no more than 63 characters`},
		{"x in (-a,b-)", `unable to parse requirement: [values[0][x]: Invalid value: "-a": ` + valueRegexMsg + `, values[1][x]: Invalid value: "b-": ` + valueRegexMsg + `]`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			sel, err := labels.Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %q, want an error", tt.in, sel)
			}
			if err.Error() != tt.wantMsg {
				t.Errorf("error\n got: %s\nwant: %s", err, tt.wantMsg)
			}
			if !errors.Is(err, labels.ErrInvalidSelector) {
				t.Errorf("errors.Is(err, ErrInvalidSelector) = false")
			}
			var le *labels.Error
			if !errors.As(err, &le) {
				t.Errorf("error is %T, want *labels.Error", err)
			}
		})
	}
}

func TestSelector_Matches(t *testing.T) {
	tests := []struct {
		sel    string
		labels map[string]string
		want   bool
	}{
		{"", nil, true},
		{"", map[string]string{"x": "y"}, true},
		{"x=y", map[string]string{"x": "y"}, true},
		{"x=y", map[string]string{"x": "z"}, false},
		{"x=y", nil, false},
		{"x==y", map[string]string{"x": "y"}, true},
		{"x=", map[string]string{"x": ""}, true},
		{"x=", nil, false},
		{"x!=y", map[string]string{"x": "z"}, true},
		{"x!=y", map[string]string{"x": "y"}, false},
		{"x!=y", nil, true},
		{"x", map[string]string{"x": ""}, true},
		{"x", map[string]string{"y": "x"}, false},
		{"!x", map[string]string{"y": "x"}, true},
		{"!x", map[string]string{"x": ""}, false},
		{"x in (a,b)", map[string]string{"x": "b"}, true},
		{"x in (a,b)", map[string]string{"x": "c"}, false},
		{"x in (a,b)", nil, false},
		{"x in ()", map[string]string{"x": ""}, true},
		{"x notin (a,b)", map[string]string{"x": "c"}, true},
		{"x notin (a,b)", map[string]string{"x": "a"}, false},
		{"x notin (a,b)", nil, true},
		{"x>1", map[string]string{"x": "2"}, true},
		{"x>1", map[string]string{"x": "1"}, false},
		{"x>1", map[string]string{"x": "a"}, false},
		{"x>1", nil, false},
		{"x<1", map[string]string{"x": "-3"}, true},
		{"x<1", map[string]string{"x": "1"}, false},
		{"x=a,y=b", map[string]string{"x": "a", "y": "b", "z": "c"}, true},
		{"x=a,y=b", map[string]string{"x": "a"}, false},
		{"x=a,!y", map[string]string{"x": "a"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.sel, func(t *testing.T) {
			if got := mustParse(t, tt.sel).Matches(tt.labels); got != tt.want {
				t.Errorf("Parse(%q).Matches(%v) = %v, want %v", tt.sel, tt.labels, got, tt.want)
			}
		})
	}
}

func TestSelector_RequiresExactMatch(t *testing.T) {
	tests := []struct {
		sel, label string
		want       string
		found      bool
	}{
		{"", "x", "", false},
		{"x=a", "x", "a", true},
		{"x==a", "x", "a", true},
		{"x in (a)", "x", "a", true},
		{"x in (a,b)", "x", "", false},
		{"x!=a", "x", "", false},
		{"x", "x", "", false},
		{"y=b,x=a", "x", "a", true},
		{"y=b", "x", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.sel+"/"+tt.label, func(t *testing.T) {
			got, found := mustParse(t, tt.sel).RequiresExactMatch(tt.label)
			if got != tt.want || found != tt.found {
				t.Errorf("RequiresExactMatch(%q) = %q, %v; want %q, %v", tt.label, got, found, tt.want, tt.found)
			}
		})
	}
}

func TestEverythingNothing(t *testing.T) {
	t.Run("Everything", func(t *testing.T) {
		s := labels.Everything()
		if !s.Empty() || !s.Matches(nil) || s.String() != "" {
			t.Errorf("Everything() = %#v: Empty %v, Matches %v, String %q", s, s.Empty(), s.Matches(nil), s.String())
		}
		if _, ok := s.Requirements(); !ok {
			t.Error("Everything().Requirements() not selectable")
		}
	})
	t.Run("Nothing", func(t *testing.T) {
		s := labels.Nothing()
		if s.Empty() || s.Matches(nil) || s.Matches(map[string]string{"a": "b"}) {
			t.Errorf("Nothing() selects something")
		}
		if _, ok := s.Requirements(); ok {
			t.Error("Nothing().Requirements() selectable")
		}
	})
}

func TestSelectorFromSet(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := labels.SelectorFromSet(map[string]string{"b": "2", "a": "1"})
		if got := s.String(); got != "a=1,b=2" {
			t.Errorf("String() = %q", got)
		}
		if !s.Matches(map[string]string{"a": "1", "b": "2", "c": "3"}) || s.Matches(map[string]string{"a": "1"}) {
			t.Error("Matches wrong")
		}
		if v, ok := s.RequiresExactMatch("b"); !ok || v != "2" {
			t.Errorf("RequiresExactMatch(b) = %q, %v", v, ok)
		}
	})
	t.Run("Empty", func(t *testing.T) {
		for _, set := range []map[string]string{nil, {}} {
			if s := labels.SelectorFromSet(set); !s.Empty() {
				t.Errorf("SelectorFromSet(%v) not empty", set)
			}
		}
	})
	t.Run("SetString", func(t *testing.T) {
		if got := (labels.Set{"z": "1", "a": ""}).String(); got != "a=,z=1" {
			t.Errorf("Set.String() = %q", got)
		}
	})
	t.Run("Validated", func(t *testing.T) {
		if _, err := labels.ValidatedSelectorFromSet(map[string]string{"a": "ok", "b": "not ok"}); err == nil ||
			!strings.HasPrefix(err.Error(), `values[0][b]: Invalid value: "not ok": `) {
			t.Errorf("err = %v", err)
		}
		s, err := labels.ValidatedSelectorFromSet(map[string]string{"a": "ok"})
		if err != nil || s.String() != "a=ok" {
			t.Errorf("= %v, %v", s, err)
		}
	})
}

func TestNewRequirement(t *testing.T) {
	tests := []struct {
		name    string
		key     string
		op      labels.Operator
		vals    []string
		wantErr string
	}{
		{"OK/In", "x", labels.In, []string{"a", "b"}, ""},
		{"OK/Exists", "x", labels.Exists, nil, ""},
		{"ErrInEmpty", "x", labels.In, nil, `values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`},
		{"ErrEqualsTwo", "x", labels.Equals, []string{"a", "b"}, `values: Invalid value: ["a","b"]: exact-match compatibility requires one single value`},
		{"ErrExistsValues", "x", labels.Exists, []string{"a"}, `values: Invalid value: ["a"]: values set must be empty for exists and does not exist`},
		{"ErrGtTwo", "x", labels.GreaterThan, []string{"1", "2"}, `values: Invalid value: ["1","2"]: for 'Gt', 'Lt' operators, exactly one value is required`},
		{"ErrOperator", "x", labels.Operator("~"), nil, `operator: Unsupported value: "~": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"`},
		{"ErrKey", "-", labels.Exists, nil, `key: Invalid value: "-": ` + nameRegexMsg},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := labels.NewRequirement(tt.key, tt.op, tt.vals)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				if r.Key() != tt.key || r.Operator() != tt.op || len(r.Values()) != len(tt.vals) {
					t.Errorf("got %v", r)
				}
				return
			}
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("err\n got: %v\nwant: %s", err, tt.wantErr)
			}
		})
	}
	t.Run("NewSelector", func(t *testing.T) {
		b, _ := labels.NewRequirement("b", labels.NotIn, []string{"y", "x"})
		a, _ := labels.NewRequirement("a", labels.DoesNotExist, nil)
		if got := labels.NewSelector(*b, *a).String(); got != "!a,b notin (x,y)" {
			t.Errorf("String() = %q", got)
		}
	})
}
