package workload

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCounter: items are counted and the continue token found however the stream is cut,
// whether the list's metadata comes before its items (crdlab) or after them (upstream).
func TestCounter(t *testing.T) {
	crd := NewCRD("objwidgets")
	var items []string
	for i := range 50 {
		items = append(items, string(crd.SizedObject("objects", ObjectName("o", i), i)))
	}
	body := strings.Join(items, ",")
	lists := map[string]string{
		"metadata first": `{"apiVersion":"bench.crdlab.dev/v1","kind":"ObjwidgetList","metadata":{"resourceVersion":"9","continue":"eyJ2IjoiIn0"},"items":[` + body + `]}`,
		"metadata last":  `{"apiVersion":"bench.crdlab.dev/v1","items":[` + body + `],"kind":"ObjwidgetList","metadata":{"continue":"eyJ2IjoiIn0","resourceVersion":"9"}}`,
	}
	for name, l := range lists {
		if !json.Valid([]byte(l)) {
			t.Fatalf("%s: not JSON", name)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for range 20 {
			c := newCounter([]byte(`"kind":"`+crd.Kind+`"`), []byte(`"continue":"`))
			rest := []byte(l)
			for len(rest) > 0 {
				k := min(len(rest), 1+rng.IntN(40))
				if _, err := c.Write(rest[:k]); err != nil {
					t.Fatal(err)
				}
				rest = rest[k:]
			}
			if c.count != 50 || c.value != "eyJ2IjoiIn0" {
				t.Fatalf("%s: count %d, continue %q; want 50 and the token", name, c.count, c.value)
			}
		}
	}
	c := newCounter([]byte(`"kind":"Objwidget"`), []byte(`"continue":"`))
	io.WriteString(c, `{"kind":"ObjwidgetList","metadata":{"resourceVersion":"3"},"items":[]}`)
	if c.count != 0 || c.value != "" {
		t.Errorf("empty list: count %d, continue %q", c.count, c.value)
	}
}

func TestSizedObject(t *testing.T) {
	crd := NewCRD("objwidgets")
	lo, hi := 1<<30, 0
	for i := range 1000 {
		b := crd.SizedObject("objects", ObjectName("o", i), i)
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
		lo, hi = min(lo, len(b)), max(hi, len(b))
	}
	if lo < 1000 || hi > 5000 {
		t.Errorf("objects weigh %d to %d bytes, want within 1 to 5 KB", lo, hi)
	}
}

func TestListRV(t *testing.T) {
	for _, l := range []string{
		`{"kind":"L","metadata":{"resourceVersion":"7"},"items":[{"metadata":{"resourceVersion":"5"}}]}`,
		`{"items":[{"metadata":{"resourceVersion":"5"}}],"kind":"L","metadata":{"resourceVersion":"7"}}`,
	} {
		if got := listRV([]byte(l)); got != "7" {
			t.Errorf("listRV(%s) = %q, want 7", l, got)
		}
	}
}

// TestCountPattern: countPattern counts what bytes.Count counts, with the pattern at the
// start, the end, overlapping its anchor, and absent.
func TestCountPattern(t *testing.T) {
	pat := []byte(`"kind":"Objwidget"`)
	for _, s := range []string{
		``, `"kind":"Objwidget"`, `x"kind":"Objwidget"`, `"kind":"Objwidget"x`,
		`"kind":"Objwidget""kind":"Objwidget"`, `Objwidget"kind":"ObjwidgetList"`,
		`"kind":"Obj"kind":"Objwidget"O`, `OOOO"kind":"OObjwidget"`, `"kind":"Objwidge`,
	} {
		if got, want := countPattern([]byte(s), pat), strings.Count(s, string(pat)); got != want {
			t.Errorf("%q: %d, want %d", s, got, want)
		}
	}
	if got := countPattern([]byte(`"a""a"`), []byte(`"a"`)); got != 2 {
		t.Errorf("a pattern without an upper-case letter: %d, want 2", got)
	}
}
