package resource

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// The errors Parse returns; their texts are upstream's, since CEL rules
// show them ("quantities must match the regular expression …").
var (
	ErrFormatWrong = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	ErrNumeric     = errors.New("unable to parse numeric part of quantity")
	ErrSuffix      = errors.New("unable to parse quantity's suffix")
)

// format is the kind of suffix a quantity was written with.
type format int

const (
	decimalExponent format = iota // 12e6
	binarySI                      // 12Mi
	decimalSI                     // 12M
)

// nano is the finest scale a Quantity keeps (10^-9).
const nano = -9

// maxInt64Factors is the most decimal digits the small form takes.
const maxInt64Factors = 18

// Quantity is a parsed quantity in one of two forms (see the package doc).
// The zero value is 0 in the small form.
//
// Mirrors resource.Quantity (its i int64Amount / d infDecAmount fields).
type Quantity struct {
	// big is nil for the small form: value × 10^scale. Otherwise the value
	// is big × 10^-bigScale (inf.Dec: a positive bigScale is digits after
	// the decimal point).
	value    int64
	scale    int32
	big      *big.Int
	bigScale int32
}

// NewQuantity returns v in the small form, as resource.NewQuantity does.
func NewQuantity(v int64) Quantity { return Quantity{value: v} }

// Parse reads a quantity.
//
// Mirrors resource.ParseQuantity.
func Parse(str string) (Quantity, error) {
	if len(str) == 0 {
		return Quantity{}, ErrFormatWrong
	}
	if str == "0" {
		return Quantity{}, nil
	}
	positive, value, num, denom, suf, err := scan(str)
	if err != nil {
		return Quantity{}, err
	}
	base, exponent, f, ok := interpret(suf)
	if !ok {
		return Quantity{}, ErrSuffix
	}

	// Try the small form first: the digits fit in an int64 and the scale
	// is not finer than a nano.
	precision, scale, mantissa := int32(0), int32(0), int64(1)
	switch f {
	case decimalExponent, decimalSI:
		scale = exponent
		precision = maxInt64Factors - int32(len(num)+len(denom))
	case binarySI:
		if exponent >= 0 && len(denom) == 0 {
			mantissa = 1 << uint64(exponent)
			precision = 15 - int32(len(num)) - int32(float32(exponent)*3/10) - 1
		} else {
			precision = -1
		}
	}
	if precision >= 0 {
		scale -= int32(len(denom))
		if scale >= nano {
			v, err := strconv.ParseInt(num+denom, 10, 64)
			if err != nil {
				return Quantity{}, ErrNumeric
			}
			if result, ok := int64Multiply(v, mantissa); ok {
				if !positive {
					result = -result
				}
				return Quantity{value: result, scale: scale}, nil
			}
		}
	}

	// The big form: exact decimal arithmetic, rounded up to nano.
	unscaled, decScale, ok := parseDecimal(value)
	if !ok {
		return Quantity{}, ErrNumeric
	}
	if base == 10 {
		decScale -= exponent
	} else {
		unscaled.Lsh(unscaled, uint(exponent))
	}
	sign := unscaled.Sign()
	unscaled.Abs(unscaled)
	if sign != 0 || !unscaled.IsInt64() {
		unscaled, decScale = roundUp(unscaled, decScale, -nano)
	}
	if f == binarySI && cmpDec(unscaled, decScale, big.NewInt(math.MaxInt64), 0) > 0 {
		unscaled, decScale = big.NewInt(math.MaxInt64), 0
	}
	if sign < 0 {
		unscaled.Neg(unscaled)
	}
	return Quantity{big: unscaled, bigScale: decScale}, nil
}

