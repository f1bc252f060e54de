package strategicpatch

import (
	"fmt"
	"reflect"
	"strings"
)

// The struct tags patch metadata is read from.
const (
	patchStrategyTag = "patchStrategy"
	patchMergeKeyTag = "patchMergeKey"
)

// PatchMeta is how one field merges: its patch strategies ("merge",
// "replace", "retainKeys"; none: a list is replaced whole, an object
// merged) and, for a list of objects merged by key, the key.
//
// Mirrors strategicpatch.PatchMeta.
type PatchMeta struct {
	Strategies []string
	MergeKey   string
}

// LookupPatchMeta finds the patch metadata of the fields of one object,
// and the LookupPatchMeta of the field's own value (for a list, of its
// elements), by the field's JSON name.
//
// Mirrors strategicpatch.LookupPatchMeta.
type LookupPatchMeta interface {
	// LookupPatchMetadataForStruct is for a field holding an object.
	LookupPatchMetadataForStruct(key string) (LookupPatchMeta, PatchMeta, error)
	// LookupPatchMetadataForSlice is for a field holding a list: the
	// LookupPatchMeta returned is that of its elements.
	LookupPatchMetadataForSlice(key string) (LookupPatchMeta, PatchMeta, error)
	// Name names the type, for errors.
	Name() string
}

// PatchMetaFromStruct reads patch metadata from the struct tags of a Go
// type: T is a struct (or a pointer to one) whose fields carry
// `patchStrategy` and `patchMergeKey` beside `json`.
//
// Mirrors strategicpatch.PatchMetaFromStruct.
type PatchMetaFromStruct struct {
	T reflect.Type
}

var _ LookupPatchMeta = PatchMetaFromStruct{}

// NewPatchMetaFromStruct returns the metadata of v's type, a struct or a
// pointer to one.
func NewPatchMetaFromStruct(v any) (PatchMetaFromStruct, error) {
	t := reflect.TypeOf(v)
	if t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return PatchMetaFromStruct{}, fmt.Errorf("expected a struct, but received a %T", v)
	}
	return PatchMetaFromStruct{T: t}, nil
}

// LookupPatchMetadataForStruct finds the field whose JSON name is key
// (exactly, else ignoring case, as encoding/json matches) and returns its
// type's metadata and its tags'.
//
// Mirrors LookupPatchMetadataForStruct in the forked golang/json
// fields.go.
func (s PatchMetaFromStruct) LookupPatchMetadataForStruct(key string) (LookupPatchMeta, PatchMeta, error) {
	t := s.T
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, PatchMeta{}, fmt.Errorf("merging an object in json but data type is not struct, instead is: %s", t.Kind())
	}
	f, ok := jsonField(t, key)
	if !ok {
		return nil, PatchMeta{}, fmt.Errorf("unable to find api field in struct %s for the json field %q", t.Name(), key)
	}
	return PatchMetaFromStruct{T: f.Type}, PatchMeta{
		Strategies: strings.Split(f.Tag.Get(patchStrategyTag), ","),
		MergeKey:   f.Tag.Get(patchMergeKeyTag),
	}, nil
}

// LookupPatchMetadataForSlice is LookupPatchMetadataForStruct for a list
// field: the metadata returned describes its elements.
//
// Mirrors (PatchMetaFromStruct).LookupPatchMetadataForSlice.
func (s PatchMetaFromStruct) LookupPatchMetadataForSlice(key string) (LookupPatchMeta, PatchMeta, error) {
	sub, meta, err := s.LookupPatchMetadataForStruct(key)
	if err != nil {
		return nil, PatchMeta{}, err
	}
	t := sub.(PatchMetaFromStruct).T
	switch t.Kind() {
	case reflect.Array, reflect.Slice:
		t = t.Elem()
		if t.Kind() == reflect.Array || t.Kind() == reflect.Slice {
			return nil, PatchMeta{}, fmt.Errorf("unexpected slice of slice")
		}
	case reflect.Pointer: // to a list, or (as upstream allows) to anything
		t = t.Elem()
		if t.Kind() == reflect.Array || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
	default:
		return nil, PatchMeta{}, fmt.Errorf("expected slice or array type, but got: %s", s.T.Kind())
	}
	return PatchMetaFromStruct{T: t}, meta, nil
}

// Name is the kind of the type ("struct", "map").
func (s PatchMetaFromStruct) Name() string { return s.T.Kind().String() }

// jsonField finds the field of struct t that encoding/json reads key
// into: fields of embedded structs without a JSON name (`json:",inline"`
// or untagged) count as t's own, a shallower field wins over a deeper
// one, and an exact name over one that differs in case.
func jsonField(t reflect.Type, key string) (reflect.StructField, bool) {
	var fold *reflect.StructField
	level := []reflect.Type{t}
	for depth := 0; len(level) > 0 && depth < 16; depth++ {
		var next []reflect.Type
		for _, st := range level {
			for i := range st.NumField() {
				f := st.Field(i)
				tag := f.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, _, _ := strings.Cut(tag, ",")
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
					next = append(next, ft)
					continue
				}
				if !f.IsExported() {
					continue
				}
				if name == "" {
					name = f.Name
				}
				if name == key {
					return f, true
				}
				if fold == nil && strings.EqualFold(name, key) {
					fold = &f
				}
			}
		}
		if fold != nil {
			return *fold, true
		}
		level = next
	}
	return reflect.StructField{}, false
}
