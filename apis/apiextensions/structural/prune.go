package structural

import (
	"sort"

	"github.com/crdlab/crdlab/apis/validation/field"
)

// metaFields are kept, unpruned, at the root of a resource and of an
// embedded resource.
var metaFields = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

// Prune deletes from obj every field the schema does not declare, and
// returns their paths, sorted ("spec.foo", "spec.items[0].bar"), then
// those of unknown fields in embedded resources' metadata: the server
// reports them as `unknown field "spec.foo"` under fieldValidation=Strict
// or Warn.
//
// A field is declared if it is in properties, or if its object has an
// additionalProperties schema. Below x-kubernetes-preserve-unknown-fields
// nothing unknown is dropped, but declared fields are still pruned below
// them. With isResourceRoot, obj is a whole custom resource: apiVersion,
// kind and metadata are kept as they are (the root's metadata is the
// caller's business: PruneObjectMeta). Inside x-kubernetes-embedded-resource
// objects apiVersion and kind are kept, and metadata is made an ObjectMeta
// (coerceObjectMeta).
//
// Mirrors pruning.PruneWithOptions (with TrackUnknownFieldPaths) in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go,
// and for embedded metadata objectmeta.CoerceWithOptions.
func Prune(s *Structural, obj map[string]any, isResourceRoot bool) (pruned []string) {
	p := pruner{track: true}
	p.prune(obj, rootSchema(s, isResourceRoot), nil)
	sort.Strings(p.paths)
	sort.Strings(p.metaPaths)
	return append(p.paths, p.metaPaths...)
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
	// metaPaths are the unknown fields of embedded resources' metadata.
	metaPaths []string
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
				if k == "metadata" && path != nil {
					p.coerceObjectMeta(v, path)
				}
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
				if k == "metadata" && path != nil {
					p.coerceObjectMeta(v, path)
				}
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

// objectMetaFields are the JSON fields of ObjectMeta.
var objectMetaFields = map[string]bool{
	"name": true, "generateName": true, "namespace": true, "selfLink": true, "uid": true,
	"resourceVersion": true, "generation": true, "creationTimestamp": true,
	"deletionTimestamp": true, "deletionGracePeriodSeconds": true, "labels": true,
	"annotations": true, "ownerReferences": true, "finalizers": true, "managedFields": true,
}

// PruneObjectMeta drops from a resource's metadata the fields ObjectMeta
// does not have, and returns their paths ("metadata.foo"), sorted: the
// server reports them as unknown fields, with those Prune returns.
// Nested fields (in ownerReferences, managedFields) are not checked.
//
// Mirrors the unknown-field paths of GetObjectMetaWithOptions in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta/coerce.go,
// which decodes the metadata strictly into an ObjectMeta.
func PruneObjectMeta(obj map[string]any) []string {
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		return nil
	}
	var paths []string
	for k := range md {
		if !objectMetaFields[k] {
			paths = append(paths, "metadata."+k)
			delete(md, k)
		}
	}
	sort.Strings(paths)
	return paths
}

// coerceObjectMeta makes the metadata of an embedded resource at path (not
// of the resource itself) what a round trip through ObjectMeta leaves of
// it: unknown fields go (reported after the pruned ones, as upstream's
// coercer runs after pruning), and so do empty values of the fields
// ObjectMeta omits when empty (a zero creationTimestamp too). A field of
// the wrong type stays, for validation to refuse.
//
// Mirrors the "metadata" case of (*coercer).coerce in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta/algorithm.go
// (GetObjectMetaWithOptions, then SetObjectMeta).
func (p *pruner) coerceObjectMeta(v any, path *field.Path) {
	md, ok := v.(map[string]any)
	if !ok {
		return
	}
	for k, x := range md {
		if !objectMetaFields[k] {
			if p.track {
				p.metaPaths = append(p.metaPaths, path.Child("metadata").String()+"."+k)
			}
			delete(md, k)
			continue
		}
		empty := x == nil
		switch x := x.(type) {
		case string:
			empty = x == "" && k != "creationTimestamp" && k != "deletionTimestamp"
		case int64:
			empty = x == 0 && k == "generation"
		case float64:
			empty = x == 0 && k == "generation"
		case map[string]any:
			empty = len(x) == 0
		case []any:
			empty = len(x) == 0
		}
		if empty {
			delete(md, k)
		}
	}
}
