package strategicpatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// The directives a patch may carry, and the one strategy that is not a
// directive's value.
const (
	directiveMarker  = "$patch"
	deleteDirective  = "delete"
	replaceDirective = "replace"
	mergeDirective   = "merge"

	retainKeysStrategy                     = "retainKeys"
	retainKeysDirective                    = "$" + retainKeysStrategy
	deleteFromPrimitiveListDirectivePrefix = "$deleteFromPrimitiveList"
	setElementOrderDirectivePrefix         = "$setElementOrder"
)

// StrategicMergePatch applies patch (a JSON object) to original (a JSON
// object) with the patch metadata of schema, and returns the result.
// Numbers keep their text. An error is ErrBadJSONDoc when either is not a
// JSON object, a format error (IsBadFormat), ErrNoListOfLists, or one
// that says which element or directive could not apply.
//
// Mirrors StrategicMergePatchUsingLookupPatchMeta.
func StrategicMergePatch(original, patch []byte, schema LookupPatchMeta) ([]byte, error) {
	o, err := decodeObject(original)
	if err != nil {
		return nil, err
	}
	p, err := decodeObject(patch)
	if err != nil {
		return nil, err
	}
	out, err := StrategicMergeMapPatch(o, p, schema)
	if err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

// StrategicMergeMapPatch applies patch to original, both decoded JSON
// objects (numbers as json.Number), and returns the result. Both maps are
// changed: pass copies to keep them.
//
// Mirrors StrategicMergeMapPatchUsingLookupPatchMeta: the merge options of
// applying a patch (parallel lists are applied, nulls the original lacks
// are dropped) are the only ones, so they are not parameters.
func StrategicMergeMapPatch(original, patch map[string]any, schema LookupPatchMeta) (map[string]any, error) {
	return mergeMap(original, patch, schema)
}

// decodeObject parses one JSON object, numbers as json.Number; "null" is
// no object (a nil map).
func decodeObject(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadJSONDoc, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: unexpected data after the JSON object", ErrBadJSONDoc)
	}
	return m, nil
}

// mergeMap merges the fields of patch into original: null deletes a
// field, a field original lacks (or holds another kind of value in) is
// taken from the patch without its directives and nulls, an object merges
// by the field's strategy (mergeMapHandler), a list too (mergeSliceHandler),
// and a scalar replaces. Before that, the object's own directives apply:
// $patch, $retainKeys, $setElementOrder/<list>; $deleteFromPrimitiveList/
// <list> applies to its list. original is changed and returned.
//
// Mirrors mergeMap in patch.go.
func mergeMap(original, patch map[string]any, schema LookupPatchMeta) (map[string]any, error) {
	if v, ok := patch[directiveMarker]; ok {
		return handleDirectiveInMergeMap(v, patch)
	}
	if original == nil {
		original = map[string]any{}
	}
	if err := applyRetainKeysDirective(original, patch); err != nil {
		return nil, err
	}
	if err := mergePatchIntoOriginal(original, patch, schema); err != nil {
		return nil, err
	}
	for _, k := range sortedKeys(patch) {
		patchV := patch[k]
		isDeleteList := false
		if strings.HasPrefix(k, deleteFromPrimitiveListDirectivePrefix) {
			key, err := extractKey(k, deleteFromPrimitiveListDirectivePrefix)
			if err != nil {
				return nil, err
			}
			k, isDeleteList = key, true
		}
		if patchV == nil {
			delete(original, k)
			continue
		}
		originalV, ok := original[k]
		if !ok || reflect.TypeOf(originalV) != reflect.TypeOf(patchV) {
			if !isDeleteList {
				discardNullValuesFromPatch(patchV)
				if v, keep := removeDirectives(patchV); keep {
					original[k] = v
				} else {
					delete(original, k)
				}
			}
			continue
		}
		var err error
		switch originalV := originalV.(type) {
		case map[string]any:
			sub, meta, lookupErr := schema.LookupPatchMetadataForStruct(k)
			if lookupErr != nil {
				return nil, lookupErr
			}
			_, strategy, strategyErr := extractRetainKeysPatchStrategy(meta.Strategies)
			if strategyErr != nil {
				return nil, strategyErr
			}
			original[k], err = mergeMapHandler(originalV, patchV.(map[string]any), sub, strategy)
		case []any:
			sub, meta, lookupErr := schema.LookupPatchMetadataForSlice(k)
			if lookupErr != nil {
				return nil, lookupErr
			}
			_, strategy, strategyErr := extractRetainKeysPatchStrategy(meta.Strategies)
			if strategyErr != nil {
				return nil, strategyErr
			}
			original[k], err = mergeSliceHandler(originalV, patchV.([]any), sub, strategy, meta.MergeKey, isDeleteList)
		default:
			original[k] = patchV
		}
		if err != nil {
			return nil, err
		}
	}
	return original, nil
}

