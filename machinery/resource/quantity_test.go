package resource_test

import (
	"errors"
	"regexp"
	"testing"

	"github.com/crdlab/crdlab/machinery/resource"
)

// The expected values were read from k8s.io/apimachinery v0.37.2's
// resource.Quantity (see docs/cel.md for the differential run).
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in    string
		i     int64
		isInt bool
		f     float64
		sign  int
		errIs error
	}{
		{in: "0", isInt: true},
		{in: "1", i: 1, isInt: true, f: 1, sign: 1},
		{in: "-2", i: -2, isInt: true, f: -2, sign: -1},
		{in: "100m", f: 0.1, sign: 1},
		{in: "1.5", f: 1.5, sign: 1},
		{in: "1k", i: 1000, isInt: true, f: 1000, sign: 1},
		{in: "1Ki", i: 1024, isInt: true, f: 1024, sign: 1},
		{in: "1.5Ki", f: 1536, sign: 1}, // big form: not an integer
		{in: "2e3", i: 2000, isInt: true, f: 2000, sign: 1},
		{in: "0.1n", f: 1e-9, sign: 1},                                  // rounded up to a nano
		{in: "12345678901234567890", f: 1.234567890123457e+19, sign: 1}, // big form: 10^-9 × unscaled
		{in: "16Ei", f: 9.223372036854776e+18, sign: 1},                 // binary SI caps at MaxInt64
		{in: "+.5", f: 0.5, sign: 1},
		{in: "", errIs: resource.ErrFormatWrong},
		{in: "1.2.3", errIs: resource.ErrFormatWrong},
		{in: "1Qi", errIs: resource.ErrFormatWrong},
		{in: "1ki", errIs: resource.ErrSuffix},
	} {
		t.Run(tc.in, func(t *testing.T) {
			q, err := resource.Parse(tc.in)
			if tc.errIs != nil {
				if !errors.Is(err, tc.errIs) {
					t.Fatalf("got %v, want %v", err, tc.errIs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			i, isInt := q.AsInt64()
			if isInt != tc.isInt || isInt && i != tc.i {
				t.Errorf("AsInt64 = %d, %v; want %d, %v", i, isInt, tc.i, tc.isInt)
			}
			if f := q.AsApproximateFloat64(); f != tc.f {
				t.Errorf("AsApproximateFloat64 = %v, want %v", f, tc.f)
			}
			if s := q.Sign(); s != tc.sign {
				t.Errorf("Sign = %d, want %d", s, tc.sign)
			}
		})
	}
}

func TestQuantity_Cmp(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"1k", "1000", 0},
		{"1Gi", "1G", 1},
		{"500m", "0.5", 0},
		{"1.5Ki", "1536", 0},
		{"-1", "1n", -1},
		{"12345678901234567890", "12345678901234567891", -1},
	} {
		a, b := must(t, tc.a), must(t, tc.b)
		if got := a.Cmp(b); got != tc.want {
			t.Errorf("Cmp(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := b.Cmp(a); got != -tc.want {
			t.Errorf("Cmp(%s, %s) = %d, want %d", tc.b, tc.a, got, -tc.want)
		}
	}
}

func TestQuantity_AddSub(t *testing.T) {
	for _, tc := range []struct {
		a, b      string
		sum, diff string
		sumIsInt  bool
	}{
		{"1", "2", "3", "-1", true},
		{"1.5", "500m", "2", "1", false}, // small form at scale -3: 2000m is not an int64 "as is"
		{"1Ki", "1", "1025", "1023", true},
		{"9223372036854775807", "1", "9223372036854775808", "9223372036854775806", false}, // overflow → big form
	} {
		a, b := must(t, tc.a), must(t, tc.b)
		sum, diff := a.Add(b), a.Sub(b)
		if !sum.Equal(must(t, tc.sum)) {
			t.Errorf("%s + %s = %v", tc.a, tc.b, sum.AsApproximateFloat64())
		}
		if !diff.Equal(must(t, tc.diff)) {
			t.Errorf("%s - %s = %v", tc.a, tc.b, diff.AsApproximateFloat64())
		}
		if _, ok := sum.AsInt64(); ok != tc.sumIsInt {
			t.Errorf("(%s + %s).AsInt64 ok = %v, want %v", tc.a, tc.b, ok, tc.sumIsInt)
		}
	}
}

func must(t *testing.T, s string) resource.Quantity {
	t.Helper()
	q, err := resource.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

var hugeExponent = regexp.MustCompile(`[eE][-+]?[0-9]{3,}`)

func FuzzParse(f *testing.F) {
	for _, s := range []string{"1", "1.5Ki", "100m", "2e3", "-0.1n", "16Ei", "12345678901234567890"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 40 || hugeExponent.MatchString(s) {
			return // 10^huge takes as long here as upstream
		}
		q, err := resource.Parse(s)
		if err != nil {
			return
		}
		// A quantity equals itself plus zero, and Cmp agrees with Sign.
		if !q.Add(resource.NewQuantity(0)).Equal(q) {
			t.Errorf("%q + 0 != itself", s)
		}
		if got := q.Cmp(resource.NewQuantity(0)); got != q.Sign() {
			t.Errorf("%q: Cmp(0) = %d, Sign = %d", s, got, q.Sign())
		}
	})
}
