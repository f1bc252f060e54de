package cel

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/crdlab/crdlab/apis/apiextensions/structural"
)

// UnstructuredToVal wraps a decoded JSON value (map[string]any, []any,
// string, int64, float64, bool, nil) as a CEL value typed by its schema
// node, without copying it: fields and items are converted as a rule reads
// them.
//
// Lists follow their x-kubernetes-list-type when compared with ==: a
// "set" ignores order, a "map" compares entries by key.
//
// Mirrors common.UnstructuredToVal in
// k8s.io/apiserver/pkg/cel/common/valuesunstructured.go.
func UnstructuredToVal(v any, s *structural.Structural) ref.Val {
	if v == nil {
		if s.Nullable {
			return types.NullValue
		}
		return types.NewErr("invalid data, got null for schema with nullable=false")
	}
	if s.XIntOrString {
		switch v := v.(type) {
		case string:
			return types.String(v)
		case int64:
			return types.Int(v)
		case int:
			return types.Int(v)
		case int32:
			return types.Int(v)
		}
		return types.NewErr("invalid data, expected XIntOrString value to be either a string or integer")
	}
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return types.NewErr("invalid data, expected a map for the provided schema with type=object")
		}
		if s.XEmbeddedResource || s.Properties != nil {
			if s.XEmbeddedResource {
				s = WithTypeAndObjectMeta(s)
			}
			return &unstructuredMap{value: m, schema: s, isObject: true, propSchema: func(k string) *structural.Structural { return s.Properties[k] }}
		}
		if s.AdditionalProperties != nil {
			return &unstructuredMap{value: m, schema: s, propSchema: func(string) *structural.Structural { return s.AdditionalProperties }}
		}
		return &unstructuredMap{value: m, schema: s, propSchema: func(string) *structural.Structural { return nil }}
	case "array":
		l, ok := v.([]any)
		if !ok {
			return types.NewErr("invalid data, expected an array for the provided schema with type=array")
		}
		if s.Items == nil {
			return types.NewErr("invalid array type, expected Items with a non-empty Schema")
		}
		list := unstructuredList{elements: l, itemsSchema: s.Items}
		if s.XListType == nil {
			return &list
		}
		switch *s.XListType {
		case "map":
			keys := make([]string, len(s.XListMapKeys))
			for i, k := range s.XListMapKeys {
				keys[i] = k
				if escaped, ok := Escape(k); ok {
					keys[i] = escaped
				}
			}
			return &unstructuredMapList{unstructuredList: list, escapedKeyProps: keys}
		case "set":
			return &unstructuredSetList{unstructuredList: list}
		case "atomic", "":
			return &list
		}
		return types.NewErr("invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got %s", *s.XListType)
	case "string":
		str, ok := v.(string)
		if !ok {
			return types.NewErr("invalid data, expected string, got %T", v)
		}
		switch s.Format {
		case "duration":
			d, err := parseStrfmtDuration(str)
			if err != nil {
				return types.NewErr("Invalid duration %s: %v", str, err)
			}
			return types.Duration{Duration: d}
		case "date":
			d, err := time.Parse("2006-01-02", str)
			if err != nil {
				return types.NewErr("Invalid date formatted string %s: %v", str, err)
			}
			return types.Timestamp{Time: d}
		case "date-time":
			d, err := parseStrfmtDateTime(str)
			if err != nil {
				return types.NewErr("Invalid date-time formatted string %s: %v", str, err)
			}
			return types.Timestamp{Time: d}
		case "byte":
			// strfmt.Base64 decodes with the URL alphabet.
			b, err := base64.URLEncoding.DecodeString(str)
			if err != nil {
				return types.NewErr("Invalid byte formatted string %s: %v", str, err)
			}
			return types.Bytes(b)
		}
		return types.String(str)
	case "number":
		switch v := v.(type) {
		case int64:
			return types.Double(v)
		case int:
			return types.Double(v)
		case float64:
			return types.Double(v)
		}
		return types.NewErr("invalid data, expected float, got %T", v)
	case "integer":
		switch v := v.(type) {
		case int64:
			return types.Int(v)
		case int:
			return types.Int(v)
		}
		return types.NewErr("invalid data, expected int, got %T", v)
	case "boolean":
		b, ok := v.(bool)
		if !ok {
			return types.NewErr("invalid data, expected bool, got %T", v)
		}
		return types.Bool(b)
	}
	if s.XPreserveUnknownFields {
		return &unknownPreserved{u: v}
	}
	return types.NewErr("invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got %s", s.Type)
}