// handleDirectiveInMergeMap applies an object's $patch: replace takes the
// patch (without the directive) as the whole object, delete leaves an
// empty object; merge, the default, is not allowed here.
//
// Mirrors handleDirectiveInMergeMap.
func handleDirectiveInMergeMap(directive any, patch map[string]any) (map[string]any, error) {
	switch directive {
	case replaceDirective:
		delete(patch, directiveMarker)
		return patch, nil
	case deleteDirective:
		return map[string]any{}, nil
	}
	return nil, errBadPatchType(directive, patch)
}

// mergeMapHandler merges an object field unless its strategy is replace.
func mergeMapHandler(original, patch map[string]any, schema LookupPatchMeta, strategy string) (map[string]any, error) {
	if strategy == replaceDirective {
		return patch, nil
	}
	return mergeMap(original, patch, schema)
}

// mergeSliceHandler merges a list field whose strategy is merge, and
// applies a $deleteFromPrimitiveList whatever the strategy; any other
// list is replaced by the patch's.
func mergeSliceHandler(original, patch []any, schema LookupPatchMeta, strategy, mergeKey string, isDeleteList bool) ([]any, error) {
	if strategy == mergeDirective || isDeleteList {
		return mergeSlice(original, patch, schema, mergeKey, isDeleteList)
	}
	return patch, nil
}

// mergeSlice merges two lists. Scalars: the union (or, for a delete
// list, original without patch's values). Objects: by mergeKey, after the
// elements with a $patch (delete: drop original's element with that key;
// replace: the patch's elements are the list). The result keeps the
// patch's order for the patch's elements and original's for the others,
// interleaved as original had them.
//
// Mirrors mergeSlice.
func mergeSlice(original, patch []any, schema LookupPatchMeta, mergeKey string, isDeleteList bool) ([]any, error) {
	if len(original) == 0 && len(patch) == 0 {
		return original, nil
	}
	t, err := sliceElementType(original, patch)
	if err != nil {
		return nil, err
	}
	kind := t.Kind()
	var merged []any
	if kind != reflect.Map {
		if isDeleteList {
			return deleteFromSlice(original, patch), nil
		}
		merged = deduplicateScalars(append(slices.Clip(original), patch...))
	} else {
		if mergeKey == "" {
			return nil, fmt.Errorf("cannot merge lists without merge key for %s", schema.Name())
		}
		original, patch, err = mergeSliceWithSpecialElements(original, patch, mergeKey)
		if err != nil {
			return nil, err
		}
		merged, err = mergeSliceWithoutSpecialElements(original, patch, mergeKey, schema)
		if err != nil {
			return nil, err
		}
	}
	var patchItems, serverOnlyItems []any
	if mergeKey == "" {
		patchItems, serverOnlyItems = partitionPrimitivesByPresentInList(merged, patch)
	} else if patchItems, serverOnlyItems, err = partitionMapsByPresentInList(merged, patch, mergeKey); err != nil {
		return nil, err
	}
	return normalizeElementOrder(patchItems, serverOnlyItems, patch, original, mergeKey, kind)
}

