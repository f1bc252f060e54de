package deepcopy_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/internal/deepcopy"
)

type inner struct {
	Values []int
	Any    any
}

type outer struct {
	Name   string
	Ptr    *inner
	Map    map[string]*inner
	Slice  []inner
	When   time.Time
	Array  [2]*int
	hidden int
}

func TestCopy(t *testing.T) {
	one := 1
	now := time.Now()
	in := &outer{
		Name:   "a",
		Ptr:    &inner{Values: []int{1, 2}, Any: map[string]any{"k": []any{"v"}}},
		Map:    map[string]*inner{"x": {Values: []int{3}}},
		Slice:  []inner{{Values: []int{4}}},
		When:   now,
		Array:  [2]*int{&one, nil},
		hidden: 7,
	}
	out := deepcopy.Copy(in)
	require.Equal(t, in, out)

	// Change every reachable piece of the copy: the original must not move.
	out.Ptr.Values[0] = 100
	out.Ptr.Any.(map[string]any)["k"].([]any)[0] = "changed"
	out.Map["x"].Values[0] = 100
	out.Slice[0].Values[0] = 100
	*out.Array[0] = 100
	require.Equal(t, 1, in.Ptr.Values[0])
	require.Equal(t, "v", in.Ptr.Any.(map[string]any)["k"].([]any)[0])
	require.Equal(t, 3, in.Map["x"].Values[0])
	require.Equal(t, 4, in.Slice[0].Values[0])
	require.Equal(t, 1, one)
	require.True(t, out.When.Equal(now), "time.Time keeps its unexported fields")
	require.Equal(t, 7, out.hidden, "unexported fields are copied by value")
}

func TestCopy_Nil(t *testing.T) {
	var p *outer
	require.Nil(t, deepcopy.Copy(p))
	out := deepcopy.Copy(outer{})
	require.Nil(t, out.Map)
	require.Nil(t, out.Slice)
}

func TestCopyJSON(t *testing.T) {
	in := map[string]any{"a": []any{map[string]any{"b": int64(1)}}, "s": "x", "n": nil}
	out := deepcopy.CopyJSON(in).(map[string]any)
	require.Equal(t, in, out)
	out["a"].([]any)[0].(map[string]any)["b"] = int64(2)
	require.Equal(t, int64(1), in["a"].([]any)[0].(map[string]any)["b"])
}

// TestCopy_Scalars: the optional scalars and string lists copied without
// reflection are copies (nil stays nil, empty stays empty and not nil).
func TestCopy_Scalars(t *testing.T) {
	i, f, s, b := int64(1), 1.5, "a", true
	ci, cf, cs, cb := deepcopy.Copy(&i), deepcopy.Copy(&f), deepcopy.Copy(&s), deepcopy.Copy(&b)
	require.True(t, ci != &i && cf != &f && cs != &s && cb != &b, "a pointer was shared")
	require.Equal(t, i, *ci)
	require.Equal(t, f, *cf)
	require.Equal(t, s, *cs)
	require.Equal(t, b, *cb)
	require.Nil(t, deepcopy.Copy((*int64)(nil)))
	require.Nil(t, deepcopy.Copy((*string)(nil)))

	list := []string{"x", "y"}
	cl := deepcopy.Copy(list)
	cl[0] = "changed"
	require.Equal(t, "x", list[0])
	require.Nil(t, deepcopy.Copy([]string(nil)))
	empty := deepcopy.Copy([]string{})
	require.NotNil(t, empty)
	require.Empty(t, empty)
}
