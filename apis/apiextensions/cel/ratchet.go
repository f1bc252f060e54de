package cel

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/crdlab/crdlab/apis/apiextensions/structural"
)

// CorrelatedObject pairs a node of an updated object with the same node of
// the old object, so that validation can ask "did this part change?"
// (ratcheting: an unchanged part may keep breaking a rule it broke
// before).
//
// Nodes correlate through object fields, map keys and the entries of
// x-kubernetes-list-type=map lists (by their keys); never through other
// lists, whose items have no identity. Children are built on demand and
// every answer is cached, so a deep object is compared once.
//
// A CorrelatedObject is used by one goroutine (one request).
//
// Mirrors common.CorrelatedObject in k8s.io/apiserver/pkg/cel/common/equality.go.
type CorrelatedObject struct {
	OldValue any
	Value    any
	Schema   *structural.Structural

	// equal caches CachedDeepEqual; nil until asked.
	equal *bool
	// oldList finds old entries of a map list by key; built on demand.
	oldList mapList
	// children caches Key (by string) and Index (by int).
	children map[any]*CorrelatedObject
}

// NewCorrelatedObject pairs the roots of an update.
func NewCorrelatedObject(value, oldValue any, s *structural.Structural) *CorrelatedObject {
	return &CorrelatedObject{OldValue: oldValue, Value: value, Schema: s}
}

// CachedDeepEqual reports whether the node is unchanged. A nil receiver
// (an uncorrelatable node) is never unchanged.
func (r *CorrelatedObject) CachedDeepEqual() (res bool) {
	if r == nil {
		return false
	}
	if r.equal != nil {
		return *r.equal
	}
	defer func() { r.equal = &res }()
	if r.Value == nil && r.OldValue == nil {
		return true
	}
	if r.Value == nil || r.OldValue == nil {
		return false
	}
	oldList, oldIsList := r.OldValue.([]any)
	newList, newIsList := r.Value.([]any)
	oldMap, oldIsMap := r.OldValue.(map[string]any)
	newMap, newIsMap := r.Value.(map[string]any)
	if oldIsList != newIsList || oldIsMap != newIsMap {
		return false
	}
	switch {
	case oldIsList:
		if len(oldList) != len(newList) {
			return false
		}
		for i := range newList {
			child := r.Index(i)
			if child == nil {
				if r.oldList == nil {
					// Not a map list: compare the lists whole.
					return reflect.DeepEqual(oldList, newList)
				}
				return false
			}
			if !child.CachedDeepEqual() {
				return false
			}
		}
		return true
	case oldIsMap:
		if len(oldMap) != len(newMap) {
			return false
		}
		for k := range newMap {
			child := r.Key(k)
			if child == nil || !child.CachedDeepEqual() {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(r.OldValue, r.Value)
}

// Key returns the child for an object field or map key, nil if the key is
// missing on either side or has no schema.
func (r *CorrelatedObject) Key(field string) *CorrelatedObject {
	if r == nil || r.Schema == nil {
		return nil
	}
	if c, ok := r.children[field]; ok {
		return c
	}
	oldMap, okOld := r.OldValue.(map[string]any)
	newMap, okNew := r.Value.(map[string]any)
	if !okOld || !okNew {
		return nil
	}
	oldV, okOld := oldMap[field]
	newV, okNew := newMap[field]
	if !okOld || !okNew {
		return nil
	}
	s := r.Schema.Properties[field]
	if s == nil {
		s = r.Schema.AdditionalProperties
	}
	if s == nil {
		return nil
	}
	return r.child(field, &CorrelatedObject{OldValue: oldV, Value: newV, Schema: s})
}

// Index returns the child for item i of the new list, paired with the old
// entry of the same key (map lists only), or nil.
func (r *CorrelatedObject) Index(i int) *CorrelatedObject {
	if r == nil || r.Schema == nil {
		return nil
	}
	if c, ok := r.children[i]; ok {
		return c
	}
	newList, ok := r.Value.([]any)
	if !ok || len(newList) <= i {
		return nil
	}
	oldList, ok := r.OldValue.([]any)
	if !ok || r.Schema.XListType == nil || *r.Schema.XListType != "map" {
		return nil
	}
	if r.oldList == nil {
		r.oldList = makeMapList(r.Schema, oldList)
	}
	oldV := r.oldList.get(newList[i])
	if oldV == nil || r.Schema.Items == nil {
		return nil
	}
	return r.child(i, &CorrelatedObject{OldValue: oldV, Value: newList[i], Schema: r.Schema.Items})
}

func (r *CorrelatedObject) child(key any, c *CorrelatedObject) *CorrelatedObject {
	if r.children == nil {
		r.children = map[any]*CorrelatedObject{}
	}
	r.children[key] = c
	return c
}

// mapList finds the entry of a list-type=map list with the same keys as a
// given entry.
//
// Mirrors common.MapList in k8s.io/apiserver/pkg/cel/common/maplist.go.
type mapList interface {
	get(entry any) any
}

type emptyMapList struct{}

func (emptyMapList) get(any) any { return nil }

// keyedMapList indexes entries lazily: get scans the unindexed ones only
// until it finds the key.
type keyedMapList struct {
	keys     []string
	keyed    map[any]any
	unkeyed  []any
	oneField bool
}

// makeMapList indexes items if s is a list-type=map array with keys.
func makeMapList(s *structural.Structural, items []any) mapList {
	if s.Type != "array" || s.XListType == nil || *s.XListType != "map" || len(s.XListMapKeys) == 0 || len(items) == 0 {
		return emptyMapList{}
	}
	return &keyedMapList{keys: s.XListMapKeys, keyed: map[any]any{}, unkeyed: items, oneField: len(s.XListMapKeys) == 1}
}

// compositeKey is the entry's key: a single scalar, or the scalars of
// every key field joined by a NUL byte; false if a key field is missing or
// not a scalar.
func (l *keyedMapList) compositeKey(obj map[string]any) (any, bool) {
	if l.oneField {
		v, ok := obj[l.keys[0]]
		if !ok {
			return nil, false
		}
		switch v.(type) {
		case bool, float64, int64, string:
			return v, true
		}
		return nil, false
	}
	var b strings.Builder
	for _, k := range l.keys {
		v, ok := obj[k]
		if !ok {
			return nil, false
		}
		switch v := v.(type) {
		case bool:
			fmt.Fprintf(&b, "\x00%t", v)
		case float64:
			fmt.Fprintf(&b, "\x00%f", v)
		case int64:
			fmt.Fprintf(&b, "\x00%d", v)
		case string:
			fmt.Fprintf(&b, "\x00%q", v)
		default:
			return nil, false
		}
	}
	return b.String(), true
}

func (l *keyedMapList) get(entry any) any {
	obj, ok := entry.(map[string]any)
	if !ok {
		return nil
	}
	key, ok := l.compositeKey(obj)
	if !ok {
		return nil
	}
	if m, ok := l.keyed[key]; ok {
		return m
	}
	for len(l.unkeyed) > 0 {
		item := l.unkeyed[0]
		l.unkeyed = l.unkeyed[1:]
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		k, ok := l.compositeKey(m)
		if !ok {
			continue
		}
		if _, exists := l.keyed[k]; !exists {
			l.keyed[k] = m
		}
		if k == key {
			return m
		}
	}
	return nil
}