// scan splits a quantity into sign, the numeric text (value, with sign
// and decimal point), its integer digits without leading zeros (num), its
// fraction digits (denom) and the suffix.
//
// Mirrors parseQuantityString.
func scan(str string) (positive bool, value, num, denom, suffix string, err error) {
	positive = true
	pos, end := 0, len(str)
	switch str[0] {
	case '-':
		positive = false
		pos++
	case '+':
		pos++
	}
	for ; pos < end && str[pos] == '0'; pos++ {
	}
	if pos >= end {
		return positive, "0", "0", "", "", nil
	}
	i := pos
	for ; i < end && isDigit(str[i]); i++ {
	}
	if i >= end {
		return positive, str, str[pos:], "", "", nil
	}
	num, pos = str[pos:i], i
	if num == "" {
		num = "0"
	}
	if str[pos] == '.' {
		pos++
		i = pos
		for ; i < end && isDigit(str[i]); i++ {
		}
		if i >= end {
			return positive, str, num, str[pos:], "", nil
		}
		denom, pos = str[pos:i], i
	}
	value = str[:pos]

	start := pos
	for ; pos < end && strings.IndexByte("eEinumkKMGTP", str[pos]) >= 0; pos++ {
	}
	if pos >= end {
		return positive, value, num, denom, str[start:], nil
	}
	if str[pos] == '-' || str[pos] == '+' {
		pos++
	}
	for ; pos < end && isDigit(str[pos]); pos++ {
	}
	if pos < end {
		return positive, value, num, denom, "", ErrFormatWrong
	}
	return positive, value, num, denom, str[start:], nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// interpret maps a suffix to its base, exponent and format.
//
// Mirrors (*suffixHandler).interpret.
func interpret(s string) (base, exponent int32, f format, ok bool) {
	switch s {
	case "":
		return 10, 0, decimalSI, true
	case "n":
		return 10, -9, decimalSI, true
	case "u":
		return 10, -6, decimalSI, true
	case "m":
		return 10, -3, decimalSI, true
	case "k":
		return 10, 3, decimalSI, true
	case "M":
		return 10, 6, decimalSI, true
	case "G":
		return 10, 9, decimalSI, true
	case "T":
		return 10, 12, decimalSI, true
	case "P":
		return 10, 15, decimalSI, true
	case "E":
		return 10, 18, decimalSI, true
	case "Ki":
		return 2, 10, binarySI, true
	case "Mi":
		return 2, 20, binarySI, true
	case "Gi":
		return 2, 30, binarySI, true
	case "Ti":
		return 2, 40, binarySI, true
	case "Pi":
		return 2, 50, binarySI, true
	case "Ei":
		return 2, 60, binarySI, true
	}
	if len(s) > 1 && (s[0] == 'E' || s[0] == 'e') {
		n, err := strconv.ParseInt(s[1:], 10, 64)
		if err != nil {
			return 0, 0, decimalExponent, false
		}
		return 10, int32(n), decimalExponent, true
	}
	return 0, 0, decimalExponent, false
}

// parseDecimal reads "[+-]digits[.digits]" as inf.Dec's SetString does:
// the scale is the number of digits after the point.
func parseDecimal(s string) (*big.Int, int32, bool) {
	digits, scale, sawDigit := make([]byte, 0, len(s)), int32(0), false
	dot := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case (c == '+' || c == '-') && i == 0:
			digits = append(digits, c)
		case c == '.' && dot < 0:
			dot = len(digits)
		case isDigit(c):
			sawDigit = true
			digits = append(digits, c)
		default:
			return nil, 0, false
		}
	}
	if !sawDigit {
		return nil, 0, false
	}
	if dot >= 0 {
		scale = int32(len(digits) - dot)
	}
	n, ok := new(big.Int).SetString(string(digits), 10)
	return n, scale, ok
}

