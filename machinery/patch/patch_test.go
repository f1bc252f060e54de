package patch_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/machinery/patch"
)

// jsonEqual reports whether two JSON texts hold equal values.
func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		t.Fatalf("bad JSON %q: %v", a, err)
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatalf("bad JSON %q: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}

// The examples of RFC 7386, Appendix A, and a few more.
func TestMergePatch(t *testing.T) {
	tests := []struct{ doc, patch, want string }{
		{`{"a":"b"}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"b"}`, `{"b":"c"}`, `{"a":"b","b":"c"}`},
		{`{"a":"b"}`, `{"a":null}`, `{}`},
		{`{"a":"b","b":"c"}`, `{"a":null}`, `{"b":"c"}`},
		{`{"a":["b"]}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"c"}`, `{"a":["b"]}`, `{"a":["b"]}`},
		{`{"a":{"b":"c"}}`, `{"a":{"b":"d","c":null}}`, `{"a":{"b":"d"}}`},
		{`{"a":[{"b":"c"}]}`, `{"a":[1]}`, `{"a":[1]}`},
		{`["a","b"]`, `["c","d"]`, `["c","d"]`},
		{`{"a":"b"}`, `["c"]`, `["c"]`},
		{`{"a":"foo"}`, `null`, `null`},
		{`{"a":"foo"}`, `"bar"`, `"bar"`},
		{`{"e":null}`, `{"a":1}`, `{"e":null,"a":1}`},
		{`[1,2]`, `{"a":"b","c":null}`, `{"a":"b"}`},
		{`{}`, `{"a":{"bb":{"ccc":null}}}`, `{"a":{"bb":{}}}`},
		{`{"a":1}`, `{}`, `{"a":1}`},
		{`{"spec":{"replicas":1,"image":"x"}}`, `{"spec":{"replicas":3}}`, `{"spec":{"replicas":3,"image":"x"}}`},
		{`{"metadata":{"labels":{"a":"1","b":"2"}}}`, `{"metadata":{"labels":{"a":null}}}`, `{"metadata":{"labels":{"b":"2"}}}`},
		{`{"a":{"b":1}}`, `{"a":{"c":[null]}}`, `{"a":{"b":1,"c":[null]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.doc+"+"+tt.patch, func(t *testing.T) {
			got, err := patch.MergePatch([]byte(tt.doc), []byte(tt.patch))
			if err != nil {
				t.Fatalf("MergePatch: %v", err)
			}
			if !jsonEqual(t, string(got), tt.want) {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestMergePatch_Numbers(t *testing.T) {
	got, err := patch.MergePatch([]byte(`{"big":10000000000000001,"f":1.50}`), []byte(`{"n":12345678901234567890}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"big":10000000000000001,"f":1.50,"n":12345678901234567890}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestMergePatch_Errors(t *testing.T) {
	tests := []struct {
		name, doc, patch string
		code             patch.Code
		msg              string
	}{
		{"ErrBadPatch", `{}`, `{"a":`, patch.CodeBadPatch, "Invalid JSON Patch"},
		{"ErrBadPatchTrailing", `{}`, `{} {}`, patch.CodeBadPatch, "Invalid JSON Patch"},
		{"ErrEmptyPatch", `{}`, ``, patch.CodeBadPatch, "Invalid JSON Patch"},
		{"ErrBadDocument", `{"a"`, `{}`, patch.CodeBadDocument, "Invalid JSON Document"},
		{"ErrTooDeep", `{}`, strings.Repeat("[", patch.MaxDepth+1) + strings.Repeat("]", patch.MaxDepth+1), patch.CodeBadPatch, "Invalid JSON Patch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := patch.MergePatch([]byte(tt.doc), []byte(tt.patch))
			checkError(t, err, tt.code, -1, tt.msg)
		})
	}
}

func checkError(t *testing.T, err error, code patch.Code, op int, msg string) {
	t.Helper()
	var pe *patch.Error
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v (%T), want *patch.Error", err, err)
	}
	if pe.Code != code || pe.Op != op {
		t.Errorf("Code, Op = %v, %d; want %v, %d", pe.Code, pe.Op, code, op)
	}
	if msg != "" && pe.Msg != msg {
		t.Errorf("message\n got: %s\nwant: %s", pe.Msg, msg)
	}
	sentinel := map[patch.Code]error{patch.CodeBadPatch: patch.ErrBadPatch, patch.CodeBadDocument: patch.ErrBadDocument,
		patch.CodeNotApplicable: patch.ErrNotApplicable, patch.CodeTooLarge: patch.ErrTooLarge}[code]
	if !errors.Is(err, sentinel) {
		t.Errorf("errors.Is(err, %v) = false", sentinel)
	}
}

func TestCreateMergePatch(t *testing.T) {
	tests := []struct{ orig, mod, want string }{
		{`{}`, `{}`, `{}`},
		{`{"a":1}`, `{"a":1}`, `{}`},
		{`{"a":1}`, `{"a":2}`, `{"a":2}`},
		{`{"a":1}`, `{}`, `{"a":null}`},
		{`{}`, `{"a":{"b":1}}`, `{"a":{"b":1}}`},
		{`{"a":{"b":1,"c":2}}`, `{"a":{"b":1,"c":3}}`, `{"a":{"c":3}}`},
		{`{"a":{"b":1}}`, `{"a":{"b":1}}`, `{}`},
		{`{"a":[1,2]}`, `{"a":[1,2,3]}`, `{"a":[1,2,3]}`},
		{`{"a":[1,2]}`, `{"a":[1,2]}`, `{}`},
		{`{"a":{"b":1}}`, `{"a":"x"}`, `{"a":"x"}`},
		{`{"a":1.0}`, `{"a":1}`, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.orig+"→"+tt.mod, func(t *testing.T) {
			got, err := patch.CreateMergePatch([]byte(tt.orig), []byte(tt.mod))
			if err != nil {
				t.Fatal(err)
			}
			if !jsonEqual(t, string(got), tt.want) {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			applied, err := patch.MergePatch([]byte(tt.orig), got)
			if err != nil {
				t.Fatal(err)
			}
			if !jsonEqual(t, string(applied), tt.mod) && tt.orig != `{"a":1.0}` {
				t.Errorf("MergePatch(orig, patch) = %s, want %s", applied, tt.mod)
			}
		})
	}
	t.Run("ErrNotObject", func(t *testing.T) {
		_, err := patch.CreateMergePatch([]byte(`[1]`), []byte(`{}`))
		checkError(t, err, patch.CodeBadDocument, -1, "Invalid JSON Document")
	})
}

// The examples of RFC 6902, Appendix A, and more.
func TestJSONPatch(t *testing.T) {
	tests := []struct{ name, doc, patch, want string }{
		{"A1AddMember", `{"foo":"bar"}`, `[{"op":"add","path":"/baz","value":"qux"}]`, `{"baz":"qux","foo":"bar"}`},
		{"A2AddElement", `{"foo":["bar","baz"]}`, `[{"op":"add","path":"/foo/1","value":"qux"}]`, `{"foo":["bar","qux","baz"]}`},
		{"A3RemoveMember", `{"baz":"qux","foo":"bar"}`, `[{"op":"remove","path":"/baz"}]`, `{"foo":"bar"}`},
		{"A4RemoveElement", `{"foo":["bar","qux","baz"]}`, `[{"op":"remove","path":"/foo/1"}]`, `{"foo":["bar","baz"]}`},
		{"A5Replace", `{"baz":"qux","foo":"bar"}`, `[{"op":"replace","path":"/baz","value":"boo"}]`, `{"baz":"boo","foo":"bar"}`},
		{"A6Move", `{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}`, `[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]`,
			`{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}`},
		{"A7MoveElement", `{"foo":["all","grass","cows","eat"]}`, `[{"op":"move","from":"/foo/1","path":"/foo/3"}]`, `{"foo":["all","cows","eat","grass"]}`},
		{"A8Test", `{"baz":"qux","foo":["a",2,"c"]}`, `[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]`, `{"baz":"qux","foo":["a",2,"c"]}`},
		{"A10AddNested", `{"foo":"bar"}`, `[{"op":"add","path":"/child","value":{"grandchild":{}}}]`, `{"foo":"bar","child":{"grandchild":{}}}`},
		{"A11IgnoreUnknown", `{"foo":"bar"}`, `[{"op":"add","path":"/baz","value":"qux","xyz":123}]`, `{"foo":"bar","baz":"qux"}`},
		{"A14Escapes", `{"/":9,"~1":10}`, `[{"op":"test","path":"/~01","value":10}]`, `{"/":9,"~1":10}`},
		{"A16AddArray", `{"foo":["bar"]}`, `[{"op":"add","path":"/foo/-","value":["abc","def"]}]`, `{"foo":["bar",["abc","def"]]}`},
		{"AddAppendIndex", `{"a":[1]}`, `[{"op":"add","path":"/a/1","value":2}]`, `{"a":[1,2]}`},
		{"AddReplacesMember", `{"a":1}`, `[{"op":"add","path":"/a","value":2}]`, `{"a":2}`},
		{"AddRoot", `{"a":1}`, `[{"op":"add","path":"","value":{"b":2}}]`, `{"b":2}`},
		{"ReplaceRoot", `{"a":1}`, `[{"op":"replace","path":"","value":[1]}]`, `[1]`},
		{"ReplaceElement", `{"a":[1,2]}`, `[{"op":"replace","path":"/a/0","value":9}]`, `{"a":[9,2]}`},
		{"ReplaceWithNull", `{"a":1}`, `[{"op":"replace","path":"/a","value":null}]`, `{"a":null}`},
		{"EmptyKey", `{"":1}`, `[{"op":"replace","path":"/","value":2}]`, `{"":2}`},
		{"SlashKey", `{"example.com/x":"a"}`, `[{"op":"replace","path":"/example.com~1x","value":"b"}]`, `{"example.com/x":"b"}`},
		{"Copy", `{"a":{"b":[1]}}`, `[{"op":"copy","from":"/a","path":"/c"},{"op":"add","path":"/c/b/-","value":2}]`, `{"a":{"b":[1]},"c":{"b":[1,2]}}`},
		{"MoveSame", `{"a":1}`, `[{"op":"move","from":"/a","path":"/a"}]`, `{"a":1}`},
		{"MoveToRoot", `{"a":{"b":1}}`, `[{"op":"move","from":"/a","path":""}]`, `{"b":1}`},
		{"TestNumbersByValue", `{"a":1}`, `[{"op":"test","path":"/a","value":1.0}]`, `{"a":1}`},
		{"TestObject", `{"a":{"x":[1,{"y":null}]}}`, `[{"op":"test","path":"/a","value":{"x":[1,{"y":null}]}}]`, `{"a":{"x":[1,{"y":null}]}}`},
		{"TestRoot", `{"a":1}`, `[{"op":"test","path":"","value":{"a":1}}]`, `{"a":1}`},
		{"Empty", `{"a":1}`, `[]`, `{"a":1}`},
		{"Sequence", `{"spec":{"replicas":1}}`, `[{"op":"test","path":"/spec/replicas","value":1},{"op":"replace","path":"/spec/replicas","value":3},{"op":"add","path":"/metadata","value":{}},{"op":"add","path":"/metadata/labels","value":{"a":"b"}}]`,
			`{"spec":{"replicas":3},"metadata":{"labels":{"a":"b"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := patch.JSONPatch([]byte(tt.doc), []byte(tt.patch))
			if err != nil {
				t.Fatalf("JSONPatch: %v", err)
			}
			if !jsonEqual(t, string(got), tt.want) {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestJSONPatch_Errors(t *testing.T) {
	tests := []struct {
		name, doc, patch string
		code             patch.Code
		op               int
		msg              string
	}{
		{"A9TestFails", `{"baz":"qux"}`, `[{"op":"test","path":"/baz","value":"bar"}]`, patch.CodeNotApplicable, 0, "testing value /baz failed: test failed"},
		{"A12AddToMissing", `{"foo":"bar"}`, `[{"op":"add","path":"/baz/bat","value":"qux"}]`, patch.CodeNotApplicable, 0, `add operation does not apply: doc is missing path: "/baz/bat": missing value`},
		{"A15StringIsNotNumber", `{"/":9,"~1":10}`, `[{"op":"test","path":"/~01","value":"10"}]`, patch.CodeNotApplicable, 0, "testing value /~01 failed: test failed"},
		{"TestMissing", `{}`, `[{"op":"test","path":"/a","value":null}]`, patch.CodeNotApplicable, 0, "test operation does not apply: is missing path: /a: missing value"},
		{"SecondOpFails", `{"a":1}`, `[{"op":"remove","path":"/a"},{"op":"remove","path":"/a"}]`, patch.CodeNotApplicable, 1, "error in remove for path: '/a': Unable to remove nonexistent key: a: missing value"},
		{"RemoveMissingParent", `{}`, `[{"op":"remove","path":"/a/b"}]`, patch.CodeNotApplicable, 0, `remove operation does not apply: doc is missing path: "/a/b": missing value`},
		{"RemoveBadIndex", `{"a":[1]}`, `[{"op":"remove","path":"/a/1"}]`, patch.CodeNotApplicable, 0, "error in remove for path: '/a/1': Unable to access invalid index: 1: invalid index referenced"},
		{"RemoveDash", `{"a":[1]}`, `[{"op":"remove","path":"/a/-"}]`, patch.CodeNotApplicable, 0, "error in remove for path: '/a/-': value was not a proper array index: '-'"},
		{"RemoveRoot", `{}`, `[{"op":"remove","path":""}]`, patch.CodeNotApplicable, 0, "remove operation does not apply: the whole document cannot be removed"},
		{"ReplaceMissingKey", `{}`, `[{"op":"replace","path":"/a","value":1}]`, patch.CodeNotApplicable, 0, "replace operation does not apply: doc is missing key: /a: missing value"},
		{"ReplaceMissingParent", `{}`, `[{"op":"replace","path":"/a/b","value":1}]`, patch.CodeNotApplicable, 0, "replace operation does not apply: doc is missing path: /a/b: missing value"},
		{"AddIndexOutOfRange", `{"a":[1]}`, `[{"op":"add","path":"/a/5","value":1}]`, patch.CodeNotApplicable, 0, "error in add for path: '/a/5': Unable to access invalid index: 5: invalid index referenced"},
		{"AddNegativeIndex", `{"a":[1]}`, `[{"op":"add","path":"/a/-1","value":1}]`, patch.CodeNotApplicable, 0, "error in add for path: '/a/-1': value was not a proper array index: '-1'"},
		{"AddLeadingZero", `{"a":[1]}`, `[{"op":"add","path":"/a/01","value":1}]`, patch.CodeNotApplicable, 0, "error in add for path: '/a/01': value was not a proper array index: '01'"},
		{"AddIntoScalar", `{"a":1}`, `[{"op":"add","path":"/a/b","value":1}]`, patch.CodeNotApplicable, 0, `add operation does not apply: doc is missing path: "/a/b": missing value`},
		{"AddNoValue", `{}`, `[{"op":"add","path":"/a"}]`, patch.CodeNotApplicable, 0, "add operation failed: missing value field"},
		{"NoPath", `{}`, `[{"op":"remove"}]`, patch.CodeNotApplicable, 0, "remove operation failed to decode path: missing value"},
		{"NoFrom", `{}`, `[{"op":"copy","path":"/a"}]`, patch.CodeNotApplicable, 0, "copy operation failed to decode from: missing value"},
		{"BadPointer", `{}`, `[{"op":"add","path":"a","value":1}]`, patch.CodeNotApplicable, 0, `add operation does not apply: invalid JSON pointer "a": must be empty or start with '/'`},
		{"BadEscape", `{}`, `[{"op":"add","path":"/a~2","value":1}]`, patch.CodeNotApplicable, 0, `add operation does not apply: invalid JSON pointer "/a~2": '~' must be followed by '0' or '1'`},
		{"UnknownOp", `{}`, `[{"op":"merge","path":"/a"}]`, patch.CodeNotApplicable, 0, "Unexpected kind: merge"},
		{"NoOp", `{}`, `[{"path":"/a"}]`, patch.CodeNotApplicable, 0, "Unexpected kind: unknown"},
		{"MoveIntoChild", `{"a":{"b":{}}}`, `[{"op":"move","from":"/a","path":"/a/b/c"}]`, patch.CodeNotApplicable, 0, "move operation does not apply: cannot move /a into its own child /a/b/c"},
		{"MoveMissingFrom", `{}`, `[{"op":"move","from":"/x","path":"/y"}]`, patch.CodeNotApplicable, 0, "move operation does not apply: doc is missing from path: /x: missing value"},
		{"MoveMissingDestination", `{"x":1}`, `[{"op":"move","from":"/x","path":"/y/z"}]`, patch.CodeNotApplicable, 0, "move operation does not apply: doc is missing destination path: /y/z: missing value"},
		{"CopyMissingFrom", `{}`, `[{"op":"copy","from":"/x","path":"/y"}]`, patch.CodeNotApplicable, 0, "copy operation does not apply: doc is missing from path: /x: missing value"},
		{"NotAnArray", `{}`, `{"op":"add"}`, patch.CodeBadPatch, -1, "invalid JSON patch: a JSON patch must be an array of operations"},
		{"NotJSON", `{}`, `[{"op":`, patch.CodeBadPatch, -1, ""},
		{"OpNotObject", `{}`, `[1]`, patch.CodeBadPatch, 0, "invalid JSON patch: operation 0 is not an object"},
		{"BadDocument", `{`, `[]`, patch.CodeBadDocument, -1, "Invalid JSON Document"},
		{"TooManyOps", `{}`, "[" + strings.TrimSuffix(strings.Repeat(`{"op":"test","path":""},`, patch.MaxOperations+1), ",") + "]",
			patch.CodeTooLarge, -1, fmt.Sprintf("The allowed maximum operations in a JSON patch is %d, got %d", patch.MaxOperations, patch.MaxOperations+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := patch.JSONPatch([]byte(tt.doc), []byte(tt.patch))
			if err == nil {
				t.Fatalf("JSONPatch = %s, want an error", got)
			}
			checkError(t, err, tt.code, tt.op, tt.msg)
		})
	}
}

// TestJSONPatch_CopyBomb: each copy doubles the document; the copy limit
// stops it long before memory runs out.
func TestJSONPatch_CopyBomb(t *testing.T) {
	doc := `{"a":"` + strings.Repeat("x", 1024) + `"}`
	var ops []string
	for i := 0; i < 40; i++ {
		ops = append(ops, fmt.Sprintf(`{"op":"copy","from":"","path":"/%d"}`, i))
	}
	_, err := patch.JSONPatch([]byte(doc), []byte("["+strings.Join(ops, ",")+"]"))
	checkError(t, err, patch.CodeTooLarge, 11, "")
}

// TestJSONPatch_Atomic: a failing patch leaves the original untouched.
func TestJSONPatch_Atomic(t *testing.T) {
	doc := []byte(`{"a":[1,2],"b":{"c":1}}`)
	orig := string(doc)
	_, err := patch.JSONPatch(doc, []byte(`[{"op":"remove","path":"/a/0"},{"op":"add","path":"/b/c","value":2},{"op":"test","path":"/a","value":[]}]`))
	if err == nil {
		t.Fatal("want an error")
	}
	if string(doc) != orig {
		t.Errorf("document changed to %s", doc)
	}
}
