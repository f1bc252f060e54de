package handler

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDuplicateFields(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      []string
	}{
		{"None", `{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}`, nil},
		{"Top", `{"a":1,"a":2}`, []string{"a"}},
		{"Nested", `{"spec":{"replicas":1,"image":"x","replicas":2}}`, []string{"spec.replicas"}},
		{"InArray", `{"spec":{"items":[{"n":1},{"n":1,"n":2}]}}`, []string{"spec.items[1].n"}},
		{"ArrayOfArrays", `{"m":[[{"k":1,"k":2}]]}`, []string{"m[0][0].k"}},
		{"Twice", `{"a":1,"a":2,"a":3}`, []string{"a", "a"}},
		{"Escaped", `{"a":1,"\u0061":2}`, []string{"a"}},
		{"QuotesInStrings", `{"a":"x\"y","b":"}","a":"{"}`, []string{"a"}},
		{"Spaces", "{ \"a\" : 1 ,\n\t\"a\" : [ 1 , 2 ] }", []string{"a"}},
		{"Literals", `{"a":true,"b":null,"c":-1.5e3,"b":false}`, []string{"b"}},
		{"EmptyObjects", `{"a":{},"b":[],"a":{}}`, []string{"a"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, duplicateFields([]byte(c.doc)))
		})
	}
}

// TestDuplicateFields_ManyKeys checks an object past maxListedKeys, where
// the keys go into a map.
func TestDuplicateFields_ManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"spec":{`)
	for i := range 1000 {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	b.WriteString(`"k3":0,"k999":1}}`)
	require.Equal(t, []string{"spec.k3", "spec.k999"}, duplicateFields([]byte(b.String())))
}

func BenchmarkDuplicateFields(b *testing.B) {
	doc := []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c1","namespace":"default","labels":{"app":"x","tier":"y"}},"spec":{"cronSpec":"* * * * */5","image":"my-awesome-cron-image","replicas":3,"items":[{"a":1},{"b":2}]}}`)
	b.ReportAllocs()
	for b.Loop() {
		if duplicateFields(doc) != nil {
			b.Fatal("duplicates")
		}
	}
}
