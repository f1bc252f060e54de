package library

import (
	"math"

	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// CostEstimator prices the Kubernetes functions (and the strings
// functions cel-go leaves unpriced) both ways: EstimateCallCost before a
// rule runs, from the sizes the schema allows (maxLength, maxItems…), and
// CallCost while it runs, from the actual arguments.
//
// SizeEstimator, if set, tells the size of the values an expression reads
// (the cel package's schema-based estimator).
//
// Mirrors library.CostEstimator in k8s.io/apiserver/pkg/cel/library/cost.go
// (without the authorizer and JSON patch functions, which CRD rules cannot
// reach).
type CostEstimator struct {
	SizeEstimator checker.CostEstimator
}

var (
	_ checker.CostEstimator = (*CostEstimator)(nil)
)

const (
	traversal = common.StringTraversalCostFactor
	regexCost = common.RegexStringLengthCostFactor
	// maxNameFormatRegexSize is the regex size charged per character by
	// the estimate of format validate().
	maxNameFormatRegexSize = 128
	// maxFormatSize bounds the cost of comparing two formats.
	maxFormatSize = 64
)

func ceilCost(size uint64, factor float64) uint64 {
	return uint64(math.Ceil(float64(size) * factor))
}

// CallCost returns the actual cost of one call, or nil to let cel-go
// decide.
func (l *CostEstimator) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	cost := func(c uint64) *uint64 { return &c }
	switch function {
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes":
		// One traversal of the list.
		var c uint64
		if len(args) > 0 {
			c = traversalCost(args[0])
		}
		return &c
	case "url", "lowerAscii", "upperAscii", "substring", "trim":
		if len(args) >= 1 {
			return cost(ceilCost(actualSize(args[0]), traversal))
		}
	case "replace", "split":
		if len(args) >= 1 {
			return cost(ceilCost(actualSize(args[0]), 2*traversal))
		}
	case "join":
		if len(args) >= 1 {
			return cost(ceilCost(actualSize(result), 2*traversal))
		}
	case "find", "findAll":
		if len(args) >= 2 {
			str := uint64(math.Ceil((1.0 + float64(actualSize(args[0]))) * traversal))
			return cost(str * ceilCost(actualSize(args[1]), regexCost))
		}
	case "cidr", "isIP", "isCIDR", "quantity", "isQuantity", "semver", "isSemver":
		if len(args) >= 1 {
			return cost(ceilCost(actualSize(args[0]), traversal))
		}
	case "ip":
		if len(args) >= 1 {
			if overloadID == "cidr_ip" {
				return cost(1)
			}
			return cost(ceilCost(actualSize(args[0]), traversal))
		}
	case "ip.isCanonical":
		if len(args) >= 1 {
			return cost(ceilCost(actualSize(args[0]), 2*traversal))
		}
	case "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast",
		"format.named", "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo", "add", "sub",
		"major", "minor", "patch", "getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery":
		return cost(1)
	case "containsIP":
		if len(args) >= 2 {
			cidrSize := actualSize(args[0])
			c := ceilCost(cidrSize+cidrSize, traversal)
			if overloadID == "cidr_contains_ip_string" {
				c += ceilCost(actualSize(args[1]), traversal)
			}
			return &c
		}
	case "containsCIDR":
		if len(args) >= 2 {
			cidrSize := actualSize(args[0])
			c := ceilCost(cidrSize+cidrSize, traversal) + ceilCost(cidrSize, traversal) + 1
			if overloadID == "cidr_contains_cidr_string" {
				c += ceilCost(actualSize(args[1]), traversal)
			}
			return &c
		}
	case "validate":
		if len(args) >= 2 {
			if f, ok := args[0].Value().(Format); ok {
				str := uint64(math.Ceil((1.0 + float64(actualSize(args[1]))) * traversal))
				return cost(str * ceilCost(uint64(f.MaxRegexSize), regexCost))
			}
		}
	case "_==_":
		if len(args) == 2 {
			switch args[0].(type) {
			case Quantity, *Quantity, IP, *IP, CIDR, *CIDR, Format, *Format, URL, *URL, Semver, *Semver:
				return cost(1)
			}
		}
	}
	return nil
}

