package library

import (
	"errors"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/crdlab/crdlab/machinery/resource"
)

// QuantityLib adds resource quantities ("500m", "1Gi"):
//
//	quantity(string) Quantity          isQuantity(string) bool
//	sign(Quantity) int
//	<Quantity>.isGreaterThan(Quantity) / isLessThan(Quantity) bool
//	<Quantity>.compareTo(Quantity) int
//	<Quantity>.asInteger() int          error unless isInteger()
//	<Quantity>.isInteger() bool
//	<Quantity>.asApproximateFloat() double
//	<Quantity>.add(Quantity|int) / sub(Quantity|int) Quantity
//
// Mirrors library.Quantity in k8s.io/apiserver/pkg/cel/library/quantity.go.
func QuantityLib() cel.EnvOption { return cel.Lib(quantityLib{}) }

type quantityLib struct{}

func (quantityLib) LibraryName() string { return "kubernetes.quantity" }

func (quantityLib) CompileOptions() []cel.EnvOption {
	q := QuantityType
	return []cel.EnvOption{
		cel.Function("quantity", cel.Overload("string_to_quantity", []*cel.Type{cel.StringType}, q, cel.UnaryBinding(stringToQuantity))),
		cel.Function("isQuantity", cel.Overload("is_quantity_string", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			s, ok := arg.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			_, err := resource.Parse(s)
			return types.Bool(err == nil)
		}))),
		cel.Function("sign", cel.Overload("quantity_sign", []*cel.Type{q}, cel.IntType, quantityUnary(func(x resource.Quantity) ref.Val { return types.Int(x.Sign()) }))),
		cel.Function("isGreaterThan", cel.MemberOverload("quantity_is_greater_than", []*cel.Type{q, q}, cel.BoolType, quantityBinary(func(x, y resource.Quantity) ref.Val { return types.Bool(x.Cmp(y) == 1) }))),
		cel.Function("isLessThan", cel.MemberOverload("quantity_is_less_than", []*cel.Type{q, q}, cel.BoolType, quantityBinary(func(x, y resource.Quantity) ref.Val { return types.Bool(x.Cmp(y) == -1) }))),
		cel.Function("compareTo", cel.MemberOverload("quantity_compare_to", []*cel.Type{q, q}, cel.IntType, quantityBinary(func(x, y resource.Quantity) ref.Val { return types.Int(x.Cmp(y)) }))),
		cel.Function("asApproximateFloat", cel.MemberOverload("quantity_get_float", []*cel.Type{q}, cel.DoubleType, quantityUnary(func(x resource.Quantity) ref.Val { return types.Double(x.AsApproximateFloat64()) }))),
		cel.Function("asInteger", cel.MemberOverload("quantity_get_int", []*cel.Type{q}, cel.IntType, quantityUnary(func(x resource.Quantity) ref.Val {
			v, ok := x.AsInt64()
			if !ok {
				return types.WrapErr(errors.New("cannot convert value to integer"))
			}
			return types.Int(v)
		}))),
		cel.Function("isInteger", cel.MemberOverload("quantity_is_integer", []*cel.Type{q}, cel.BoolType, quantityUnary(func(x resource.Quantity) ref.Val {
			_, ok := x.AsInt64()
			return types.Bool(ok)
		}))),
		// add and sub answer a pointer, as upstream does: such a result is
		// equal to nothing on the right of == (upstream's Equal wants a value).
		cel.Function("add",
			cel.MemberOverload("quantity_add", []*cel.Type{q, q}, q, quantityBinary(func(x, y resource.Quantity) ref.Val { return &Quantity{Quantity: x.Add(y)} })),
			cel.MemberOverload("quantity_add_int", []*cel.Type{q, cel.IntType}, q, quantityInt(func(x resource.Quantity, y int64) ref.Val {
				return &Quantity{Quantity: x.Add(resource.NewQuantity(y))}
			}))),
		cel.Function("sub",
			cel.MemberOverload("quantity_sub", []*cel.Type{q, q}, q, quantityBinary(func(x, y resource.Quantity) ref.Val { return &Quantity{Quantity: x.Sub(y)} })),
			cel.MemberOverload("quantity_sub_int", []*cel.Type{q, cel.IntType}, q, quantityInt(func(x resource.Quantity, y int64) ref.Val {
				return &Quantity{Quantity: x.Sub(resource.NewQuantity(y))}
			}))),
	}
}

func (quantityLib) ProgramOptions() []cel.ProgramOption { return nil }

func stringToQuantity(arg ref.Val) ref.Val {
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	x, err := resource.Parse(s)
	if err != nil {
		return types.WrapErr(err)
	}
	return Quantity{Quantity: x}
}

func quantityUnary(f func(resource.Quantity) ref.Val) cel.OverloadOpt {
	return cel.UnaryBinding(func(arg ref.Val) ref.Val {
		x, ok := arg.Value().(resource.Quantity)
		if !ok {
			return types.MaybeNoSuchOverloadErr(arg)
		}
		return f(x)
	})
}

func quantityBinary(f func(x, y resource.Quantity) ref.Val) cel.OverloadOpt {
	return cel.BinaryBinding(func(a, b ref.Val) ref.Val {
		x, ok := a.Value().(resource.Quantity)
		if !ok {
			return types.MaybeNoSuchOverloadErr(a)
		}
		y, ok := b.Value().(resource.Quantity)
		if !ok {
			return types.MaybeNoSuchOverloadErr(a)
		}
		return f(x, y)
	})
}

func quantityInt(f func(x resource.Quantity, y int64) ref.Val) cel.OverloadOpt {
	return cel.BinaryBinding(func(a, b ref.Val) ref.Val {
		x, ok := a.Value().(resource.Quantity)
		if !ok {
			return types.MaybeNoSuchOverloadErr(a)
		}
		y, ok := b.Value().(int64)
		if !ok {
			return types.MaybeNoSuchOverloadErr(a)
		}
		return f(x, y)
	})
}
