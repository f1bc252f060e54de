package structural

import (
	"sort"
	"strconv"
)

// metaFields are kept, unpruned, at the root of a resource and of an
// embedded resource.
var metaFields = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

// Prune deletes from obj every field the schema does not declare, and
// returns their paths, sorted ("spec.foo", "spec.items[0].bar"): the server
// reports them as `unknown field "spec.foo"` under fieldValidation=Strict
// or Warn.
//
// A field is declared if it is in properties, or if its object has an
// additionalProperties schema. Below x-kubernetes-preserve-unknown-fields
// nothing unknown is dropped, but declared fields are still pruned below
// them. With isResourceRoot, obj is a whole custom resource: apiVersion,
// kind and metadata are kept as they are (metadata is ObjectMeta's
// business); the same holds inside x-kubernetes-embedded-resource objects.
//
// Mirrors pruning.PruneWithOptions (with TrackUnknownFieldPaths).
func Prune(s *Structural, obj map[string]any, isResourceRoot bool) (pruned []string) {
	if isResourceRoot {
		if s == nil {
			s = &Structural{}
		}
		if !s.XEmbeddedResource {
			clone := *s
			clone.XEmbeddedResource = true
			s = &clone
		}
	}
	p := pruner{}
	p.prune(obj, s, "")
	sort.Strings(p.paths)
	return p.paths
}

type pruner struct {
	paths []string
}

func childPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func indexPath(parent string, i int) string {
	return parent + "[" + strconv.Itoa(i) + "]"
}

// prune mirrors pruning's prune: with no schema every field of an object
// is unknown.
func (p *pruner) prune(x any, s *Structural, path string) {
	if s != nil && s.XPreserveUnknownFields {
		p.skipPrune(x, s, path)
		return
	}
	switch x := x.(type) {
	case map[string]any:
		if s == nil {
			for _, k := range sortedKeys(x) {
				p.paths = append(p.paths, childPath(path, k))
				delete(x, k)
			}
			return
		}
		for _, k := range sortedKeys(x) {
			if s.XEmbeddedResource && metaFields[k] {
				continue
			}
			if prop, ok := s.Properties[k]; ok {
				p.prune(x[k], prop, childPath(path, k))
			} else if s.AdditionalProperties != nil || s.AdditionalPropertiesBool != nil {
				p.prune(x[k], s.AdditionalProperties, childPath(path, k))
			} else {
				if !metaFields[k] || path != "" {
					p.paths = append(p.paths, childPath(path, k))
				}
				delete(x, k)
			}
		}
	case []any:
		var items *Structural
		if s != nil {
			items = s.Items
		}
		for i, v := range x {
			p.prune(v, items, indexPath(path, i))
		}
	}
}

// skipPrune keeps unknown fields but prunes below the declared ones.
// Mirrors pruning's skipPrune.
func (p *pruner) skipPrune(x any, s *Structural, path string) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			if s.XEmbeddedResource && metaFields[k] {
				continue
			}
			if prop, ok := s.Properties[k]; ok {
				p.prune(x[k], prop, childPath(path, k))
			} else if s.AdditionalProperties != nil || s.AdditionalPropertiesBool != nil {
				p.prune(x[k], s.AdditionalProperties, childPath(path, k))
			}
		}
	case []any:
		for i, v := range x {
			p.skipPrune(v, s.Items, indexPath(path, i))
		}
	}
}