// EstimateCallCost returns the estimated cost of a call, or nil to let
// cel-go decide.
func (l *CostEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	fixed := func(c uint64) *checker.CallEstimate {
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: c, Max: c}}
	}
	switch function {
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes":
		if target != nil {
			elCost := checker.CostEstimate{Min: 1, Max: 1}
			if el := l.listElementNode(*target); el != nil {
				if k := el.Type().Kind(); k == types.StringKind || k == types.BytesKind {
					elCost = elCost.Add(l.sizeEstimate(el).MultiplyByCostFactor(traversal))
				}
				return &checker.CallEstimate{CostEstimate: l.sizeEstimate(*target).MultiplyByCost(elCost)}
			} else if function == "includes" {
				return &checker.CallEstimate{CostEstimate: l.sizeEstimate(*target).MultiplyByCost(elCost)}
			}
			return &checker.CallEstimate{CostEstimate: l.sizeEstimate(*target).MultiplyByCostFactor(traversal)}
		}
	case "url":
		if len(args) == 1 {
			sz := l.sizeEstimate(args[0])
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(traversal), ResultSize: &sz}
		}
	case "lowerAscii", "upperAscii", "substring", "trim":
		if target != nil {
			sz := l.sizeEstimate(*target)
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(traversal), ResultSize: &sz}
		}
	case "replace":
		if target != nil && len(args) >= 2 {
			return l.estimateReplace(*target, args[0], args[1])
		}
	case "split":
		if target != nil {
			sz := l.sizeEstimate(*target)
			max := sz.Max
			if len(args) > 1 {
				if v := args[1].Expr().AsLiteral(); v != nil {
					if i, ok := v.Value().(int64); ok {
						max = uint64(i)
					}
				}
			}
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(2 * traversal), ResultSize: &checker.SizeEstimate{Min: 0, Max: max}}
		}
	case "join":
		if target != nil {
			var sz checker.SizeEstimate
			listSize := l.sizeEstimate(*target)
			if el := l.listElementNode(*target); el != nil {
				sz = listSize.Multiply(l.sizeEstimate(el))
			}
			if len(args) > 0 {
				sep := l.sizeEstimate(args[0])
				var minSep, maxSep uint64
				if listSize.Min > 0 {
					minSep = listSize.Min - 1
				}
				if listSize.Max > 0 {
					maxSep = listSize.Max - 1
				}
				sz = sz.Add(sep.Multiply(checker.SizeEstimate{Min: minSep, Max: maxSep}))
			}
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(traversal), ResultSize: &sz}
		}
	case "find", "findAll":
		if target != nil && len(args) >= 1 {
			sz := l.sizeEstimate(*target)
			str := sz.Add(checker.SizeEstimate{Min: 1, Max: 1}).MultiplyByCostFactor(traversal)
			re := l.sizeEstimate(args[0]).MultiplyByCostFactor(regexCost)
			return &checker.CallEstimate{CostEstimate: str.Multiply(re), ResultSize: &checker.SizeEstimate{Min: 0, Max: sz.Max}}
		}
	case "cidr", "isIP", "isCIDR", "quantity", "isQuantity", "semver", "isSemver":
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: l.sizeEstimate(args[0]).MultiplyByCostFactor(traversal)}
		}
	case "ip":
		if overloadID == "cidr_ip" {
			return fixed(1)
		}
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: l.sizeEstimate(args[0]).MultiplyByCostFactor(traversal)}
		}
	case "ip.isCanonical":
		if len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: l.sizeEstimate(args[0]).MultiplyByCostFactor(2 * traversal)}
		}
	case "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast",
		"format.named", "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo", "add", "sub",
		"major", "minor", "patch", "getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery":
		return fixed(1)
	case "containsIP", "containsCIDR":
		if len(args) >= 1 {
			// An address is 4 to 16 bytes.
			sz := checker.SizeEstimate{Min: 4, Max: 16}
			c := sz.Add(sz).MultiplyByCostFactor(traversal)
			if function == "containsCIDR" {
				c = c.Add(sz.MultiplyByCostFactor(traversal)).Add(checker.CostEstimate{Min: 1, Max: 1})
			}
			if overloadID == "cidr_contains_ip_string" || overloadID == "cidr_contains_cidr_string" {
				c = c.Add(checker.CostEstimate(l.sizeEstimate(args[0])).MultiplyByCostFactor(traversal))
			}
			return &checker.CallEstimate{CostEstimate: c}
		}
	case "validate":
		if len(args) >= 1 {
			c := l.sizeEstimate(args[0]).MultiplyByCostFactor(traversal).MultiplyByCostFactor(maxNameFormatRegexSize * regexCost)
			return &checker.CallEstimate{CostEstimate: c}
		}
	case "_==_":
		if len(args) == 2 {
			lhs, rhs := args[0], args[1]
			if lhs.Type().Equal(rhs.Type()) == types.True {
				t := lhs.Type()
				if t.Kind() == types.OpaqueKind && (t.TypeName() == IPType.TypeName() || t.TypeName() == CIDRType.TypeName()) {
					return fixed(1)
				}
				if t.Kind() == types.StructKind {
					switch t {
					case QuantityType, SemverType:
						return fixed(1)
					case FormatType:
						return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: maxFormatSize}.MultiplyByCostFactor(traversal)}
					case URLType:
						size := checker.SizeEstimate{Min: 1, Max: 1}
						// Upstream reads the right-hand size twice.
						rh, lh := rhs.ComputedSize(), rhs.ComputedSize()
						if rh != nil && lh != nil {
							size = rh.Union(*lh)
						}
						return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: size.Max}.MultiplyByCostFactor(traversal)}
					}
				}
			}
		}
	}
	return nil
}

