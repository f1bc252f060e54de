// Package resource reads Kubernetes resource quantities ("500m", "1.5Gi",
// "2e3") and does the exact arithmetic the CEL quantity library offers on
// them: compare, add, subtract, read as an integer or a float.
//
// Vocabulary: a Quantity is a decimal number with a suffix. Decimal SI
// suffixes (n u m k M G T P E) scale by powers of 10, binary SI suffixes
// (Ki Mi Gi Ti Pi Ei) by powers of 2, and an exponent (e3, E-2) by 10^n.
// Precision beyond a nano (10^-9) is rounded up, away from zero.
//
// A Quantity is kept in one of upstream's two forms, because some answers
// depend on the form and not only on the value:
//   - small: an int64 times 10^scale, when the digits and the suffix fit;
//   - big: an unscaled big integer with a decimal scale (inf.Dec's form),
//     for everything else (many digits, fractions of binary suffixes,
//     precision below a nano).
//
// AsInt64 answers ok only for the small form (so quantity("1.5Ki"), which
// is 1536 held in the big form, is not an integer, as upstream), and
// AsApproximateFloat64 multiplies the form's own mantissa and exponent.
//
// Upstream:
//   - k8s.io/apimachinery/pkg/api/resource: quantity.go (ParseQuantity,
//     parseQuantityString, Cmp, Add, Sub, AsInt64, AsApproximateFloat64),
//     amount.go (int64Amount), math.go, suffix.go
//
// Differences from upstream:
//   - Only what CEL needs: no String/canonical formatting, no Milli/Scaled
//     values, no JSON or protobuf encoding, no Mul or Neg.
//   - Arithmetic on the big form uses math/big instead of gopkg.in/inf.v0;
//     the value and the scale kept are the same.
package resource
