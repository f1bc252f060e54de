package openapi

import (
	"reflect"
)

// Models returns the schemas server-side apply types objects with (see
// package managedfields): each resource's kind schema, tagged with
// x-kubernetes-group-version-kind, its Definitions, and the meta schemas
// (ObjectMeta, Scale …), keyed by the names their $refs use. The
// resources may be of several versions of one group: a CRD's versions
// each have their kind schema.
//
// The kind schemas are those of BuildGroupVersion, with two differences
// upstream's apply models have too: a resource without a schema is an
// object of any fields (metadata included), and an embedded resource
// (x-kubernetes-embedded-resource) gets apiVersion, kind and metadata.
//
// Mirrors buildOpenAPIModelsForApply in apiextensions-apiserver's
// customresource_handler.go (builder.BuildOpenAPIV3 per version, merged
// over the static spec of the built-in types).
func Models(resources []Resource) (map[string]any, error) {
	models := map[string]any{}
	for name, s := range metaSchemas(true) {
		models[name] = s
	}
	for _, r := range resources {
		if r.Kind == "" || r.Version == "" {
			return nil, invalidResource("resource %q: kind and version must not be empty", r.Plural)
		}
		var s map[string]any
		if len(r.SchemaJSON) == 0 || string(r.SchemaJSON) == "null" {
			s = withGVK(map[string]any{"type": "object"}, r.Group, r.Version, r.Kind)
		} else {
			var err error
			if s, err = crSchema(r); err != nil { // embedded resources included
				return nil, err
			}
		}
		for name, def := range r.Definitions {
			if other, ok := models[name]; ok && !reflect.DeepEqual(other, def) {
				return nil, invalidResource("resource %q: a different schema %q is already in the models", r.Plural, name)
			}
			models[name] = def
		}
		models[SchemaName(r.Group, r.Version, r.Kind)] = s
	}
	return models, nil
}