// roundUp returns u×10^-scale at scale s, rounding away from zero when
// digits are dropped (inf.Dec's Round with RoundUp).
func roundUp(u *big.Int, scale, s int32) (*big.Int, int32) {
	out := new(big.Int).Set(u)
	switch {
	case scale < s:
		out.Mul(out, pow10(s-scale))
	case scale > s:
		q, r := new(big.Int).QuoRem(out, pow10(scale-s), new(big.Int))
		if r.Sign() != 0 {
			if out.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
		out = q
	}
	return out, s
}

func pow10(n int32) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// dec returns q in the big form (a fresh copy).
func (q Quantity) dec() (*big.Int, int32) {
	if q.big != nil {
		return new(big.Int).Set(q.big), q.bigScale
	}
	return big.NewInt(q.value), -q.scale
}

// cmpDec compares a×10^-as with b×10^-bs.
func cmpDec(a *big.Int, as int32, b *big.Int, bs int32) int {
	x, y := new(big.Int).Set(a), new(big.Int).Set(b)
	if as < bs {
		x.Mul(x, pow10(bs-as))
	} else if bs < as {
		y.Mul(y, pow10(as-bs))
	}
	return x.Cmp(y)
}

// Cmp returns -1, 0 or 1 as q is less than, equal to or greater than y.
// It is exact whatever the forms.
func (q Quantity) Cmp(y Quantity) int {
	a, as := q.dec()
	b, bs := y.dec()
	return cmpDec(a, as, b, bs)
}

// Equal reports whether q and y have the same value.
func (q Quantity) Equal(y Quantity) bool { return q.Cmp(y) == 0 }

// Sign returns -1, 0 or 1.
func (q Quantity) Sign() int {
	if q.big != nil {
		return q.big.Sign()
	}
	switch {
	case q.value > 0:
		return 1
	case q.value < 0:
		return -1
	}
	return 0
}

// AsInt64 returns the value as an int64 if it is held in the small form
// with no fraction and fits.
//
// Mirrors (*Quantity).AsInt64 and int64Amount.AsInt64.
func (q Quantity) AsInt64() (int64, bool) {
	if q.big != nil || q.scale < 0 {
		return 0, false
	}
	v := q.value
	for i := int32(0); i < q.scale; i++ {
		var ok bool
		if v, ok = int64MultiplyScale(v, 10); !ok {
			return 0, false
		}
	}
	return v, true
}

// AsApproximateFloat64 returns mantissa × 10^exponent of the form held.
//
// Mirrors (*Quantity).AsApproximateFloat64.
func (q Quantity) AsApproximateFloat64() float64 {
	var base float64
	var exponent int
	if q.big != nil {
		base, _ = new(big.Float).SetInt(q.big).Float64()
		exponent = int(-q.bigScale)
	} else {
		base, exponent = float64(q.value), int(q.scale)
	}
	if exponent == 0 {
		return base
	}
	return base * math.Pow10(exponent)
}

// Add returns q + y: in the small form if both are small and the sum fits,
// else in the big form at the larger of the two decimal scales.
//
// Mirrors (*Quantity).Add.
func (q Quantity) Add(y Quantity) Quantity {
	if q.big == nil && y.big == nil {
		if sum, ok := addSmall(q, y); ok {
			return sum
		}
	}
	a, as := q.dec()
	b, bs := y.dec()
	if as < bs {
		a.Mul(a, pow10(bs-as))
		as = bs
	} else if bs < as {
		b.Mul(b, pow10(as-bs))
	}
	return Quantity{big: a.Add(a, b), bigScale: as}
}

// Sub returns q - y, as Add does.
func (q Quantity) Sub(y Quantity) Quantity {
	if y.big != nil {
		return q.Add(Quantity{big: new(big.Int).Neg(y.big), bigScale: y.bigScale})
	}
	if q.big == nil && y.value == math.MinInt64 {
		// -y does not fit: upstream's int64Amount.Sub negates, which
		// overflows to itself; take the big form instead.
		a, as := q.dec()
		b, bs := y.dec()
		return Quantity{big: a, bigScale: as}.Add(Quantity{big: b.Neg(b), bigScale: bs})
	}
	return q.Add(Quantity{value: -y.value, scale: y.scale})
}

// addSmall mirrors (*int64Amount).Add.
func addSmall(a, b Quantity) (Quantity, bool) {
	switch {
	case b.value == 0:
		return a, true
	case a.value == 0:
		return b, true
	case a.scale == b.scale:
		c, ok := int64Add(a.value, b.value)
		return Quantity{value: c, scale: a.scale}, ok
	case a.scale > b.scale:
		c, ok := positiveScale(a.value, a.scale-b.scale)
		if !ok {
			return Quantity{}, false
		}
		c, ok = int64Add(c, b.value)
		return Quantity{value: c, scale: b.scale}, ok
	default:
		c, ok := positiveScale(b.value, b.scale-a.scale)
		if !ok {
			return Quantity{}, false
		}
		c, ok = int64Add(a.value, c)
		return Quantity{value: c, scale: a.scale}, ok
	}
}

func positiveScale(v int64, scale int32) (int64, bool) {
	for i := int32(0); i < scale; i++ {
		var ok bool
		if v, ok = int64MultiplyScale(v, 10); !ok {
			return 0, false
		}
	}
	return v, true
}

func int64Add(a, b int64) (int64, bool) {
	c := a + b
	switch {
	case a > 0 && b > 0:
		return c, c >= 0
	case a < 0 && b < 0:
		return c, c <= 0 && !(a == math.MinInt64 && b == math.MinInt64)
	}
	return c, true
}

func int64Multiply(a, b int64) (int64, bool) {
	if a == 0 || b == 0 || a == 1 || b == 1 {
		return a * b, true
	}
	if a == math.MinInt64 || b == math.MinInt64 {
		return 0, false
	}
	c := a * b
	return c, c/b == a
}

func int64MultiplyScale(a, b int64) (int64, bool) {
	if a == 0 || a == 1 {
		return a * b, true
	}
	if a == math.MinInt64 && b != 1 {
		return 0, false
	}
	c := a * b
	return c, c/b == a
}
