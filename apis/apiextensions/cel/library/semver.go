package library

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// SemverLib adds semantic versions:
//
//	semver(string) Semver              semver("1.2.3")
//	semver(string, bool) Semver        semver("v01.2", true) normalizes (v1)
//	isSemver(string[, bool]) bool
//	<Semver>.major() / minor() / patch() int
//	<Semver>.isGreaterThan(Semver) / isLessThan(Semver) bool
//	<Semver>.compareTo(Semver) int
//
// Mirrors library.SemverLib in k8s.io/apiserver/pkg/cel/library/semverlib.go
// (version 1, the one upstream enables since 1.33).
func SemverLib() cel.EnvOption { return cel.Lib(semverLib{}) }

type semverLib struct{}

func (semverLib) LibraryName() string { return "kubernetes.Semver" }

func (semverLib) CompileOptions() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function("semver",
			cel.Overload("string_to_semver", []*cel.Type{cel.StringType}, SemverType, cel.UnaryBinding(func(s ref.Val) ref.Val { return toSemver(s, types.False) })),
			cel.Overload("string_bool_to_semver", []*cel.Type{cel.StringType, cel.BoolType}, SemverType, cel.BinaryBinding(toSemver))),
		cel.Function("isSemver",
			cel.Overload("is_semver_string", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(s ref.Val) ref.Val { return isSemver(s, types.False) })),
			cel.Overload("is_semver_string_bool", []*cel.Type{cel.StringType, cel.BoolType}, cel.BoolType, cel.BinaryBinding(isSemver))),
		cel.Function("isGreaterThan", cel.MemberOverload("semver_is_greater_than", []*cel.Type{SemverType, SemverType}, cel.BoolType,
			cel.BinaryBinding(semverCompare(func(c int) ref.Val { return types.Bool(c == 1) })))),
		cel.Function("isLessThan", cel.MemberOverload("semver_is_less_than", []*cel.Type{SemverType, SemverType}, cel.BoolType,
			cel.BinaryBinding(semverCompare(func(c int) ref.Val { return types.Bool(c == -1) })))),
		cel.Function("compareTo", cel.MemberOverload("semver_compare_to", []*cel.Type{SemverType, SemverType}, cel.IntType,
			cel.BinaryBinding(semverCompare(func(c int) ref.Val { return types.Int(c) })))),
		cel.Function("major", cel.MemberOverload("semver_major", []*cel.Type{SemverType}, cel.IntType,
			cel.UnaryBinding(semverPart(func(v Version) uint64 { return v.Major })))),
		cel.Function("minor", cel.MemberOverload("semver_minor", []*cel.Type{SemverType}, cel.IntType,
			cel.UnaryBinding(semverPart(func(v Version) uint64 { return v.Minor })))),
		cel.Function("patch", cel.MemberOverload("semver_patch", []*cel.Type{SemverType}, cel.IntType,
			cel.UnaryBinding(semverPart(func(v Version) uint64 { return v.Patch })))),
	}
}

func (semverLib) ProgramOptions() []cel.ProgramOption { return nil }

func parseSemverArgs(arg, normalizeArg ref.Val) (Version, ref.Val, error) {
	s, ok := arg.Value().(string)
	if !ok {
		return Version{}, types.MaybeNoSuchOverloadErr(arg), nil
	}
	normalize, ok := normalizeArg.Value().(bool)
	if !ok {
		return Version{}, types.MaybeNoSuchOverloadErr(arg), nil
	}
	if normalize {
		v, err := normalizeAndParse(s)
		return v, nil, err
	}
	v, err := ParseSemver(s)
	return v, nil, err
}

func toSemver(arg, normalize ref.Val) ref.Val {
	v, bad, err := parseSemverArgs(arg, normalize)
	if bad != nil {
		return bad
	}
	if err != nil {
		return types.WrapErr(err)
	}
	return Semver{Version: v}
}

func isSemver(arg, normalize ref.Val) ref.Val {
	_, bad, err := parseSemverArgs(arg, normalize)
	if bad != nil {
		return bad
	}
	return types.Bool(err == nil)
}

func semverCompare(result func(int) ref.Val) func(a, b ref.Val) ref.Val {
	return func(a, b ref.Val) ref.Val {
		v, ok := a.Value().(Version)
		if !ok {
			return types.MaybeNoSuchOverloadErr(a)
		}
		w, ok := b.Value().(Version)
		if !ok {
			return types.MaybeNoSuchOverloadErr(a)
		}
		return result(v.Compare(w))
	}
}

func semverPart(part func(Version) uint64) func(ref.Val) ref.Val {
	return func(a ref.Val) ref.Val {
		v, ok := a.Value().(Version)
		if !ok {
			return types.MaybeNoSuchOverloadErr(a)
		}
		return types.Int(part(v))
	}
}

// normalizeAndParse accepts "v1", "1.2", "01.02.03": it drops a leading v
// and leading zeros and fills missing minor and patch with 0.
//
// Mirrors normalizeAndParse in semverlib.go.
func normalizeAndParse(s string) (Version, error) {
	s = strings.TrimPrefix(s, "v")
	parts := strings.SplitN(s, ".", 3)
	for i, p := range parts {
		if len(p) > 1 {
			p = strings.TrimLeft(p, "0")
			if len(p) == 0 || !strings.ContainsAny(p[0:1], "0123456789") {
				p = "0" + p
			}
			parts[i] = p
		}
	}
	if len(parts) < 3 {
		if strings.ContainsAny(parts[len(parts)-1], "+-") {
			return Version{}, errors.New("short version cannot contain PreRelease/Build meta data")
		}
		for len(parts) < 3 {
			parts = append(parts, "0")
		}
	}
	return ParseSemver(strings.Join(parts, "."))
}

