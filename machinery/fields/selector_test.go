package fields_test

import (
	"errors"
	"testing"

	"github.com/crdlab/crdlab/machinery/fields"
	"github.com/crdlab/crdlab/storage"
)

// The selectors must satisfy the store's contract.
var (
	_ storage.FieldSelector = fields.Everything()
	_ storage.FieldSelector = fields.Nothing()
	_ storage.FieldSelector = fields.OneTermEqualSelector("a", "b")
	_ storage.FieldSelector = fields.SelectorFromSet(nil)
)

func mustParse(t *testing.T, s string) fields.Selector {
	t.Helper()
	sel, err := fields.ParseSelector(s)
	if err != nil {
		t.Fatalf("ParseSelector(%q): %v", s, err)
	}
	return sel
}

func TestParseSelector_OK(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{",", ""},
		{"metadata.name=web", "metadata.name=web"},
		{"metadata.name==web", "metadata.name=web"},
		{"status.phase!=Running", "status.phase!=Running"},
		{"b=2,a=1", "a=1,b=2"},
		{"metadata.namespace=ns,metadata.name=web", "metadata.name=web,metadata.namespace=ns"},
		{"x=", "x="},
		{"x!=", "x!="},
		{`x=a\,b`, `x=a\,b`},
		{`x=a\=b`, `x=a\=b`},
		{`x=a\\b`, `x=a\\b`},
		{"x=a b", "x=a b"},
		{"=a", "=a"},
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
			if again := mustParse(t, sel.String()); again.String() != sel.String() {
				t.Errorf("round trip: %q became %q", sel.String(), again.String())
			}
		})
	}
}

func TestParseSelector_Errors(t *testing.T) {
	tests := []struct {
		in, wantMsg string
	}{
		{"a", "invalid selector: 'a'; can't understand 'a'"},
		{"x=1,a", "invalid selector: 'x=1,a'; can't understand 'a'"},
		{"x=a=b", "invalid field selector: unescaped character in value: ="},
		{`x=a\,b,c`, "invalid selector: 'x=a\\,b,c'; can't understand 'c'"},
		{`x=a\b`, `invalid field selector: invalid escape sequence: \b`},
		{`x=a\`, `invalid field selector: invalid escape sequence: \`},
		{"x!==a", "invalid field selector: unescaped character in value: ="},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			sel, err := fields.ParseSelector(tt.in)
			if err == nil {
				t.Fatalf("ParseSelector(%q) = %q, want an error", tt.in, sel)
			}
			if err.Error() != tt.wantMsg {
				t.Errorf("error\n got: %s\nwant: %s", err, tt.wantMsg)
			}
			if !errors.Is(err, fields.ErrInvalidSelector) {
				t.Error("errors.Is(err, ErrInvalidSelector) = false")
			}
		})
	}
}

func TestSelector_Matches(t *testing.T) {
	obj := map[string]string{"metadata.name": "web", "metadata.namespace": "default", "spec.x": "a,b"}
	tests := []struct {
		sel  string
		want bool
	}{
		{"", true},
		{"metadata.name=web", true},
		{"metadata.name==web", true},
		{"metadata.name=db", false},
		{"metadata.name!=db", true},
		{"metadata.name!=web", false},
		{"metadata.name=web,metadata.namespace=default", true},
		{"metadata.name=web,metadata.namespace=kube-system", false},
		{"missing=", true},
		{"missing!=", false},
		{"missing=x", false},
		{`spec.x=a\,b`, true},
	}
	for _, tt := range tests {
		t.Run(tt.sel, func(t *testing.T) {
			if got := mustParse(t, tt.sel).Matches(obj); got != tt.want {
				t.Errorf("Matches = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSelector_RequiresExactMatch(t *testing.T) {
	tests := []struct {
		sel, field, want string
		found            bool
	}{
		{"", "metadata.name", "", false},
		{"metadata.name=web", "metadata.name", "web", true},
		{"metadata.name==web", "metadata.name", "web", true},
		{"metadata.name!=web", "metadata.name", "", false},
		{"metadata.namespace=ns,metadata.name=web", "metadata.name", "web", true},
		{"metadata.namespace=ns", "metadata.name", "", false},
		{`metadata.name=a\=b`, "metadata.name", "a=b", true},
	}
	for _, tt := range tests {
		t.Run(tt.sel, func(t *testing.T) {
			v, ok := mustParse(t, tt.sel).RequiresExactMatch(tt.field)
			if v != tt.want || ok != tt.found {
				t.Errorf("= %q, %v; want %q, %v", v, ok, tt.want, tt.found)
			}
		})
	}
}

func TestConstructors(t *testing.T) {
	t.Run("Everything", func(t *testing.T) {
		s := fields.Everything()
		if !s.Empty() || !s.Matches(nil) || s.String() != "" {
			t.Error("Everything() is not empty")
		}
	})
	t.Run("Nothing", func(t *testing.T) {
		s := fields.Nothing()
		if s.Empty() || s.Matches(nil) {
			t.Error("Nothing() selects")
		}
	})
	t.Run("OneTermEqualSelector", func(t *testing.T) {
		s := fields.OneTermEqualSelector("metadata.name", "a,b")
		if s.String() != `metadata.name=a\,b` || !s.Matches(map[string]string{"metadata.name": "a,b"}) {
			t.Errorf("String() = %q", s)
		}
		if v, ok := s.RequiresExactMatch("metadata.name"); !ok || v != "a,b" {
			t.Errorf("RequiresExactMatch = %q, %v", v, ok)
		}
	})
	t.Run("OneTermNotEqualSelector", func(t *testing.T) {
		s := fields.OneTermNotEqualSelector("a", "b")
		if s.String() != "a!=b" || s.Matches(map[string]string{"a": "b"}) {
			t.Errorf("String() = %q", s)
		}
	})
	t.Run("SelectorFromSet", func(t *testing.T) {
		s := fields.SelectorFromSet(map[string]string{"b": "2", "a": "1"})
		if s.String() != "a=1,b=2" {
			t.Errorf("String() = %q", s)
		}
		if !fields.SelectorFromSet(nil).Empty() {
			t.Error("SelectorFromSet(nil) not empty")
		}
		if got := (fields.Set{"x": "="}).String(); got != `x=\=` {
			t.Errorf("Set.String() = %q", got)
		}
	})
	t.Run("AndSelectors", func(t *testing.T) {
		s := fields.AndSelectors(fields.OneTermEqualSelector("a", "1"), fields.OneTermNotEqualSelector("b", "2"))
		if s.String() != "a=1,b!=2" || !s.Matches(map[string]string{"a": "1"}) {
			t.Errorf("String() = %q", s)
		}
		if !fields.AndSelectors().Empty() || !fields.AndSelectors(fields.Everything()).Empty() {
			t.Error("empty AND is not empty")
		}
	})
}

func TestEscapeValue(t *testing.T) {
	for _, v := range []string{"", "plain", `a\b`, "a,b", "a=b", `\,=`, "ünïcode"} {
		esc := fields.EscapeValue(v)
		got, err := fields.UnescapeValue(esc)
		if err != nil || got != v {
			t.Errorf("UnescapeValue(EscapeValue(%q)) = %q, %v", v, got, err)
		}
	}
}
