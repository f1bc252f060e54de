package jsonpath

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Execute evaluates the expression against obj and returns every value it
// selects, in document order (map keys sorted where a step visits all of
// them). A missing field, an index out of range or a null selects nothing:
// the result is then empty and the error nil. The error is for values of
// the wrong kind, e.g. an index applied to an object.
//
// The values are obj's own (not copies): do not modify them.
//
// Mirrors (*jsonpath.JSONPath).FindResults with AllowMissingKeys(true).
func (j *JSONPath) Execute(obj map[string]any) ([]any, error) {
	return j.ExecuteValue(obj)
}

// ExecuteValue is Execute on any JSON value (map[string]any, []any,
// string, a number, bool or nil).
func (j *JSONPath) ExecuteValue(v any) ([]any, error) {
	return evalSteps(j.steps, []any{v})
}

func evalSteps(steps []step, in []any) ([]any, error) {
	var err error
	for _, s := range steps {
		if in, err = s.eval(in); err != nil {
			return nil, err
		}
		if len(in) == 0 {
			return nil, nil
		}
	}
	return in, nil
}

// A step maps each input value to zero or more values. Mirrors the node
// kinds of client-go's jsonpath (FieldNode, ArrayNode, WildcardNode,
// RecursiveNode, FilterNode).
type step interface {
	eval(in []any) ([]any, error)
	String() string
}

// field selects an object's member. Mirrors evalField.
type field struct{ name string }

func (f field) eval(in []any) ([]any, error) {
	var out []any
	for _, v := range in {
		if m, ok := v.(map[string]any); ok {
			if e, ok := m[f.name]; ok {
				out = append(out, e)
			}
		}
	}
	return out, nil
}

func (f field) String() string {
	if isSimpleName(f.name) {
		return "." + f.name
	}
	return "[" + quote(f.name) + "]"
}

func isSimpleName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func quote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// wildcard selects every member of an object (in key order) or element of
// an array. Mirrors evalWildcard.
type wildcard struct{}

func (wildcard) eval(in []any) ([]any, error) {
	var out []any
	for _, v := range in {
		out = append(out, children(v)...)
	}
	return out, nil
}

func (wildcard) String() string { return "[*]" }

func children(v any) []any {
	switch v := v.(type) {
	case map[string]any:
		out := make([]any, 0, len(v))
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = append(out, v[k])
		}
		return out
	case []any:
		return v
	}
	return nil
}

// notArray is upstream's error for an index, slice or filter applied to
// something that is not an array.
func notArray(v any) error { return fmt.Errorf("%T is not array or slice", v) }

// index selects one array element; negative counts from the end. Mirrors
// evalArray with one index.
type index struct{ i int }

func (x index) eval(in []any) ([]any, error) {
	var out []any
	for _, v := range in {
		if v == nil {
			continue
		}
		a, ok := v.([]any)
		if !ok {
			return nil, notArray(v)
		}
		i := x.i
		if i < 0 {
			i += len(a)
		}
		if i >= 0 && i < len(a) {
			out = append(out, a[i])
		}
	}
	return out, nil
}

func (x index) String() string { return "[" + strconv.Itoa(x.i) + "]" }

// slice selects elements start ≤ i < end, every step-th, Python style.
// Mirrors evalArray with a range.
type slice struct{ start, end, step *int }

func (s slice) eval(in []any) ([]any, error) {
	var out []any
	for _, v := range in {
		if v == nil {
			continue
		}
		a, ok := v.([]any)
		if !ok {
			return nil, notArray(v)
		}
		n := len(a)
		clamp := func(p *int, def int) int {
			if p == nil {
				return def
			}
			i := *p
			if i < 0 {
				i += n
			}
			return max(0, min(i, n))
		}
		start, end, step := clamp(s.start, 0), clamp(s.end, n), 1
		if s.step != nil {
			step = *s.step
		}
		for i := start; i < end; i += step {
			out = append(out, a[i])
		}
	}
	return out, nil
}

