package v2

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Document is a Swagger 2.0 document, as much of one as kube-apiserver
// writes.
//
// Mirrors spec.Swagger in k8s.io/kube-openapi/pkg/validation/spec.
type Document struct {
	Swagger     string                    `json:"swagger"`
	Info        Info                      `json:"info"`
	Paths       map[string]map[string]any `json:"paths"`
	Definitions map[string]any            `json:"definitions"`
}

// Info names the API.
type Info struct {
	Title   string `json:"title"`
	Version string `json:"version"`
}

const (
	v3RefPrefix = "#/components/schemas/"
	v2RefPrefix = "#/definitions/"
)

// v3Doc is what FromV3 reads of a v3 document.
type v3Doc struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas map[string]any `json:"schemas"`
	} `json:"components"`
}

// FromV3 merges the v3 documents of group-versions into one v2 document
// titled "Kubernetes" at version. A definition in two documents must be
// the same in both (the meta types are in every one).
func FromV3(version string, docs ...[]byte) (*Document, error) {
	out := &Document{Swagger: "2.0", Info: Info{Title: "Kubernetes", Version: version},
		Paths: map[string]map[string]any{}, Definitions: map[string]any{}}
	for _, raw := range docs {
		var d v3Doc
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, fmt.Errorf("openapi v3 document: %w", err)
		}
		for name, s := range d.Components.Schemas {
			out.Definitions[name] = Definition(s)
		}
		for path, item := range d.Paths {
			out.Paths[path] = pathItem(item)
		}
	}
	return out, nil
}

// Definition converts the schema of one component: like Schema, and a
// kind whose root preserves unknown fields is published as just an object
// with its group-version-kind (kubectl would otherwise reject every field
// the schema does not list).
//
// Mirrors buildKubeNative with opts.V2.
func Definition(s any) any {
	m, ok := s.(map[string]any)
	if !ok {
		return s
	}
	if gvk, hasGVK := m["x-kubernetes-group-version-kind"]; hasGVK && m["x-kubernetes-preserve-unknown-fields"] == true {
		return map[string]any{"type": "object", "x-kubernetes-group-version-kind": gvk}
	}
	return Schema(s)
}

// Schema converts one v3 schema into v2.
//
// Mirrors ToStructuralOpenAPIV2, applied to JSON schemas, plus the
// reference rewriting of kube-openapi's v2 builder.
func Schema(s any) any {
	in, ok := s.(map[string]any)
	if !ok {
		return s
	}
	out := make(map[string]any, len(in))
	for k, v := range in {
		out[k] = v
	}
	if ref, ok := out["$ref"].(string); ok {
		out["$ref"] = v2RefPrefix + strings.TrimPrefix(ref, v3RefPrefix)
	}
	// A Go type's field with a description is written allOf: [{$ref}]
	// in v3 (a $ref's siblings are ignored there); v2 readers take the
	// $ref with its description.
	if all, ok := out["allOf"].([]any); ok && len(all) == 1 {
		if only, ok := all[0].(map[string]any); ok && len(only) == 1 && only["$ref"] != nil {
			out["$ref"] = Schema(only).(map[string]any)["$ref"]
		}
	}
	for _, k := range []string{"allOf", "oneOf", "anyOf", "not"} {
		delete(out, k)
	}
	if out["nullable"] == true {
		for _, k := range []string{"type", "items", "properties"} {
			delete(out, k)
		}
	}
	delete(out, "nullable")
	if out["x-kubernetes-preserve-unknown-fields"] == true {
		delete(out, "items")
		delete(out, "properties")
		if out["type"] == "object" {
			delete(out, "type")
		}
		// v2 gives such an embedded resource no apiVersion, kind and
		// metadata (kubectl would refuse its other fields): nor does it
		// require kind and apiVersion, which v3 adds.
		if req, ok := out["required"].([]any); ok && out["x-kubernetes-embedded-resource"] == true {
			req = slices.DeleteFunc(slices.Clone(req), func(r any) bool { return r == "kind" || r == "apiVersion" })
			if len(req) == 0 {
				delete(out, "required")
			} else {
				out["required"] = req
			}
		}
	}
	if out["type"] == "array" && out["items"] == nil {
		delete(out, "type")
	}
	if props, ok := out["properties"].(map[string]any); ok {
		converted := make(map[string]any, len(props))
		var nullable []string
		for name, p := range props {
			if pm, ok := p.(map[string]any); ok && pm["nullable"] == true {
				nullable = append(nullable, name)
			}
			converted[name] = Schema(p)
		}
		out["properties"] = converted
		if req, ok := out["required"].([]any); ok && len(nullable) > 0 {
			req = slices.DeleteFunc(slices.Clone(req), func(r any) bool { n, _ := r.(string); return slices.Contains(nullable, n) })
			if len(req) == 0 {
				delete(out, "required")
			} else {
				out["required"] = req
			}
		}
	}
	switch ap := out["additionalProperties"].(type) {
	case map[string]any:
		if ap["nullable"] == true {
			delete(out, "required")
		}
		out["additionalProperties"] = Schema(ap)
	}
	if items, ok := out["items"]; ok {
		out["items"] = Schema(items)
	}
	// A $ref stands alone in v2 readers (kubectl rejects a typed $ref).
	if _, ok := out["$ref"]; ok {
		delete(out, "type")
		delete(out, "properties")
	}
	return out
}

