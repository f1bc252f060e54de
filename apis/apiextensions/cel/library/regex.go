package library

import (
	"regexp"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// Regex adds regular-expression search (RE2 syntax, as matches()):
//
//	<string>.find(regex) string               first match, or ""
//	<string>.findAll(regex[, int]) list<string> all (or the first n) matches
//
// A constant regex is compiled once, when the program is built.
//
// Mirrors library.Regex in k8s.io/apiserver/pkg/cel/library/regex.go.
func Regex() cel.EnvOption { return cel.Lib(regexLib{}) }

type regexLib struct{}

func (regexLib) LibraryName() string { return "kubernetes.regex" }

func (regexLib) CompileOptions() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function("find", cel.MemberOverload("string_find_string", []*cel.Type{cel.StringType, cel.StringType}, cel.StringType,
			cel.BinaryBinding(func(s, re ref.Val) ref.Val { return find(nil, s, re) }))),
		cel.Function("findAll",
			cel.MemberOverload("string_find_all_string", []*cel.Type{cel.StringType, cel.StringType}, cel.ListType(cel.StringType),
				cel.BinaryBinding(func(s, re ref.Val) ref.Val { return findAll(nil, s, re, types.Int(-1)) })),
			cel.MemberOverload("string_find_all_string_int", []*cel.Type{cel.StringType, cel.StringType, cel.IntType}, cel.ListType(cel.StringType),
				cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					if len(args) != 3 {
						return types.NoSuchOverloadErr()
					}
					return findAll(nil, args[0], args[1], args[2])
				}))),
	}
}

// ProgramOptions compiles constant regexes ahead, as upstream's
// FindRegexOptimization and FindAllRegexOptimization do.
func (regexLib) ProgramOptions() []cel.ProgramOption {
	optimize := func(fn string, call func(re *regexp.Regexp, args ...ref.Val) ref.Val) *interpreter.RegexOptimization {
		return &interpreter.RegexOptimization{
			Function:   fn,
			RegexIndex: 1,
			Factory: func(c interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
				re, err := regexp.Compile(pattern)
				if err != nil {
					return nil, err
				}
				return interpreter.NewCall(c.ID(), c.Function(), c.OverloadID(), c.Args(), func(args ...ref.Val) ref.Val {
					return call(re, args...)
				}), nil
			},
		}
	}
	return []cel.ProgramOption{cel.OptimizeRegex(
		optimize("find", func(re *regexp.Regexp, args ...ref.Val) ref.Val {
			if len(args) != 2 {
				return types.NoSuchOverloadErr()
			}
			return find(re, args[0], args[1])
		}),
		optimize("findAll", func(re *regexp.Regexp, args ...ref.Val) ref.Val {
			switch len(args) {
			case 2:
				return findAll(re, args[0], args[1], types.Int(-1))
			case 3:
				return findAll(re, args[0], args[1], args[2])
			}
			return types.NoSuchOverloadErr()
		}),
	)}
}

// compiled returns re, or compiles the pattern in reVal.
func compiled(re *regexp.Regexp, reVal ref.Val) (*regexp.Regexp, ref.Val) {
	if re != nil {
		return re, nil
	}
	pattern, ok := reVal.Value().(string)
	if !ok {
		return nil, types.MaybeNoSuchOverloadErr(reVal)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, types.NewErr("Illegal regex: %v", err.Error())
	}
	return re, nil
}

func find(re *regexp.Regexp, strVal, reVal ref.Val) ref.Val {
	s, ok := strVal.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(strVal)
	}
	re, bad := compiled(re, reVal)
	if bad != nil {
		return bad
	}
	return types.String(re.FindString(s))
}

func findAll(re *regexp.Regexp, strVal, reVal, nVal ref.Val) ref.Val {
	s, ok := strVal.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(strVal)
	}
	n, ok := nVal.Value().(int64)
	if !ok {
		return types.MaybeNoSuchOverloadErr(nVal)
	}
	re, bad := compiled(re, reVal)
	if bad != nil {
		return bad
	}
	return types.NewStringList(types.DefaultTypeAdapter, re.FindAllString(s, int(n)))
}
