package validation_test

import (
	"strings"
	"testing"

	"github.com/crdlab/crdlab/machinery/validation"
)

func TestIsDNS1123Subdomain(t *testing.T) {
	for _, ok := range []string{"a", "example.com", "crontabs.stable.example.com", "a-b.c1", strings.Repeat("a", 253)} {
		if errs := validation.IsDNS1123Subdomain(ok); errs != nil {
			t.Errorf("%q: unexpected %v", ok, errs)
		}
	}
	for _, bad := range []string{"", "A", "-a", "a-", "a..b", "a_b", strings.Repeat("a", 254)} {
		if errs := validation.IsDNS1123Subdomain(bad); errs == nil {
			t.Errorf("%q: expected errors", bad)
		}
	}
	want := `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
	if got := validation.IsDNS1123Subdomain("Bad"); len(got) != 1 || got[0] != want {
		t.Errorf("message:\n got %q\nwant %q", got, want)
	}
}

func TestIsDNS1123Label(t *testing.T) {
	if errs := validation.IsDNS1123Label("my-name"); errs != nil {
		t.Error(errs)
	}
	want := `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`
	if got := validation.IsDNS1123Label("a.b"); len(got) != 1 || got[0] != want {
		t.Errorf("message:\n got %q\nwant %q", got, want)
	}
	if got := validation.IsDNS1123Label(strings.Repeat("a", 64)); len(got) != 1 || got[0] != "must be no more than 63 characters" {
		t.Errorf("too long: %q", got)
	}
}

func TestIsDNS1035Label(t *testing.T) {
	if errs := validation.IsDNS1035Label("v1beta1"); errs != nil {
		t.Error(errs)
	}
	if errs := validation.IsDNS1035Label("1v"); errs == nil {
		t.Error("a DNS-1035 label must start with a letter")
	}
}

func TestIsQualifiedName(t *testing.T) {
	for _, ok := range []string{"app", "App.Name_1", "example.com/name", "kubernetes.io/metadata.name"} {
		if errs := validation.IsQualifiedName(ok); errs != nil {
			t.Errorf("%q: %v", ok, errs)
		}
	}
	for bad, want := range map[string]string{
		"/name":   "prefix part must be non-empty",
		"a/b/c":   "a qualified name must consist of",
		"Ex.com/": "prefix part a lowercase RFC 1123 subdomain",
		"-x":      "name part must consist of",
	} {
		errs := validation.IsQualifiedName(bad)
		if len(errs) == 0 || !strings.HasPrefix(errs[0], want) {
			t.Errorf("%q: got %q, want prefix %q", bad, errs, want)
		}
	}
}

func TestIsValidLabelValue(t *testing.T) {
	for _, ok := range []string{"", "v", "my_value", "12345"} {
		if errs := validation.IsValidLabelValue(ok); errs != nil {
			t.Errorf("%q: %v", ok, errs)
		}
	}
	if errs := validation.IsValidLabelValue("-x"); len(errs) != 1 || !strings.HasPrefix(errs[0], "a valid label must be an empty string") {
		t.Errorf("got %q", errs)
	}
}
