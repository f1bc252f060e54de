package specmemo_test

import (
	"bytes"
	"fmt"

	"github.com/crdlab/crdlab/internal/specmemo"
)

type spec struct {
	Group    string
	Versions []string
}

func Example() {
	memo := specmemo.New(func(s *spec) []string { return s.Versions })
	specJSON := fmt.Appendf(nil, `{"group":"example.com","pad":%q}`, bytes.Repeat([]byte("x"), specmemo.MinJSON))

	// The first reader decodes the spec whole, and remembers it.
	decoded := spec{Group: "example.com", Versions: []string{"v1"}}
	decoded = memo.Remember(specJSON, decoded)

	// The next reader of the same JSON shares it, read only.
	shared, ok := memo.Lookup(specJSON)
	fmt.Println(ok, &shared.Versions[0] == &decoded.Versions[0])

	// A writer of a CRD with that spec copies its JSON.
	e := memo.Find(&shared)
	fmt.Println(bytes.Equal(e.JSON, specJSON))
	st := memo.Stats()
	fmt.Printf("hits %d, decoded whole %d\n", st.Hits, st.Added)
	// Output:
	// true true
	// true
	// hits 2, decoded whole 1
}