// Version is a semantic version: MAJOR.MINOR.PATCH[-pre][+build].
//
// Mirrors semver.Version of github.com/blang/semver/v4, which upstream's
// library uses.
type Version struct {
	Major, Minor, Patch uint64
	Pre                 []prerelease
	Build               []string
}

// prerelease is one dot-separated part of a pre-release: numeric or not.
type prerelease struct {
	str   string
	num   uint64
	isNum bool
}

const (
	semverNumbers  = "0123456789"
	semverAlphanum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-" + semverNumbers
)

// ParseSemver reads a strict semantic version, with blang/semver's error
// messages.
func ParseSemver(s string) (Version, error) {
	if len(s) == 0 {
		return Version{}, errors.New("Version string empty")
	}
	parts := strings.SplitN(s, ".", 3)
	if len(parts) != 3 {
		return Version{}, errors.New("No Major.Minor.Patch elements found")
	}
	var v Version
	var err error
	if v.Major, err = semverNumber(parts[0], "major"); err != nil {
		return Version{}, err
	}
	if v.Minor, err = semverNumber(parts[1], "minor"); err != nil {
		return Version{}, err
	}
	patch := parts[2]
	var build, pre []string
	if i := strings.IndexRune(patch, '+'); i != -1 {
		build = strings.Split(patch[i+1:], ".")
		patch = patch[:i]
	}
	if i := strings.IndexRune(patch, '-'); i != -1 {
		pre = strings.Split(patch[i+1:], ".")
		patch = patch[:i]
	}
	if v.Patch, err = semverNumber(patch, "patch"); err != nil {
		return Version{}, err
	}
	for _, p := range pre {
		if len(p) == 0 {
			return Version{}, errors.New("Prerelease is empty")
		}
		switch {
		case containsOnly(p, semverNumbers):
			if len(p) > 1 && p[0] == '0' {
				return Version{}, fmt.Errorf("Numeric PreRelease version must not contain leading zeroes %q", p)
			}
			n, err := strconv.ParseUint(p, 10, 64)
			if err != nil {
				return Version{}, err
			}
			v.Pre = append(v.Pre, prerelease{num: n, isNum: true})
		case containsOnly(p, semverAlphanum):
			v.Pre = append(v.Pre, prerelease{str: p})
		default:
			return Version{}, fmt.Errorf("Invalid character(s) found in prerelease %q", p)
		}
	}
	for _, b := range build {
		if len(b) == 0 {
			return Version{}, errors.New("Build meta data is empty")
		}
		if !containsOnly(b, semverAlphanum) {
			return Version{}, fmt.Errorf("Invalid character(s) found in build meta data %q", b)
		}
		v.Build = append(v.Build, b)
	}
	return v, nil
}

func semverNumber(s, which string) (uint64, error) {
	if !containsOnly(s, semverNumbers) {
		return 0, fmt.Errorf("Invalid character(s) found in %s number %q", which, s)
	}
	if len(s) > 1 && s[0] == '0' {
		return 0, fmt.Errorf("%s number must not contain leading zeroes %q", strings.ToUpper(which[:1])+which[1:], s)
	}
	return strconv.ParseUint(s, 10, 64)
}

func containsOnly(s, set string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune(set, r) }) == -1
}

// Compare returns -1, 0 or 1; build metadata is ignored and a version with
// a pre-release is lower than the same version without one.
func (v Version) Compare(o Version) int {
	for _, c := range [][2]uint64{{v.Major, o.Major}, {v.Minor, o.Minor}, {v.Patch, o.Patch}} {
		if c[0] != c[1] {
			if c[0] > c[1] {
				return 1
			}
			return -1
		}
	}
	switch {
	case len(v.Pre) == 0 && len(o.Pre) == 0:
		return 0
	case len(v.Pre) == 0:
		return 1
	case len(o.Pre) == 0:
		return -1
	}
	for i := 0; i < len(v.Pre) && i < len(o.Pre); i++ {
		if c := v.Pre[i].compare(o.Pre[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(v.Pre) == len(o.Pre):
		return 0
	case len(v.Pre) < len(o.Pre):
		return -1
	}
	return 1
}

func (p prerelease) compare(o prerelease) int {
	switch {
	case p.isNum && !o.isNum:
		return -1
	case !p.isNum && o.isNum:
		return 1
	case p.isNum:
		return cmpOrdered(p.num, o.num)
	}
	return cmpOrdered(p.str, o.str)
}

func cmpOrdered[T uint64 | string](a, b T) int {
	switch {
	case a > b:
		return 1
	case a < b:
		return -1
	}
	return 0
}

// String renders the version back.
func (v Version) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d.%d.%d", v.Major, v.Minor, v.Patch)
	for i, p := range v.Pre {
		if i == 0 {
			b.WriteByte('-')
		} else {
			b.WriteByte('.')
		}
		if p.isNum {
			b.WriteString(strconv.FormatUint(p.num, 10))
		} else {
			b.WriteString(p.str)
		}
	}
	for i, s := range v.Build {
		if i == 0 {
			b.WriteByte('+')
		} else {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}