// mergeSliceWithSpecialElements applies the list elements with a $patch
// and returns original and the patch without them.
func mergeSliceWithSpecialElements(original, patch []any, mergeKey string) ([]any, []any, error) {
	without := []any{}
	replace := false
	for _, v := range patch {
		m := v.(map[string]any) // sliceElementType: all are objects
		directive, ok := m[directiveMarker]
		if !ok {
			without = append(without, v)
			continue
		}
		switch directive {
		case deleteDirective:
			value, ok := m[mergeKey]
			if !ok {
				return nil, nil, errNoMergeKey(m, mergeKey)
			}
			var err error
			if original, err = deleteMatchingEntries(original, mergeKey, value); err != nil {
				return nil, nil, err
			}
		case replaceDirective:
			replace = true // and go on, dropping the other $patch elements
		case mergeDirective:
			return nil, nil, errors.New("merging lists cannot yet be specified in the patch")
		default:
			return nil, nil, errBadPatchType(directive, m)
		}
	}
	if replace {
		return without, nil, nil
	}
	return original, without, nil
}

// deleteMatchingEntries drops every element whose merge key has value.
func deleteMatchingEntries(original []any, mergeKey string, value any) ([]any, error) {
	out := make([]any, 0, len(original))
	for i, v := range original {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("value for key %v is not a map", i)
		}
		if key, ok := m[mergeKey]; !ok || !equal(key, value) {
			out = append(out, v)
		}
	}
	return out, nil
}

