package cel

import (
	"fmt"
	"reflect"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// Adding to a set or a map list keeps its list type: set + list appends
// only the new elements, map + list replaces entries with the same keys
// in place and appends the others.
//
// Mirrors addToSetList, addToMapList and their list types in
// k8s.io/apiserver/pkg/cel/common/valuesreflect.go.

func addToSetList(elements []ref.Val, other traits.Lister) ref.Val {
	set := make(map[any]struct{}, len(elements))
	for _, e := range elements {
		k, err := setElementKey(e)
		if err != nil {
			return err
		}
		set[k] = struct{}{}
	}
	for it := other.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k, err := setElementKey(v)
		if err != nil {
			return err
		}
		if _, ok := set[k]; !ok {
			set[k] = struct{}{}
			elements = append(elements, v)
		}
	}
	return &refValSetList{Lister: types.NewRefValList(types.DefaultTypeAdapter, elements)}
}

// setElementKey is a comparable key for a scalar element.
func setElementKey(e ref.Val) (any, ref.Val) {
	switch e.(type) {
	case traits.Lister, traits.Mapper:
		return nil, types.NewErr("listSet operations are only supported on lists of scalar values")
	}
	raw := e.Value()
	if raw != nil && !reflect.TypeOf(raw).Comparable() {
		return fmt.Sprintf("%#v", raw), nil
	}
	return raw, nil
}

// refValSetList is the result of adding to a set.
type refValSetList struct{ traits.Lister }

func (l *refValSetList) elements() []ref.Val {
	n, _ := l.Size().(types.Int)
	out := make([]ref.Val, int(n))
	for i := range n {
		out[i] = l.Get(i)
	}
	return out
}

func (l *refValSetList) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return addToSetList(l.elements(), o)
}

func (l *refValSetList) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if l.Size() != o.Size() {
		return types.False
	}
	set := map[any]struct{}{}
	for _, e := range l.elements() {
		k, err := setElementKey(e)
		if err != nil {
			return err
		}
		set[k] = struct{}{}
	}
	seen := make(map[any]struct{}, len(set))
	for it := o.Iterator(); it.HasNext() == types.True; {
		k, err := setElementKey(it.Next())
		if err != nil {
			return err
		}
		if _, ok := set[k]; !ok {
			return types.False
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(set))
}

func addToMapList(elements []ref.Val, other traits.Lister, keys []string) ref.Val {
	at := make(map[any]int, len(elements))
	for i, e := range elements {
		at[refValMapKey(e, keys)] = i
	}
	for it := other.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		if i, ok := at[refValMapKey(v, keys)]; ok {
			elements[i] = v
		} else {
			elements = append(elements, v)
		}
	}
	return &refValMapList{Lister: types.NewRefValList(types.DefaultTypeAdapter, elements), escapedKeyProps: keys}
}

// refValMapKey is the comparable key of a map-list element made of CEL
// values (a missing key field counts as null).
func refValMapKey(e ref.Val, keys []string) any {
	get := func(prop string) any {
		key := types.String(prop)
		var v ref.Val
		found := false
		switch m := e.(type) {
		case traits.Mapper:
			v, found = m.Find(key)
		case traits.Indexer:
			if t, ok := e.(traits.FieldTester); ok {
				found = t.IsSet(key) == types.True
			}
			if found {
				v = m.Get(key)
			}
		}
		if !found || v == nil || types.IsUnknownOrError(v) {
			return nil
		}
		raw := v.Value()
		if raw != nil && !reflect.TypeOf(raw).Comparable() {
			return fmt.Sprintf("%#v", raw)
		}
		return raw
	}
	switch len(keys) {
	case 1:
		return get(keys[0])
	case 2:
		return [2]any{get(keys[0]), get(keys[1])}
	case 3:
		return [3]any{get(keys[0]), get(keys[1]), get(keys[2])}
	}
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = get(k)
	}
	return fmt.Sprintf("%#v", out)
}

// refValMapList is the result of adding to a map list.
type refValMapList struct {
	traits.Lister
	escapedKeyProps []string
}

func (l *refValMapList) elements() []ref.Val {
	n, _ := l.Size().(types.Int)
	out := make([]ref.Val, int(n))
	for i := range n {
		out[i] = l.Get(i)
	}
	return out
}

func (l *refValMapList) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return addToMapList(l.elements(), o, l.escapedKeyProps)
}

func (l *refValMapList) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if l.Size() != o.Size() {
		return types.False
	}
	byKey := map[any]ref.Val{}
	for _, e := range l.elements() {
		byKey[refValMapKey(e, l.escapedKeyProps)] = e
	}
	seen := make(map[any]struct{}, len(byKey))
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := refValMapKey(v, l.escapedKeyProps)
		e, ok := byKey[k]
		if !ok {
			return types.False
		}
		if eq := e.Equal(v); eq != types.True {
			return eq
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(byKey))
}
