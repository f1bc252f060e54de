package validation

import (
	"regexp"
	"testing"
)

// FuzzNameMatchers checks that each matcher accepts exactly what its
// upstream regular expression does.
func FuzzNameMatchers(f *testing.F) {
	for _, s := range []string{"", "a", "-", "a-", "-a", "a-b", "A", "aB", "a.b", "a..b", ".a", "a.", "a_b", "_a",
		"example.com", "my.name", "123-abc", "a/b", "é", "a\nb", "a b", "0", "z9", "a-.b"} {
		f.Add(s)
	}
	cases := []struct {
		name  string
		re    *regexp.Regexp
		match func(string) bool
	}{
		{"dns1123Label", regexp.MustCompile("^" + dns1123LabelFmt + "$"), isDNS1123Label},
		{"dns1123Subdomain", regexp.MustCompile("^" + dns1123SubdomainFmt + "$"), isDNS1123Subdomain},
		{"dns1035Label", regexp.MustCompile("^" + dns1035LabelFmt + "$"), isDNS1035Label},
		{"qualifiedName", regexp.MustCompile("^" + qualifiedNameFmt + "$"), isQualifiedName},
		{"labelValue", regexp.MustCompile("^" + labelValueFmt + "$"), isLabelValue},
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range cases {
			if want, got := c.re.MatchString(s), c.match(s); got != want {
				t.Errorf("%s(%q) = %v, the expression says %v", c.name, s, got, want)
			}
		}
	})
}