// mergeSliceWithoutSpecialElements merges each patch element into
// original's element with the same merge key, or appends it.
func mergeSliceWithoutSpecialElements(original, patch []any, mergeKey string, schema LookupPatchMeta) ([]any, error) {
	out := slices.Clone(original)
	for _, v := range patch {
		m := v.(map[string]any)
		value, ok := m[mergeKey]
		if !ok {
			return nil, errNoMergeKey(m, mergeKey)
		}
		current, i, found, err := findMapInSliceBasedOnKeyValue(out, mergeKey, value)
		if err != nil {
			return nil, err
		}
		if !found {
			out = append(out, v)
			continue
		}
		if out[i], err = mergeMap(current, m, schema); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// deleteFromSlice returns current without the values of toDelete.
func deleteFromSlice(current, toDelete []any) []any {
	out := make([]any, 0, len(current))
	for _, v := range current {
		if !slices.ContainsFunc(toDelete, func(d any) bool { return equal(d, v) }) {
			out = append(out, v)
		}
	}
	return out
}

// findMapInSliceBasedOnKeyValue finds the first object of m whose key has
// value.
func findMapInSliceBasedOnKeyValue(m []any, key string, value any) (map[string]any, int, bool, error) {
	for i, v := range m {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, 0, false, fmt.Errorf("value for key %v is not a map", i)
		}
		if got, ok := obj[key]; ok && equal(got, value) {
			return obj, i, true, nil
		}
	}
	return nil, 0, false, nil
}

// applyRetainKeysDirective applies an object's $retainKeys: original
// keeps only the fields listed, and every field the patch sets must be
// listed.
//
// Mirrors applyRetainKeysDirective.
func applyRetainKeysDirective(original, patch map[string]any) error {
	v, found := patch[retainKeysDirective]
	if !found {
		return nil
	}
	delete(patch, retainKeysDirective)
	list, ok := v.([]any)
	if !ok {
		return ErrBadPatchFormatForRetainKeys
	}
	retain := map[any]bool{}
	for _, k := range list {
		if k != nil && !reflect.TypeOf(k).Comparable() {
			return ErrBadPatchFormatForRetainKeys
		}
		retain[k] = true
	}
	for k, v := range patch {
		if v == nil || strings.HasPrefix(k, deleteFromPrimitiveListDirectivePrefix) ||
			strings.HasPrefix(k, setElementOrderDirectivePrefix) {
			continue
		}
		if !retain[k] {
			return ErrBadPatchFormatForRetainKeys
		}
	}
	for k := range original {
		if !retain[k] {
			delete(original, k)
		}
	}
	return nil
}

// mergePatchIntoOriginal applies each $setElementOrder/<list> of an
// object: the list is merged (if the patch has it) and ordered — the
// directive's order first, then the patch's, then original's — and
// removed from the patch, so mergeMap does not merge it again.
//
// Mirrors mergePatchIntoOriginal.
func mergePatchIntoOriginal(original, patch map[string]any, schema LookupPatchMeta) error {
	for _, key := range sortedKeys(patch) {
		if !strings.HasPrefix(key, setElementOrderDirectivePrefix) {
			continue
		}
		orderV := patch[key]
		delete(patch, key)
		order, ok := orderV.([]any)
		if !ok {
			return errBadArgType("[]interface {}", orderV)
		}
		originalKey, err := extractKey(key, setElementOrderDirectivePrefix)
		if err != nil {
			return err
		}
		originalList, foundOriginal := original[originalKey]
		patchList, foundPatch := patch[originalKey]
		var originalValue, patchValue []any
		if foundOriginal {
			if originalValue, ok = originalList.([]any); !ok {
				return errBadArgType("[]interface {}", originalList)
			}
		}
		if foundPatch {
			if patchValue, ok = patchList.([]any); !ok {
				return errBadArgType("[]interface {}", patchList)
			}
		}
		sub, meta, err := schema.LookupPatchMetadataForSlice(originalKey)
		if err != nil {
			return err
		}
		_, strategy, err := extractRetainKeysPatchStrategy(meta.Strategies)
		if err != nil {
			return err
		}
		if err := validatePatchWithSetOrderList(patchValue, order, meta.MergeKey); err != nil {
			return err
		}
		var merged []any
		switch {
		case foundOriginal && !foundPatch:
			merged = originalValue
		case !foundOriginal && foundPatch:
			v, _ := removeDirectives(patchValue)
			merged = v.([]any)
		case foundOriginal && foundPatch:
			if merged, err = mergeSliceHandler(originalValue, patchValue, sub, strategy, meta.MergeKey, false); err != nil {
				return err
			}
		default:
			continue
		}
		var patchItems, serverOnlyItems []any
		if meta.MergeKey == "" {
			patchItems, serverOnlyItems = partitionPrimitivesByPresentInList(merged, order)
		} else if patchItems, serverOnlyItems, err = partitionMapsByPresentInList(merged, order, meta.MergeKey); err != nil {
			return err
		}
		t, err := sliceElementType(originalValue, patchValue)
		if err != nil {
			return err
		}
		both, err := normalizeElementOrder(patchItems, serverOnlyItems, order, originalValue, meta.MergeKey, t.Kind())
		if err != nil {
			return err
		}
		original[originalKey] = both
		delete(patch, originalKey)
	}
	return nil
}

// validatePatchWithSetOrderList checks that the patch's list (its
// elements without a $patch) is in the order of the $setElementOrder list
// and a part of it.
func validatePatchWithSetOrderList(patchList, order []any, mergeKey string) error {
	if len(order) == 0 || len(patchList) == 0 {
		return nil
	}
	nonDelete := patchList
	if mergeKey != "" {
		var err error
		if nonDelete, _, err = extractToDeleteItems(patchList); err != nil {
			return err
		}
	}
	p, o := 0, 0
	for p < len(nonDelete) && o < len(order) {
		if containsDirectiveMarker(nonDelete[p]) {
			p++
			continue
		}
		eq, err := mergeKeyValueEqual(nonDelete[p], order[o], mergeKey)
		if err != nil {
			return err
		}
		if eq {
			p++
		}
		o++
	}
	if p < len(nonDelete) && o >= len(order) {
		return fmt.Errorf("The order in patch list:\n%v\n doesn't match %s list:\n%v\n", patchList, setElementOrderDirectivePrefix, order)
	}
	return nil
}

// normalizeElementOrder sorts the patch's elements by patchOrder and the
// others by serverOrder, then interleaves the two (mergeSortedSlice).
//
// Mirrors normalizeElementOrder.
func normalizeElementOrder(patch, serverOnly, patchOrder, serverOrder []any, mergeKey string, kind reflect.Kind) ([]any, error) {
	patch, err := normalizeSliceOrder(patch, patchOrder, mergeKey, kind)
	if err != nil {
		return nil, err
	}
	serverOnly, err = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind)
	if err != nil {
		return nil, err
	}
	return mergeSortedSlice(serverOnly, patch, serverOrder, mergeKey, kind), nil
}

