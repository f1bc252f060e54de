package scheme

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// kindByUnmarshal is Kind as it was: json.Unmarshal into the two fields.
func kindByUnmarshal(data []byte) (GroupVersionKind, error) {
	j, err := ToJSON(data)
	if err != nil {
		return GroupVersionKind{}, err
	}
	var tm struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := json.Unmarshal(j, &tm); err != nil {
		return GroupVersionKind{}, fmt.Errorf("couldn't get version/kind; json parse error: %w", err)
	}
	return kindOf(j, tm.APIVersion, tm.Kind)
}

// TestKind_SameAsUnmarshal: Kind (and KindUnchecked on valid JSON) say
// what json.Unmarshal into apiVersion and kind says, error text included,
// on tricky documents and on random mixes of their pieces.
func TestKind_SameAsUnmarshal(t *testing.T) {
	docs := []string{
		`{"apiVersion":"v1","kind":"Secret"}`,
		` {"kind":"Secret" , "apiVersion" : "v1", "data":{"a":"b}\"{"}} `,
		`{"apiVersion":"v1","kind":"A","kind":"B"}`,
		`{"apiVersion":"v1","kind":"A","Kind":"B"}`,
		`{"apiVersion":"v1","KIND":"B"}`,
		`{"apiversion":"v1","kind":"B"}`,
		`{"apiVersion":"v1","kind":null}`,
		`{"apiVersion":"v1","kind":"A","kind":null}`,
		`{"apiVersion":"v1","kind":1}`,
		`{"apiVersion":"v1","kind":"\u0041"}`,
		`{"apiVersion":"v1","ki\u006ed":"A"}`,
		`{"apiVersion":"v1","kind":"Ä"}`,
		"{\"apiVersion\":\"v1\",\"\u212aind\":\"A\"}",
		`{"apiVersion":"v1","kind":"A","spec":[1,{"x":[true,false,null]},"]"],"n":-1.5e3}`,
		`{"apiVersion":"v1","kind":"A"} {}`,
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"spec":{"kind":"x","apiVersion":"y"}}`,
		`{"kind":"CronTab","apiVersion":"stable.example.com/v1","kind":"Other"}`,
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","KIND":"Other"}`,
		`{"APIVersion":"stable.example.com/v1","kind":"CronTab"}`,
		`{"apiVersion":"a/b/c","kind":"CronTab"}`,
		`{"apiVersion":5,"kind":"CronTab"}`,
		`{"apiVersion":"v1","kind":"A"`,
		`{"apiVersion":"v1","kind":"A",}`,
		`{"apiVersion":"v1" "kind":"A"}`,
		`{"apiVersion":"v1","kind":"A","x":tru}`,
		`{"apiVersion":"v1","kind":"A","x":{]}`,
		`{}`,
		`[]`,
		`"kind"`,
		`{"kind":"A"}`,
		`{"apiVersion":"a/b/c","kind":"A"}`,
		"apiVersion: v1\nkind: Secret\n",
	}
	check := func(doc string) {
		t.Helper()
		want, wantErr := kindByUnmarshal([]byte(doc))
		got, gotErr := Kind([]byte(doc))
		if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("Kind(%q) = %v, %v; json.Unmarshal says %v, %v", doc, got, gotErr, want, wantErr)
		}
		if json.Valid([]byte(doc)) {
			got, gotErr := KindUnchecked([]byte(doc))
			if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("KindUnchecked(%q) = %v, %v; json.Unmarshal says %v, %v", doc, got, gotErr, want, wantErr)
			}
		}
	}
	for _, doc := range docs {
		check(doc)
	}
	pieces := []string{`{`, `}`, `[`, `]`, `,`, `:`, ` `, `"apiVersion"`, `"kind"`, `"Kind"`, `"v1"`, `"A"`, `null`, `1`, `"x"`, `"\""`, `"\\"`, `true`}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		doc := ""
		for range 1 + r.IntN(12) {
			doc += pieces[r.IntN(len(pieces))]
		}
		check(doc)
	}
	// Objects whose keys repeat or differ in case, values of every type.
	keys := []string{`"apiVersion"`, `"kind"`, `"Kind"`, `"APIVERSION"`, `"spec"`, `"k\u0069nd"`, `"kind "`}
	values := []string{`"v1"`, `"g/v"`, `"A"`, `""`, `null`, `1`, `{"kind":"B"}`, `["kind"]`, `"\u0041"`, `true`}
	for range 20000 {
		doc := "{"
		for i := range r.IntN(5) {
			if i > 0 {
				doc += ","
			}
			doc += keys[r.IntN(len(keys))] + ":" + values[r.IntN(len(values))]
		}
		check(doc + "}")
	}
}