// estimateReplace mirrors the "replace" case of upstream's estimator: the
// result size depends on how often the search string can occur.
func (l *CostEstimator) estimateReplace(target, toReplace, with checker.AstNode) *checker.CallEstimate {
	sz := l.sizeEstimate(target)
	toReplaceSz := l.sizeEstimate(toReplace)
	withSz := l.sizeEstimate(with)
	var count, retained checker.SizeEstimate
	switch {
	case toReplaceSz.Min == 0:
		count.Max = sz.Max
		if sz.Max < math.MaxUint64 {
			count.Max = sz.Max + 1
		}
		retained.Max = sz.Max
	case withSz.Max <= toReplaceSz.Min:
		retained.Max = sz.Max
	default:
		count.Max = uint64(math.Ceil(float64(sz.Max) / float64(toReplaceSz.Min)))
	}
	switch {
	case toReplaceSz.Max == 0:
		count.Min = sz.Min
		if sz.Min < math.MaxUint64 {
			count.Min = sz.Min + 1
		}
		retained.Min = sz.Min
	case toReplaceSz.Max <= withSz.Min:
		retained.Min = sz.Min
	default:
		count.Min = uint64(math.Ceil(float64(sz.Min) / float64(toReplaceSz.Max)))
	}
	size := count.Multiply(withSz).Add(retained)
	return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(2 * traversal), ResultSize: &size}
}

// EstimateSize asks SizeEstimator, if any.
func (l *CostEstimator) EstimateSize(element checker.AstNode) *checker.SizeEstimate {
	if l.SizeEstimator != nil {
		return l.SizeEstimator.EstimateSize(element)
	}
	return nil
}

func (l *CostEstimator) sizeEstimate(t checker.AstNode) checker.SizeEstimate {
	if sz := t.ComputedSize(); sz != nil {
		return *sz
	}
	if sz := l.EstimateSize(t); sz != nil {
		return *sz
	}
	return checker.SizeEstimate{Min: 0, Max: math.MaxUint64}
}

// listElementNode is a pseudo node for the elements of a list node, whose
// path ends in "@items" so that the size estimator can find its schema.
func (l *CostEstimator) listElementNode(list checker.AstNode) checker.AstNode {
	params := list.Type().Parameters()
	if len(params) == 0 {
		return nil
	}
	var path []string
	if p := list.Path(); p != nil {
		path = append(append(make([]string, 0, len(p)+1), p...), "@items")
	}
	return &itemsNode{path: path, t: params[0]}
}

type itemsNode struct {
	path []string
	t    *types.Type
}

var _ checker.AstNode = (*itemsNode)(nil)

func (i *itemsNode) Path() []string                      { return i.path }
func (i *itemsNode) Type() *types.Type                   { return i.t }
func (i *itemsNode) Expr() ast.Expr                      { return nil }
func (i *itemsNode) ComputedSize() *checker.SizeEstimate { return nil }

func actualSize(v ref.Val) uint64 {
	if sz, ok := v.(traits.Sizer); ok {
		return uint64(sz.Size().(types.Int))
	}
	return 1
}

// traversalCost is the cost of walking a value once: string and byte
// lengths times the traversal factor, summed over lists and maps; 1 for
// anything else.
func traversalCost(v ref.Val) uint64 {
	switch vt := v.(type) {
	case types.String:
		return uint64(float64(len(string(vt))) * traversal)
	case types.Bytes:
		return uint64(float64(len([]byte(vt))) * traversal)
	case traits.Lister:
		var c uint64
		for it := vt.Iterator(); it.HasNext() == types.True; {
			c += traversalCost(it.Next())
		}
		return c
	case traits.Mapper:
		var c uint64
		for it := vt.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			c += traversalCost(k) + traversalCost(vt.Get(k))
		}
		return c
	}
	return 1
}