// mergeSortedSlice inserts each element of left (original's) into right
// (the patch's) before the first element of right that original had after
// it; the relative order within each list is kept.
func mergeSortedSlice(left, right, serverOrder []any, mergeKey string, kind reflect.Kind) []any {
	less := func(l, r any) (isLess, foundBoth bool) {
		li, ri := index(serverOrder, l, mergeKey, kind), index(serverOrder, r, mergeKey, kind)
		if li >= 0 && ri >= 0 {
			return li < ri, true
		}
		return false, false
	}
	out := make([]any, 0, len(left)+len(right))
	i, j := 0, 0
	for i < len(left) || j < len(right) {
		switch {
		case i >= len(left):
			out = append(out, right[j])
			j++
		case j >= len(right):
			out = append(out, left[i])
			i++
		default:
			if isLess, foundBoth := less(left[i], right[j]); foundBoth && isLess {
				out = append(out, left[i])
				i++
			} else {
				out = append(out, right[j])
				j++
			}
		}
	}
	return out
}

// index is the position in l of the element with val's merge key (of
// val, for scalars), or -1.
func index(l []any, val any, mergeKey string, kind reflect.Kind) int {
	key := func(item any) any {
		if kind != reflect.Map {
			return item
		}
		m, ok := item.(map[string]any)
		if !ok {
			return nil
		}
		return m[mergeKey]
	}
	want := key(val)
	for i, v := range l {
		if equal(want, key(v)) {
			return i
		}
	}
	return -1
}

// normalizeSliceOrder sorts toSort by order (objects with
// $patch: delete last).
func normalizeSliceOrder(toSort, order []any, mergeKey string, kind reflect.Kind) ([]any, error) {
	var toDelete []any
	if kind == reflect.Map {
		if err := validateMergeKeyInLists(mergeKey, toSort, order); err != nil {
			return nil, err
		}
		var err error
		if toSort, toDelete, err = extractToDeleteItems(toSort); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(toSort, func(i, j int) bool {
		if ii := index(order, toSort[i], mergeKey, kind); ii >= 0 {
			if ij := index(order, toSort[j], mergeKey, kind); ij >= 0 {
				return ii < ij
			}
		}
		return true
	})
	return append(toSort, toDelete...), nil
}

// validateMergeKeyInLists checks that every element is an object with
// the merge key.
func validateMergeKeyInLists(mergeKey string, lists ...[]any) error {
	for _, l := range lists {
		for _, item := range l {
			m, ok := item.(map[string]any)
			if !ok {
				return errBadArgType("map[string]interface {}", item)
			}
			if _, ok := m[mergeKey]; !ok {
				return errNoMergeKey(m, mergeKey)
			}
		}
	}
	return nil
}

// extractToDeleteItems splits a list of objects into those without and
// those with $patch: delete.
func extractToDeleteItems(l []any) (nonDelete, toDelete []any, err error) {
	for _, v := range l {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, errBadArgType("map[string]interface {}", v)
		}
		if d, ok := m[directiveMarker]; ok && d == deleteDirective {
			toDelete = append(toDelete, v)
		} else {
			nonDelete = append(nonDelete, v)
		}
	}
	return nonDelete, toDelete, nil
}

// partitionPrimitivesByPresentInList splits original into the values in
// partitionBy and the others.
func partitionPrimitivesByPresentInList(original, partitionBy []any) (in, out []any) {
	in, out = make([]any, 0, len(original)), make([]any, 0, len(original))
	for _, v := range original {
		if slices.ContainsFunc(partitionBy, func(p any) bool { return equal(p, v) }) {
			in = append(in, v)
		} else {
			out = append(out, v)
		}
	}
	return in, out
}

// partitionMapsByPresentInList splits original into the objects whose
// merge key partitionBy has and the others.
func partitionMapsByPresentInList(original, partitionBy []any, mergeKey string) (in, out []any, err error) {
	in, out = make([]any, 0, len(original)), make([]any, 0, len(original))
	for _, v := range original {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, errBadArgType("map[string]interface {}", v)
		}
		value, ok := m[mergeKey]
		if !ok {
			return nil, nil, errNoMergeKey(m, mergeKey)
		}
		_, _, found, err := findMapInSliceBasedOnKeyValue(partitionBy, mergeKey, value)
		if err != nil {
			return nil, nil, err
		}
		if found {
			in = append(in, v)
		} else {
			out = append(out, v)
		}
	}
	return in, out, nil
}