// unknownPreserved is a value with no type (x-kubernetes-preserve-unknown-fields):
// a rule can compare it with ==, nothing else.
type unknownPreserved struct{ u any }

func (t *unknownPreserved) ConvertToNative(typeDesc reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion to '%s' not supported for values preserved by x-kubernetes-preserve-unknown-fields", typeDesc)
}

func (t *unknownPreserved) ConvertToType(typeValue ref.Type) ref.Val {
	return types.NewErr("type conversion to '%s' not supported for values preserved by x-kubernetes-preserve-unknown-fields", typeValue.TypeName())
}

func (t *unknownPreserved) Equal(other ref.Val) ref.Val {
	return types.Bool(reflect.DeepEqual(t.u, other.Value()))
}

func (t *unknownPreserved) Type() ref.Type { return types.UnknownType }
func (t *unknownPreserved) Value() any     { return t.u }

// unstructuredList is a list whose items are converted on access.
type unstructuredList struct {
	elements    []any
	itemsSchema *structural.Structural
}

var _ traits.Lister = (*unstructuredList)(nil)

func (t *unstructuredList) ConvertToNative(typeDesc reflect.Type) (any, error) {
	if typeDesc.Kind() == reflect.Slice {
		if t.itemsSchema.Type == "string" {
			var out []string
			for _, e := range t.elements {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("expected all elements to be of type string, but got %T", e)
				}
				out = append(out, s)
			}
			return out, nil
		}
		return t.elements, nil
	}
	return nil, fmt.Errorf("type conversion error from '%s' to '%s'", t.Type(), typeDesc)
}

func (t *unstructuredList) ConvertToType(typeValue ref.Type) ref.Val {
	switch typeValue {
	case types.ListType:
		return t
	case types.TypeType:
		return types.ListType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", t.Type(), typeValue.TypeName())
}

func (t *unstructuredList) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	n := types.Int(len(t.elements))
	if n != o.Size() {
		return types.False
	}
	for i := types.Int(0); i < n; i++ {
		if eq := t.Get(i).Equal(o.Get(i)); eq != types.True {
			return eq
		}
	}
	return types.True
}

func (t *unstructuredList) Type() ref.Type { return types.ListType }
func (t *unstructuredList) Value() any     { return t.elements }

func (t *unstructuredList) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	n, _ := o.Size().(types.Int)
	out := make([]ref.Val, 0, len(t.elements)+int(n))
	for i := range t.elements {
		out = append(out, t.Get(types.Int(i)))
	}
	for it := o.Iterator(); it.HasNext() == types.True; {
		out = append(out, it.Next())
	}
	return types.NewRefValList(types.DefaultTypeAdapter, out)
}

func (t *unstructuredList) Contains(val ref.Val) ref.Val {
	if types.IsUnknownOrError(val) {
		return val
	}
	var err ref.Val
	for _, e := range t.elements {
		cmp := UnstructuredToVal(e, t.itemsSchema).Equal(val)
		b, ok := cmp.(types.Bool)
		if !ok && err == nil {
			err = types.MaybeNoSuchOverloadErr(cmp)
		}
		if b == types.True {
			return types.True
		}
	}
	if err != nil {
		return err
	}
	return types.False
}

func (t *unstructuredList) Get(idx ref.Val) ref.Val {
	i, ok := idx.(types.Int)
	if !ok {
		return types.ValOrErr(idx, "unsupported index: %v", idx)
	}
	if i < 0 || int(i) >= len(t.elements) {
		return types.NewErr("index out of bounds: %v", idx)
	}
	return UnstructuredToVal(t.elements[i], t.itemsSchema)
}

