package structural

import (
	"encoding/json"

	"github.com/crdlab/crdlab/apis/validation/field"
)

// ValidateListSetsAndMaps checks the uniqueness rules of list types in obj:
// the elements of an x-kubernetes-list-type set, and the key fields
// (x-kubernetes-list-map-keys) of the elements of a map, must be unique.
// Each duplicate is reported once, at its second appearance, as
// "Duplicate value". Validate includes it; on update upstream reports it
// only when the old object had no such duplicates (ratcheting).
//
// Mirrors listtype.ValidateListSetsAndMaps in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype/validation.go.
func ValidateListSetsAndMaps(fldPath *field.Path, s *Structural, obj map[string]any) field.ErrorList {
	if s == nil || obj == nil || s.noListSetMap {
		return nil
	}
	var errs field.ErrorList
	keys := sortedKeys(obj)
	if s.AdditionalProperties != nil {
		for _, k := range keys {
			errs = append(errs, listSetsAndMaps(fldPath.Key(k), s.AdditionalProperties, obj[k])...)
		}
	}
	for _, k := range keys {
		if sub, ok := s.Properties[k]; ok {
			errs = append(errs, listSetsAndMaps(fldPath.Child(k), sub, obj[k])...)
		}
	}
	return errs
}

func listSetsAndMaps(fldPath *field.Path, s *Structural, x any) field.ErrorList {
	if s.noListSetMap {
		return nil
	}
	switch x := x.(type) {
	case []any:
		return listSetsAndMapsArray(fldPath, s, x)
	case map[string]any:
		return ValidateListSetsAndMaps(fldPath, s, x)
	}
	return nil
}

func listSetsAndMapsArray(fldPath *field.Path, s *Structural, list []any) field.ErrorList {
	var errs field.ErrorList
	if s.XListType != nil {
		switch *s.XListType {
		case "set":
			for _, i := range nonUnique(list) {
				errs = append(errs, field.Duplicate(fldPath.Index(i), list[i]))
			}
		case "map":
			errs = append(errs, validateListMap(fldPath, s, list)...)
		}
	}
	if s.Items != nil {
		for i, x := range list {
			errs = append(errs, listSetsAndMaps(fldPath.Index(i), s.Items, x)...)
		}
	}
	return errs
}

// unspecifiedKey stands for an element's missing key field: it differs
// from null and from every value.
type unspecifiedKey struct{}

// validateListMap mirrors validateListMap: elements must be objects (or
// null), and their keys unique. With one key field the duplicate is shown
// as {key: value}, or {} for a missing key.
func validateListMap(fldPath *field.Path, s *Structural, list []any) field.ErrorList {
	for i, x := range list {
		if _, ok := x.(map[string]any); x != nil && !ok {
			return field.ErrorList{field.Invalid(fldPath.Index(i), x, "must be an object for an array of list-type map")}
		}
	}
	if len(list) <= 1 {
		return nil
	}
	keys := make([]any, len(list))
	if len(s.XListMapKeys) == 1 {
		k := s.XListMapKeys[0]
		for i, x := range list {
			keys[i] = unspecifiedKey{}
			if m, ok := x.(map[string]any); ok {
				if v, found := m[k]; found {
					keys[i] = v
				}
			}
		}
		var errs field.ErrorList
		for _, i := range nonUnique(keys) {
			if keys[i] == (unspecifiedKey{}) {
				errs = append(errs, field.Duplicate(fldPath.Index(i), map[string]any{}))
			} else {
				errs = append(errs, field.Duplicate(fldPath.Index(i), map[string]any{k: keys[i]}))
			}
		}
		return errs
	}
	for i, x := range list {
		key := map[string]any{}
		if m, ok := x.(map[string]any); ok {
			for _, k := range s.XListMapKeys {
				if v, found := m[k]; found {
					key[k] = v
				}
			}
		}
		keys[i] = key
	}
	var errs field.ErrorList
	for _, i := range nonUnique(keys) {
		errs = append(errs, field.Duplicate(fldPath.Index(i), keys[i]))
	}
	return errs
}

// nonUnique returns the indexes at which a value appears for the second
// time. Scalars compare as Go values (so 1 and 1.0, an int64 and a
// float64, differ, as upstream), objects and lists by their JSON.
// Mirrors validateListSet.
func nonUnique(list []any) []int {
	if len(list) <= 1 {
		return nil
	}
	scalars := make(map[any]int, len(list))
	compounds := map[string]int{}
	var out []int
	for i, x := range list {
		var times int
		switch x.(type) {
		case map[string]any, []any:
			b, err := json.Marshal(x)
			if err != nil {
				continue
			}
			times = compounds[string(b)]
			compounds[string(b)]++
		default:
			times = scalars[x]
			scalars[x]++
		}
		if times == 1 {
			out = append(out, i)
		}
	}
	return out
}