// removeDirectives returns obj without the objects that carry a $patch
// (false: obj itself is one, drop it).
func removeDirectives(obj any) (any, bool) {
	switch v := obj.(type) {
	case map[string]any:
		if _, ok := v[directiveMarker]; ok {
			return nil, false
		}
		for k, e := range v {
			if e2, keep := removeDirectives(e); keep {
				v[k] = e2
			} else {
				delete(v, k)
			}
		}
		return v, true
	case []any:
		out := []any{}
		for _, e := range v {
			if e2, keep := removeDirectives(e); keep {
				out = append(out, e2)
			}
		}
		return out, true
	}
	return obj, true
}

// discardNullValuesFromPatch drops the null fields of every object in v.
func discardNullValuesFromPatch(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
			} else {
				discardNullValuesFromPatch(e)
			}
		}
	case []any:
		for _, e := range v {
			discardNullValuesFromPatch(e)
		}
	}
}

// containsDirectiveMarker says whether item is an object with a $patch.
func containsDirectiveMarker(item any) bool {
	m, ok := item.(map[string]any)
	if !ok {
		return false
	}
	_, ok = m[directiveMarker]
	return ok
}

// mergeKeyValueEqual compares two scalars, or two objects' merge keys.
func mergeKeyValueEqual(left, right any, mergeKey string) (bool, error) {
	if mergeKey == "" {
		return equal(left, right), nil
	}
	l, ok := left.(map[string]any)
	if !ok {
		return false, errBadArgType("map[string]interface {}", left)
	}
	r, ok := right.(map[string]any)
	if !ok {
		return false, errBadArgType("map[string]interface {}", right)
	}
	lv, ok := l[mergeKey]
	if !ok {
		return false, errNoMergeKey(l, mergeKey)
	}
	rv, ok := r[mergeKey]
	if !ok {
		return false, errNoMergeKey(r, mergeKey)
	}
	return equal(lv, rv), nil
}

// extractKey returns the list's name in a "<prefix>/<list>" directive.
func extractKey(s, prefix string) (string, error) {
	p, key, ok := strings.Cut(s, "/")
	if !ok || p != prefix {
		switch prefix {
		case deleteFromPrimitiveListDirectivePrefix:
			return "", ErrBadPatchFormatForPrimitiveList
		default:
			return "", ErrBadPatchFormatForSetElementOrderList
		}
	}
	return key, nil
}

// sliceElementType is the one type of every element of the lists: an
// error if they differ, are lists (ErrNoListOfLists) or are absent.
func sliceElementType(lists ...[]any) (reflect.Type, error) {
	var prev reflect.Type
	for _, l := range lists {
		for _, v := range l {
			t := reflect.TypeOf(v)
			switch {
			case t == nil || (prev != nil && t != prev):
				return nil, fmt.Errorf("list element types are not identical: %v", fmt.Sprint(lists))
			case prev == nil && t.Kind() == reflect.Slice:
				return nil, ErrNoListOfLists
			}
			prev = t
		}
	}
	if prev == nil {
		return nil, errors.New("no elements in any of the given slices")
	}
	return prev, nil
}

// deduplicateScalars keeps the first of equal values.
func deduplicateScalars(s []any) []any {
	out := make([]any, 0, len(s))
	for _, v := range s {
		if !slices.ContainsFunc(out, func(o any) bool { return equal(o, v) }) {
			out = append(out, v)
		}
	}
	return out
}

// extractRetainKeysPatchStrategy splits a field's strategies into
// whether retainKeys is one and the other (at most one other).
func extractRetainKeysPatchStrategy(strategies []string) (bool, string, error) {
	switch len(strategies) {
	case 0:
		return false, "", nil
	case 1:
		if strategies[0] == retainKeysStrategy {
			return true, "", nil
		}
		return false, strategies[0], nil
	case 2:
		switch {
		case strategies[0] == retainKeysStrategy:
			return true, strategies[1], nil
		case strategies[1] == retainKeysStrategy:
			return true, strategies[0], nil
		}
	}
	return false, "", fmt.Errorf("unexpected patch strategy: %v", strategies)
}

// equal compares two decoded JSON values as Go's == would, false for
// objects and lists (where upstream's == panics).
func equal(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	t := reflect.TypeOf(a)
	return t == reflect.TypeOf(b) && t.Comparable() && a == b
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