func (t *unstructuredList) Iterator() traits.Iterator {
	items := make([]ref.Val, len(t.elements))
	for i, e := range t.elements {
		items[i] = UnstructuredToVal(e, t.itemsSchema)
	}
	return &sliceIterator{items: items}
}

func (t *unstructuredList) Size() ref.Val { return types.Int(len(t.elements)) }

// sliceIterator walks values already made.
type sliceIterator struct {
	baseIterator
	items []ref.Val
	idx   int
}

func (it *sliceIterator) HasNext() ref.Val { return types.Bool(it.idx < len(it.items)) }

func (it *sliceIterator) Next() ref.Val {
	v := it.items[it.idx]
	it.idx++
	return v
}

// baseIterator gives iterators the ref.Val methods CEL never calls on them.
type baseIterator struct{}

func (baseIterator) ConvertToNative(reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion on iterators not supported")
}
func (baseIterator) ConvertToType(ref.Type) ref.Val { return types.NewErr("no such overload") }
func (baseIterator) Equal(ref.Val) ref.Val          { return types.NewErr("no such overload") }
func (baseIterator) Type() ref.Type                 { return types.IteratorType }
func (baseIterator) Value() any                     { return nil }

// unstructuredSetList is an x-kubernetes-list-type=set list: == ignores
// order.
type unstructuredSetList struct {
	unstructuredList
	once   sync.Once
	set    map[any]struct{}
	setErr ref.Val
}

func (t *unstructuredSetList) getSet() (map[any]struct{}, ref.Val) {
	t.once.Do(func() {
		t.set = make(map[any]struct{}, len(t.elements))
		for i := range t.elements {
			k, err := setElementKey(t.Get(types.Int(i)))
			if err != nil {
				t.set, t.setErr = nil, err
				return
			}
			t.set[k] = struct{}{}
		}
	})
	return t.set, t.setErr
}

func (t *unstructuredSetList) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if types.Int(len(t.elements)) != o.Size() {
		return types.False
	}
	set, err := t.getSet()
	if err != nil {
		return err
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

func (t *unstructuredSetList) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	elements := make([]ref.Val, len(t.elements))
	for i := range t.elements {
		elements[i] = t.Get(types.Int(i))
	}
	return addToSetList(elements, o)
}

// unstructuredMapList is an x-kubernetes-list-type=map list: == compares
// entries by their keys, ignoring order.
type unstructuredMapList struct {
	unstructuredList
	escapedKeyProps []string
	once            sync.Once
	byKey           map[any]any
}

func (t *unstructuredMapList) getMap() map[any]any {
	t.once.Do(func() {
		t.byKey = make(map[any]any, len(t.elements))
		for _, e := range t.elements {
			t.byKey[t.toMapKey(e)] = e
		}
	})
	return t.byKey
}

// toMapKey mirrors (*unstructuredMapList).toMapKey: one, two or three key
// values as a comparable value, more as a printed list.
func (t *unstructuredMapList) toMapKey(element any) any {
	obj, ok := element.(map[string]any)
	if !ok {
		return types.NewErr("unexpected data format for element of array with x-kubernetes-list-type=map: %T", element)
	}
	switch len(t.escapedKeyProps) {
	case 1:
		return obj[t.escapedKeyProps[0]]
	case 2:
		return [2]any{obj[t.escapedKeyProps[0]], obj[t.escapedKeyProps[1]]}
	case 3:
		return [3]any{obj[t.escapedKeyProps[0]], obj[t.escapedKeyProps[1]], obj[t.escapedKeyProps[2]]}
	}
	key := make([]any, len(t.escapedKeyProps))
	for i, k := range t.escapedKeyProps {
		key[i] = obj[k]
	}
	return fmt.Sprintf("%#v", key)
}

