package library

import (
	"fmt"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// Lists adds list functions (version 0, plus includes from version 1):
//
//	<list<T>>.isSorted() bool            T comparable
//	<list<T>>.sum() T                    T int, uint, double, duration
//	<list<T>>.min() T / max() T          error on an empty list
//	<list<T>>.indexOf(T) int / lastIndexOf(T) int   -1 if absent
//	<dyn>.includes(dyn) bool             (version ≥ 1)
//
// Mirrors library.Lists in k8s.io/apiserver/pkg/cel/library/lists.go.
func Lists(version uint32) cel.EnvOption { return cel.Lib(lists{version: version}) }

type lists struct{ version uint32 }

func (lists) LibraryName() string { return "kubernetes.lists" }

type namedType struct {
	name string
	t    *cel.Type
}

var (
	summableTypes = []namedType{
		{"int", cel.IntType}, {"uint", cel.UintType}, {"double", cel.DoubleType}, {"duration", cel.DurationType},
	}
	comparableTypes = []namedType{
		{"int", cel.IntType}, {"uint", cel.UintType}, {"double", cel.DoubleType}, {"bool", cel.BoolType},
		{"duration", cel.DurationType}, {"timestamp", cel.TimestampType}, {"string", cel.StringType}, {"bytes", cel.BytesType},
	}
	zeroOf = map[string]ref.Val{
		"int": types.Int(0), "uint": types.Uint(0), "double": types.Double(0), "duration": types.Duration{},
	}
)

func (l lists) CompileOptions() []cel.EnvOption {
	each := func(ts []namedType, overload func(namedType) cel.FunctionOpt) []cel.FunctionOpt {
		var out []cel.FunctionOpt
		for _, t := range ts {
			out = append(out, overload(t))
		}
		return out
	}
	paramA := cel.TypeParamType("A")
	opts := []cel.EnvOption{
		cel.Function("isSorted", each(comparableTypes, func(t namedType) cel.FunctionOpt {
			return cel.MemberOverload(fmt.Sprintf("list_%s_is_sorted_bool", t.name), []*cel.Type{cel.ListType(t.t)}, cel.BoolType, cel.UnaryBinding(isSorted))
		})...),
		cel.Function("sum", each(summableTypes, func(t namedType) cel.FunctionOpt {
			zero := zeroOf[t.name]
			return cel.MemberOverload(fmt.Sprintf("list_%s_sum_%s", t.name, t.name), []*cel.Type{cel.ListType(t.t)}, t.t, cel.UnaryBinding(func(l ref.Val) ref.Val { return sum(zero, l) }))
		})...),
		cel.Function("max", each(comparableTypes, func(t namedType) cel.FunctionOpt {
			return cel.MemberOverload(fmt.Sprintf("list_%s_max_%s", t.name, t.name), []*cel.Type{cel.ListType(t.t)}, t.t, cel.UnaryBinding(extreme("max", types.IntNegOne)))
		})...),
		cel.Function("min", each(comparableTypes, func(t namedType) cel.FunctionOpt {
			return cel.MemberOverload(fmt.Sprintf("list_%s_min_%s", t.name, t.name), []*cel.Type{cel.ListType(t.t)}, t.t, cel.UnaryBinding(extreme("min", types.IntOne)))
		})...),
		cel.Function("indexOf", cel.MemberOverload("list_a_index_of_int", []*cel.Type{cel.ListType(paramA), paramA}, cel.IntType, cel.BinaryBinding(indexOf(false)))),
		cel.Function("lastIndexOf", cel.MemberOverload("list_a_last_index_of_int", []*cel.Type{cel.ListType(paramA), paramA}, cel.IntType, cel.BinaryBinding(indexOf(true)))),
	}
	if l.version >= 1 {
		opts = append(opts, cel.Function("includes", cel.MemberOverload("list_includes_dyn_dyn", []*cel.Type{cel.DynType, cel.DynType}, cel.BoolType, cel.BinaryBinding(includes))))
	}
	return opts
}

func (lists) ProgramOptions() []cel.ProgramOption { return nil }

func isSorted(val ref.Val) ref.Val {
	it, ok := val.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(val)
	}
	var prev traits.Comparer
	for i := it.Iterator(); i.HasNext() == types.True; {
		next := i.Next()
		c, ok := next.(traits.Comparer)
		if !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		if prev != nil && prev.Compare(next) == types.IntOne {
			return types.False
		}
		prev = c
	}
	return types.True
}

func sum(zero, val ref.Val) ref.Val {
	acc, ok := zero.(traits.Adder)
	if !ok {
		return types.MaybeNoSuchOverloadErr(zero)
	}
	it, ok := val.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(val)
	}
	for i := it.Iterator(); i.HasNext() == types.True; {
		next := i.Next()
		if _, ok := next.(traits.Adder); !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		s := acc.Add(next)
		if acc, ok = s.(traits.Adder); !ok {
			return types.MaybeNoSuchOverloadErr(s)
		}
	}
	return acc.(ref.Val)
}

// extreme returns the element that wins when Compare says prefer.
func extreme(name string, prefer ref.Val) func(ref.Val) ref.Val {
	return func(val ref.Val) ref.Val {
		it, ok := val.(traits.Iterable)
		if !ok {
			return types.MaybeNoSuchOverloadErr(val)
		}
		var result traits.Comparer
		for i := it.Iterator(); i.HasNext() == types.True; {
			next := i.Next()
			c, ok := next.(traits.Comparer)
			if !ok {
				return types.MaybeNoSuchOverloadErr(next)
			}
			if result == nil || result.Compare(next) == prefer {
				result = c
			}
		}
		if result == nil {
			return types.NewErr("%s called on empty list", name)
		}
		return result.(ref.Val)
	}
}

func indexOf(last bool) func(list, item ref.Val) ref.Val {
	return func(list, item ref.Val) ref.Val {
		l, ok := list.(traits.Lister)
		if !ok {
			return types.MaybeNoSuchOverloadErr(list)
		}
		n := l.Size().(types.Int)
		for k := types.Int(0); k < n; k++ {
			i := k
			if last {
				i = n - 1 - k
			}
			if l.Get(i).Equal(item) == types.True {
				return i
			}
		}
		return types.Int(-1)
	}
}

func includes(target, arg ref.Val) ref.Val {
	if l, ok := target.(traits.Lister); ok {
		for it := l.Iterator(); it.HasNext() == types.True; {
			if it.Next().Equal(arg) == types.True {
				return types.True
			}
		}
		return types.False
	}
	return types.Bool(target.Equal(arg) == types.True)
}