// pathItem converts the operations of one path.
func pathItem(in map[string]json.RawMessage) map[string]any {
	out := map[string]any{}
	for key, raw := range in {
		switch key {
		case "parameters":
			var params []map[string]any
			if json.Unmarshal(raw, &params) == nil {
				out["parameters"] = parameters(params)
			}
		case "get", "put", "post", "delete", "patch", "head", "options":
			var op map[string]any
			if json.Unmarshal(raw, &op) == nil {
				out[key] = operation(op)
			}
		}
	}
	return out
}

// parameters turns v3 parameters (type in a schema) into v2 ones (type
// beside the name).
func parameters(in []map[string]any) []any {
	out := make([]any, 0, len(in))
	for _, p := range in {
		q := map[string]any{}
		for k, v := range p {
			if k != "schema" {
				q[k] = v
			}
		}
		if s, ok := p["schema"].(map[string]any); ok {
			for k, v := range s {
				q[k] = v
			}
		}
		out = append(out, q)
	}
	return out
}

// operation turns a v3 operation into v2: the request body becomes the
// "body" parameter, and the media types of the body and of the responses
// become consumes and produces.
func operation(in map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range in {
		switch k {
		case "requestBody", "responses", "parameters":
		default:
			out[k] = v
		}
	}
	var params []map[string]any
	if ps, ok := in["parameters"].([]any); ok {
		for _, p := range ps {
			if m, ok := p.(map[string]any); ok {
				params = append(params, m)
			}
		}
	}
	converted := parameters(params)
	if body, ok := in["requestBody"].(map[string]any); ok {
		schema, types := content(body["content"])
		out["consumes"] = types
		converted = append(converted, map[string]any{"name": "body", "in": "body", "required": true, "schema": schema})
	}
	if len(converted) > 0 {
		out["parameters"] = converted
	}
	produces := map[string]bool{}
	responses := map[string]any{}
	if rs, ok := in["responses"].(map[string]any); ok {
		for code, r := range rs {
			rm, _ := r.(map[string]any)
			resp := map[string]any{"description": rm["description"]}
			if schema, types := content(rm["content"]); schema != nil {
				resp["schema"] = schema
				for _, t := range types {
					produces[t] = true
				}
			}
			responses[code] = resp
		}
	}
	out["responses"] = responses
	if len(produces) > 0 {
		out["produces"] = slices.Sorted(maps.Keys(produces))
	}
	return out
}

// content returns the schema of a v3 content map (every media type has
// the same one in kube-apiserver's documents) and its media types.
func content(c any) (schema any, types []string) {
	m, ok := c.(map[string]any)
	if !ok || len(m) == 0 {
		return nil, nil
	}
	types = slices.Sorted(maps.Keys(m))
	if mt, ok := m[types[0]].(map[string]any); ok {
		schema = Schema(mt["schema"])
	}
	return schema, types
}
