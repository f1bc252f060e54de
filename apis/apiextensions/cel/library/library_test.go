package library_test

import (
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"

	"github.com/crdlab/crdlab/apis/apiextensions/cel/library"
)

// eval compiles expr in env and runs it with no variables.
func eval(t *testing.T, env *cel.Env, expr string) (any, error) {
	t.Helper()
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		return nil, iss.Err()
	}
	prg, err := env.Program(ast)
	if err != nil {
		return nil, err
	}
	out, _, err := prg.Eval(cel.NoVars())
	if err != nil {
		return nil, err
	}
	if o, ok := out.(interface{ HasValue() bool }); ok && out.Type() == types.OptionalType {
		return o.HasValue(), nil
	}
	return out.Value(), nil
}

func TestLibraries(t *testing.T) {
	set, err := library.BaseEnvSet()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		expr string
		want any    // the result, if wantErr is empty
		err  string // a substring of the error
	}{
		// Lists
		{expr: "[1, 2, 3].isSorted()", want: true},
		{expr: "['b', 'a'].isSorted()", want: false},
		{expr: "[1, 2, 3].sum()", want: int64(6)},
		{expr: "[1.5, 2.0].sum()", want: 3.5},
		{expr: "[duration('1s'), duration('2s')].sum() == duration('3s')", want: true},
		{expr: "[3, 1, 2].min()", want: int64(1)},
		{expr: "['a', 'c', 'b'].max()", want: "c"},
		{expr: "[1, 2, 1].indexOf(1)", want: int64(0)},
		{expr: "[1, 2, 1].lastIndexOf(1)", want: int64(2)},
		{expr: "[1, 2].indexOf(5)", want: int64(-1)},
		{expr: "[].min()", err: "min called on empty list"},
		// Regex
		{expr: "'abc 123 def 456'.find('[0-9]+')", want: "123"},
		{expr: "'abc'.find('[0-9]+')", want: ""},
		{expr: "'a1b2c3'.findAll('[0-9]').size()", want: int64(3)},
		{expr: "'a1b2c3'.findAll('[0-9]', 2) == ['1', '2']", want: true},
		// URLs
		{expr: "url('https://example.com:8080/a%20b?x=1').getHost()", want: "example.com:8080"},
		{expr: "url('https://example.com:8080/a').getHostname()", want: "example.com"},
		{expr: "url('https://example.com:8080/a').getPort()", want: "8080"},
		{expr: "url('https://example.com/a%20b').getEscapedPath()", want: "/a%20b"},
		{expr: "url('https://example.com/?x=1&x=2').getQuery()['x'] == ['1', '2']", want: true},
		{expr: "isURL('not a url')", want: false},
		{expr: "url('not a url')", err: "URL parse error during conversion from string"},
		// Quantity
		{expr: "quantity('1Gi').isGreaterThan(quantity('1G'))", want: true},
		{expr: "quantity('500m').compareTo(quantity('0.5'))", want: int64(0)},
		{expr: "quantity('1k') == quantity('1000')", want: true},
		{expr: "quantity('1.5').isInteger()", want: false},
		{expr: "quantity('1.5Ki').isInteger()", want: false}, // 1536, but in the big form
		{expr: "quantity('2Ki').asInteger()", want: int64(2048)},
		{expr: "quantity('1.5').asApproximateFloat()", want: 1.5},
		{expr: "quantity('1').add(quantity('500m')).isGreaterThan(quantity('1'))", want: true},
		{expr: "quantity('5').sub(2).compareTo(quantity('3'))", want: int64(0)},
		{expr: "sign(quantity('-3'))", want: int64(-1)},
		{expr: "isQuantity('1.2.3')", want: false},
		{expr: "quantity('1.5').asInteger()", err: "cannot convert value to integer"},
		{expr: "quantity('abc')", err: "quantities must match the regular expression"},
		// A sum is a pointer, equal to nothing on the right of == (as upstream).
		{expr: "quantity('2') == quantity('1').add(1)", err: "no such overload"},
		{expr: "quantity('1').add(1) == quantity('2')", want: true},
		// IP and CIDR
		{expr: "ip('10.0.0.1').family()", want: int64(4)},
		{expr: "ip('::1').isLoopback()", want: true},
		{expr: "ip.isCanonical('2001:db8::1')", want: true},
		{expr: "ip.isCanonical('2001:DB8::1')", want: false},
		{expr: "isIP('10.0.0.1%eth0')", want: false},
		{expr: "ip('::ffff:10.0.0.1')", err: "IPv4-mapped IPv6 address \"::ffff:10.0.0.1\" is not allowed"},
		{expr: "string(ip('10.0.0.1'))", want: "10.0.0.1"},
		{expr: "cidr('10.0.0.0/8').containsIP('10.1.2.3')", want: true},
		{expr: "cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')", want: true},
		{expr: "cidr('10.1.0.0/16').containsCIDR('10.0.0.0/8')", want: false},
		{expr: "cidr('10.0.0.1/8').masked() == cidr('10.0.0.0/8')", want: true},
		{expr: "cidr('10.0.0.0/8').prefixLength()", want: int64(8)},
		{expr: "string(cidr('10.0.0.1/8').ip())", want: "10.0.0.1"},
		{expr: "isCIDR('10.0.0.0/33')", want: false},
		// Format
		{expr: "format.dns1123Label().validate('abc').hasValue()", want: false},
		{expr: "format.dns1123Label().validate('Abc').value()[0].startsWith('a lowercase RFC 1123 label')", want: true},
		{expr: "format.named('dns1123Label').hasValue()", want: true},
		{expr: "format.named('nope').hasValue()", want: false},
		{expr: "format.uuid().validate('not-a-uuid').value()", want: []string{"does not match the UUID format"}},
		{expr: "format.datetime().validate('2024-01-02T03:04:05Z').hasValue()", want: false},
		// Semver
		{expr: "semver('1.2.3').isLessThan(semver('1.10.0'))", want: true},
		{expr: "semver('1.0.0-alpha').isLessThan(semver('1.0.0'))", want: true},
		{expr: "semver('v1.2', true).minor()", want: int64(2)},
		{expr: "isSemver('01.2.3')", want: false},
		{expr: "semver('1.2')", err: "No Major.Minor.Patch elements found"},
		// cel-go's extension libraries, as upstream enables them
		{expr: "'a,b'.split(',').size()", want: int64(2)},
		{expr: "sets.contains([1, 2], [2])", want: true},
		{expr: "[1, 2].all(i, v, v > i)", want: true},
		{expr: "[3, 1, 2].sort() == [1, 2, 3]", want: true},
		{expr: "optional.of(1).orValue(2)", want: int64(1)},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			got, err := eval(t, set.Stored, tc.expr)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, %v; want error containing %q", got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s, ok := got.([]string); ok {
				if strings.Join(s, "|") != strings.Join(tc.want.([]string), "|") {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
				return
			}
			if ref, ok := got.([]any); ok {
				t.Fatalf("unexpected list %v", ref)
			}
			if got != tc.want {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

// TestEnvSet_includes: includes() (Lists version 1) is stored-only at v1.37.
func TestEnvSet_includes(t *testing.T) {
	set, err := library.BaseEnvSet()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eval(t, set.New, "[1, 2].includes(2)"); err == nil || !strings.Contains(err.Error(), "undeclared reference to 'includes'") {
		t.Errorf("New: got %v, want an undeclared reference", err)
	}
	if got, err := eval(t, set.Stored, "[1, 2].includes(2)"); err != nil || got != true {
		t.Errorf("Stored: got %v, %v; want true", got, err)
	}
}

// TestEnvSet_costLimit: one evaluation may not cost more than PerCallLimit.
func TestEnvSet_costLimit(t *testing.T) {
	set, err := library.BaseEnvSet()
	if err != nil {
		t.Fatal(err)
	}
	_, err = eval(t, set.Stored, "lists.range(1000).all(i, lists.range(1000).all(j, i + j >= 0))")
	if err == nil || !strings.Contains(err.Error(), "operation cancelled: actual cost limit exceeded") {
		t.Fatalf("got %v, want the cost limit", err)
	}
}

func TestParseSemver(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{"1.2.3", ""},
		{"1.2.3-rc.1+build.5", ""},
		{"", "Version string empty"},
		{"1.2", "No Major.Minor.Patch elements found"},
		{"01.2.3", `Major number must not contain leading zeroes "01"`},
		{"1.x.3", `Invalid character(s) found in minor number "x"`},
		{"1.2.3-01", `Numeric PreRelease version must not contain leading zeroes "01"`},
		{"1.2.3-", "Prerelease is empty"},
		{"1.2.3+", "Build meta data is empty"},
		{"1.2.3+a_b", `Invalid character(s) found in build meta data "a_b"`},
	} {
		v, err := library.ParseSemver(tc.in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.err == "" && v.String() != tc.in:
			t.Errorf("%q: String() = %q", tc.in, v.String())
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("%q: got %v, want %q", tc.in, err, tc.err)
		}
	}
}