func (s slice) String() string {
	part := func(p *int) string {
		if p == nil {
			return ""
		}
		return strconv.Itoa(*p)
	}
	r := "[" + part(s.start) + ":" + part(s.end)
	if s.step != nil {
		r += ":" + part(s.step)
	}
	return r + "]"
}

// recursive applies its step to every value and all of its descendants
// ("..name"). Mirrors evalRecursive.
type recursive struct{ inner step }

func (r recursive) eval(in []any) ([]any, error) {
	var all []any
	var walk func(v any)
	walk = func(v any) {
		all = append(all, v)
		for _, c := range children(v) {
			walk(c)
		}
	}
	for _, v := range in {
		walk(v)
	}
	var out []any
	for _, v := range all {
		// Index, slice and filter steps look at the arrays only, instead
		// of failing on the first value that is not one.
		switch r.inner.(type) {
		case index, slice, filter:
			if _, isArray := v.([]any); !isArray {
				continue
			}
		}
		got, err := r.inner.eval([]any{v})
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

func (r recursive) String() string { return ".." + strings.TrimPrefix(r.inner.String(), ".") }

// filter selects the array elements for which left op right holds, or
// (op "exists") for which left selects something. Mirrors evalFilter.
type filter struct {
	left, right operand
	op          string
}

// operand is a relative path ("@.type") or a literal (string, float64,
// bool).
type operand struct {
	isPath  bool
	path    []step
	literal any
}

func (o operand) values(elem any) ([]any, error) {
	if !o.isPath {
		return []any{o.literal}, nil
	}
	return evalSteps(o.path, []any{elem})
}

func (o operand) String() string {
	if !o.isPath {
		switch l := o.literal.(type) {
		case string:
			return quote(l)
		case float64:
			return strconv.FormatFloat(l, 'g', -1, 64)
		default:
			return fmt.Sprint(l)
		}
	}
	var b strings.Builder
	b.WriteString("@")
	for _, s := range o.path {
		b.WriteString(s.String())
	}
	return b.String()
}

func (f filter) eval(in []any) ([]any, error) {
	var out []any
	for _, v := range in {
		if v == nil {
			continue
		}
		a, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("%T is not array or slice and cannot be filtered", v)
		}
		for _, elem := range a {
			lefts, err := f.left.values(elem)
			if err != nil {
				return nil, err
			}
			if len(lefts) == 0 {
				continue
			}
			if f.op == "exists" {
				out = append(out, elem)
				continue
			}
			rights, err := f.right.values(elem)
			if err != nil {
				return nil, err
			}
			if len(rights) == 0 {
				continue
			}
			if len(lefts) > 1 || len(rights) > 1 {
				return nil, fmt.Errorf("can only compare one element at a time")
			}
			if compare(lefts[0], f.op, rights[0]) {
				out = append(out, elem)
			}
		}
	}
	return out, nil
}

func (f filter) String() string {
	if f.op == "exists" {
		return "[?(" + f.left.String() + ")]"
	}
	return "[?(" + f.left.String() + f.op + f.right.String() + ")]"
}

// compare applies op to two JSON values: numbers by value, strings in
// byte order, anything else for (in)equality only.
func compare(a any, op string, b any) bool {
	fa, aNum := number(a)
	fb, bNum := number(b)
	var c int
	switch {
	case aNum && bNum:
		c = cmpFloat(fa, fb)
	case isString(a) && isString(b):
		c = strings.Compare(a.(string), b.(string))
	default:
		eq := equalJSON(a, b)
		switch op {
		case "==":
			return eq
		case "!=":
			return !eq
		}
		return false
	}
	switch op {
	case "==":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	return false
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func isString(v any) bool { _, ok := v.(string); return ok }

// number reads any Go number type a JSON decoder produces.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

func equalJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}
