package unstructured_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

// TestAppendString_SameAsEncodingJSON quotes strings made of every
// ASCII byte, multi-byte runes, the line and paragraph separators and
// bytes that are not UTF-8 (alone and cut short): the bytes json.Marshal
// writes.
func TestAppendString_SameAsEncodingJSON(t *testing.T) {
	var pieces []string
	for c := range 0x80 {
		pieces = append(pieces, string(rune(c)))
	}
	pieces = append(pieces, "é", "日本", "😀", "\u2028", "\u2029", "\xff", "\xe6\x97", "\xc3", "\xed\xa0\x80", "plain text ")
	r := rand.New(rand.NewPCG(9, 10))
	check := func(s string) {
		t.Helper()
		want, _ := json.Marshal(s)
		if got := unstructured.AppendString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Fatalf("%q: wrote %s, json.Marshal writes %s", s, got[1:], want)
		}
	}
	check("")
	for _, p := range pieces {
		check(p)
	}
	for range 5000 {
		s := ""
		for range r.IntN(12) {
			s += pieces[r.IntN(len(pieces))]
		}
		check(s)
	}
}
