package patch_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/crdlab/crdlab/machinery/patch"
)

// FuzzMergePatch checks that MergePatch never panics, that it answers
// valid JSON or a *patch.Error, and that patching with the result of
// CreateMergePatch is idempotent.
func FuzzMergePatch(f *testing.F) {
	seeds := [][2]string{
		{`{"a":"b"}`, `{"a":null}`},
		{`{"a":{"b":"c"}}`, `{"a":{"b":"d","c":null}}`},
		{`[1,2]`, `{"a":"b","c":null}`},
		{`{}`, `{"a":{"bb":{"ccc":null}}}`},
		{`{"a":1}`, `"x"`},
		{`{`, `{}`},
		{`{}`, `[[[[`},
		{`{"n":1e400}`, `{"m":-0.0}`},
	}
	for _, s := range seeds {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, doc, p []byte) {
		out, err := patch.MergePatch(doc, p)
		if err != nil {
			var pe *patch.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is %T, want *patch.Error", err, err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("MergePatch(%q, %q) = %q, not JSON", doc, p, out)
		}
		// A merge patch is idempotent (RFC 7386, section 1).
		again, err := patch.MergePatch(out, p)
		if err != nil {
			t.Fatalf("second MergePatch: %v", err)
		}
		if string(again) != string(out) {
			t.Fatalf("not idempotent: %s then %s", out, again)
		}
		if cp, err := patch.CreateMergePatch(doc, out); err == nil {
			if _, err := patch.MergePatch(doc, cp); err != nil {
				t.Fatalf("MergePatch with CreateMergePatch's %s: %v", cp, err)
			}
		}
	})
}

// FuzzJSONPatch checks that JSONPatch never panics and answers valid JSON
// or a *patch.Error.
func FuzzJSONPatch(f *testing.F) {
	seeds := [][2]string{
		{`{"foo":["bar","baz"]}`, `[{"op":"add","path":"/foo/1","value":"qux"}]`},
		{`{"foo":{"bar":"baz","waldo":"fred"}}`, `[{"op":"move","from":"/foo/waldo","path":"/qux"}]`},
		{`{"a":[1,2,3]}`, `[{"op":"remove","path":"/a/1"},{"op":"copy","from":"/a","path":"/b"}]`},
		{`{"/":9,"~1":10}`, `[{"op":"test","path":"/~01","value":10}]`},
		{`{"a":{}}`, `[{"op":"move","from":"/a","path":"/a/b"}]`},
		{`{"a":1}`, `[{"op":"replace","path":"","value":[]}]`},
		{`[]`, `[{"op":"add","path":"/-","value":1}]`},
		{`{}`, `[{"op":"copy","from":"","path":"/x"}]`},
		{`{}`, `{}`},
	}
	for _, s := range seeds {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, doc, p []byte) {
		out, err := patch.JSONPatch(doc, p)
		if err != nil {
			var pe *patch.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is %T, want *patch.Error", err, err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("JSONPatch(%q, %q) = %q, not JSON", doc, p, out)
		}
	})
}
