package structural

import (
	"sort"

	"github.com/crdlab/crdlab/apis/validation/field"
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
// Mirrors pruning.PruneWithOptions (with TrackUnknownFieldPaths) in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go.
func Prune(s *Structural, obj map[string]any, isResourceRoot bool) (pruned []string) {
	p := pruner{track: true}
	p.prune(obj, rootSchema(s, isResourceRoot), nil)
	sort.Strings(p.paths)
	return p.paths
}

// pruneValue prunes any JSON value (a default, say) without tracking paths.
func pruneValue(x any, s *Structural, isResourceRoot bool) {
	p := pruner{}
	p.prune(x, rootSchema(s, isResourceRoot), nil)
}

// rootSchema marks s as an embedded resource when it is a resource's root,
// so that apiVersion, kind and metadata are treated alike at both places.
func rootSchema(s *Structural, isResourceRoot bool) *Structural {
	if !isResourceRoot {
		return s
	}
	if s == nil {
		s = &Structural{}
	}
	if !s.XEmbeddedResource {
		clone := *s
		clone.XEmbeddedResource = true
		s = &clone
	}
	return s
}

// pruner walks an object and its schema. Paths are built as *field.Path
// links, rendered to strings only for the fields dropped: building them as
// strings at every level made a deeply nested object quadratic.
type pruner struct {
	// track says to record the paths of dropped fields in paths.
	track bool
	paths []string
}

func (p *pruner) dropped(path *field.Path) {
	if p.track {
		p.paths = append(p.paths, path.String())
	}
}

// prune mirrors pruning's prune: with no schema every field of an object
// is unknown.
func (p *pruner) prune(x any, s *Structural, path *field.Path) {
	if s != nil && s.XPreserveUnknownFields {
		p.skipPrune(x, s, path)
		return
	}
	switch x := x.(type) {
	case map[string]any:
		if s == nil {
			for k := range x {
				p.dropped(path.Child(k))
				delete(x, k)
			}
			return
		}
		for k, v := range x {
			if s.XEmbeddedResource && metaFields[k] {
				continue
			}
			if prop, ok := s.Properties[k]; ok {
				p.prune(v, prop, path.Child(k))
			} else if hasAdditionalProperties(s) {
				p.prune(v, s.AdditionalProperties, path.Child(k))
			} else {
				if !metaFields[k] || path != nil {
					p.dropped(path.Child(k))
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
			p.prune(v, items, path.Index(i))
		}
	}
}

// skipPrune keeps unknown fields but prunes below the declared ones.
// Mirrors pruning's skipPrune.
func (p *pruner) skipPrune(x any, s *Structural, path *field.Path) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			if s.XEmbeddedResource && metaFields[k] {
				continue
			}
			if prop, ok := s.Properties[k]; ok {
				p.prune(v, prop, path.Child(k))
			} else if hasAdditionalProperties(s) {
				p.prune(v, s.AdditionalProperties, path.Child(k))
			}
		}
	case []any:
		for i, v := range x {
			p.skipPrune(v, s.Items, path.Index(i))
		}
	}
}