func (t *unstructuredMapList) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if types.Int(len(t.elements)) != o.Size() {
		return types.False
	}
	byKey := t.getMap()
	seen := make(map[any]struct{}, len(byKey))
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := t.toMapKey(v.Value())
		mine, ok := byKey[k]
		if !ok {
			return types.False
		}
		if eq := UnstructuredToVal(mine, t.itemsSchema).Equal(v); eq != types.True {
			return eq
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(byKey))
}

func (t *unstructuredMapList) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	elements := make([]ref.Val, len(t.elements))
	for i := range t.elements {
		elements[i] = t.Get(types.Int(i))
	}
	return addToMapList(elements, o, t.escapedKeyProps)
}

// unstructuredMap is an object (isObject: its keys are property names,
// escaped for CEL) or a map (additionalProperties).
type unstructuredMap struct {
	value    map[string]any
	schema   *structural.Structural
	isObject bool
	// propSchema returns the schema of a key's value, nil if the key has
	// none (it is then invisible to rules).
	propSchema func(key string) *structural.Structural
}

var _ traits.Mapper = (*unstructuredMap)(nil)

func (t *unstructuredMap) ConvertToNative(typeDesc reflect.Type) (any, error) {
	if typeDesc.Kind() == reflect.Map {
		return t.value, nil
	}
	return nil, fmt.Errorf("type conversion error from '%s' to '%s'", t.Type(), typeDesc)
}

func (t *unstructuredMap) ConvertToType(typeValue ref.Type) ref.Val {
	switch typeValue {
	case types.MapType:
		return t
	case types.TypeType:
		return types.MapType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", t.Type(), typeValue.TypeName())
}

func (t *unstructuredMap) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Mapper)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if t.Size() != o.Size() {
		return types.False
	}
	for k, v := range t.value {
		if t.propSchema(k) != nil {
			mine, found := t.Find(types.String(k))
			theirs, oFound := o.Find(types.String(k))
			if found != oFound {
				return types.False
			}
			if !found {
				continue
			}
			if eq := mine.Equal(theirs); eq != types.True {
				return eq
			}
			continue
		}
		ou, ok := other.(*unstructuredMap)
		if !ok {
			return types.MaybeNoSuchOverloadErr(other)
		}
		if ov, ok := ou.value[k]; ok && !reflect.DeepEqual(v, ov) {
			return types.False
		}
	}
	return types.True
}

func (t *unstructuredMap) Type() ref.Type { return types.MapType }
func (t *unstructuredMap) Value() any     { return t.value }

func (t *unstructuredMap) Contains(key ref.Val) ref.Val {
	v, found := t.Find(key)
	if v != nil && types.IsUnknownOrError(v) {
		return v
	}
	return types.Bool(found)
}

func (t *unstructuredMap) Get(key ref.Val) ref.Val {
	if v, found := t.Find(key); found {
		return v
	}
	return types.ValOrErr(key, "no such key: %v", key)
}

// Iterator walks the keys that have a schema, escaped for an object. As
// upstream, the keys without one still count in the iteration length (they
// come out as nil), which can only happen next to preserved unknown fields.
func (t *unstructuredMap) Iterator() traits.Iterator {
	keys := make([]ref.Val, len(t.value))
	i := 0
	for k := range t.value {
		if t.propSchema(k) == nil {
			continue
		}
		if t.isObject {
			if escaped, ok := Escape(k); ok {
				k = escaped
			}
		}
		keys[i] = types.String(k)
		i++
	}
	return &sliceIterator{items: keys}
}

func (t *unstructuredMap) Size() ref.Val { return types.Int(len(t.value)) }

// Find returns the value of a key: for an object, the key is an escaped
// property name, and a property set to null is absent.
func (t *unstructuredMap) Find(key ref.Val) (ref.Val, bool) {
	ks, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key), true
	}
	k := string(ks)
	if t.isObject {
		if k, ok = Unescape(k); !ok {
			return nil, false
		}
	}
	v, ok := t.value[k]
	if !ok || t.isObject && v == nil {
		return nil, false
	}
	if s := t.propSchema(k); s != nil {
		return UnstructuredToVal(v, s), true
	}
	return nil, false
}
