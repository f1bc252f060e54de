package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/internal/fastjson"
)

// Resource describes one served version of a custom resource, as much of
// its CRD as the OpenAPI document needs.
type Resource struct {
	Group, Version, Kind, ListKind, Plural, Singular string
	Namespaced                                       bool
	// SchemaJSON is the version's openAPIV3Schema; nil for none (the
	// document then says "an object with any fields").
	SchemaJSON []byte
	// Definitions are the schemas SchemaJSON refers to
	// ("#/components/schemas/<name>"), by name: they go into the
	// document's components as they are. A CRD's schema has none (it
	// may not use $ref); a built-in kind's, from GoTypes.SchemaOf, has.
	Definitions map[string]any
	// HasStatus adds the /status paths.
	HasStatus bool
	// Scale adds the /scale paths; nil if the CRD has no scale
	// subresource.
	Scale *ScaleInfo
	// Name and ListName are the components.schemas keys of the kind and
	// its list; "" means SchemaName(Group, Version, Kind) (custom
	// resources). Built-in kinds use upstream's Go names
	// ("io.k8s.api.core.v1.Secret").
	Name, ListName string
	// Verbs limits the operations to these verbs (get, list, watch,
	// create, update, patch, delete, deletecollection); nil means all of
	// them. The self-reviews have only create.
	Verbs []string
}

// name and listName are the schema keys of the kind and its list.
func (r Resource) name() string {
	if r.Name != "" {
		return r.Name
	}
	return SchemaName(r.Group, r.Version, r.Kind)
}

func (r Resource) listName() string {
	if r.ListName != "" {
		return r.ListName
	}
	return SchemaName(r.Group, r.Version, r.ListKind)
}

func (r Resource) has(verb string) bool { return r.Verbs == nil || slices.Contains(r.Verbs, verb) }

// prefix is the URL path of the group-version: /api/v1/ for the legacy
// core group, /apis/<group>/<version>/ for the others.
func prefix(group, version string) string {
	if group == "" {
		return "/api/" + version + "/"
	}
	return "/apis/" + group + "/" + version + "/"
}

// ScaleInfo is a CRD's scale subresource: the JSON paths of the replica
// counts and label selector in the custom resource.
type ScaleInfo struct {
	SpecReplicasPath   string
	StatusReplicasPath string
	LabelSelectorPath  string
}

// ErrInvalidResource is wrapped by the errors of BuildGroupVersion.
var ErrInvalidResource = errors.New("invalid resource")

func invalidResource(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidResource, fmt.Sprintf(format, args...))
}

// SchemaName is the components.schemas key of a kind: the group's labels
// reversed, then the version and kind ("stable.example.com", "v1",
// "CronTab" → "com.example.stable.v1.CronTab").
//
// Mirrors the definition namer of the CRD OpenAPI builder.
func SchemaName(group, version, kind string) string {
	labels := strings.Split(group, ".")
	slices.Reverse(labels)
	return strings.Join(append(labels, version, kind), ".")
}

// BuildGroupVersion returns the OpenAPI v3 document of one group-version,
// served at /openapi/v3/apis/{group}/{version} (/openapi/v3/api/v1 for
// the legacy core group, ""): for each resource its
// collection and item paths (and /status, /scale), the schema of its kind
// with apiVersion, kind and metadata added (this is the one place that
// adds them), its List schema, its Definitions, and the meta schemas they
// refer to. Every POST, PUT and PATCH declares the fieldValidation query
// parameter, which kubectl looks for.
//
// Mirrors builder.BuildOpenAPIV3, merged over the CRDs of one
// group-version as the OpenAPI v3 controller does.
func BuildGroupVersion(group, version string, resources []Resource) ([]byte, error) {
	doc, err := buildDocument(group, version, resources)
	if err != nil {
		return nil, err
	}
	size := 64 << 10
	for _, r := range resources {
		size += len(r.SchemaJSON) + len(r.SchemaJSON)/8
	}
	return doc.appendJSON(make([]byte, 0, size))
}

// buildDocument is BuildGroupVersion's document, not yet encoded.
func buildDocument(group, version string, resources []Resource) (*document, error) {
	if version == "" {
		return nil, invalidResource("version must not be empty")
	}
	doc := document{
		OpenAPI:    "3.0.0",
		Info:       info{Title: "Kubernetes CRD Swagger", Version: "v0.1.0"},
		Paths:      map[string]*pathItem{},
		Components: components{Schemas: map[string]any{}},
	}
	scale := false
	seen := map[string]bool{}
	for _, r := range resources {
		if r.Group != group || r.Version != version {
			return nil, invalidResource("resource %q is in %s/%s, not %s/%s", r.Plural, r.Group, r.Version, group, version)
		}
		if r.Kind == "" || r.Plural == "" {
			return nil, invalidResource("resource %q of kind %q: kind and plural must not be empty", r.Plural, r.Kind)
		}
		if seen[r.Plural] {
			return nil, invalidResource("resource %q appears twice", r.Plural)
		}
		seen[r.Plural] = true
		if r.ListKind == "" {
			r.ListKind = r.Kind + "List"
		}
		s, err := crSchema(r)
		if err != nil {
			return nil, err
		}
		for name, def := range r.Definitions {
			if other, ok := doc.Components.Schemas[name]; ok && !reflect.DeepEqual(other, def) {
				return nil, invalidResource("resource %q: a different schema %q is already in the document", r.Plural, name)
			}
			doc.Components.Schemas[name] = def
		}
		doc.Components.Schemas[r.name()] = s
		if r.has("list") {
			doc.Components.Schemas[r.listName()] = listSchema(r)
		}
		addPaths(doc.Paths, r)
		scale = scale || r.Scale != nil
	}
	for name, s := range metaSchemas(scale) {
		doc.Components.Schemas[name] = s
	}
	return &doc, nil
}

// appendJSON appends json.Marshal(d) to dst: the same bytes
// (TestBuildGroupVersion_SameBytes), with the schemas, most of a CRD
// group version's document, written by unstructured.AppendJSON in one
// pass into one buffer. encoding/json sorted every map's keys through
// reflection and grew its own buffer, then copied it: a group version of
// eight provider CRDs (1.36 MB) allocated about 9 MB to encode
// (docs/crd-memory.md, "Session 20").
func (d *document) appendJSON(dst []byte) ([]byte, error) {
	head, err := json.Marshal(struct {
		OpenAPI string               `json:"openapi"`
		Info    info                 `json:"info"`
		Paths   map[string]*pathItem `json:"paths"`
	}{d.OpenAPI, d.Info, d.Paths})
	if err != nil {
		return nil, err
	}
	dst = append(dst, head[:len(head)-1]...) // without its closing brace
	dst = append(dst, `,"components":{"schemas":`...)
	if dst, err = unstructured.AppendJSON(dst, d.Components.Schemas); err != nil {
		return nil, err
	}
	return append(dst, "}}"...), nil
}

// crSchema is the kind's schema: the CRD's, with apiVersion, kind and
// metadata set and the x-kubernetes-group-version-kind extension added.
func crSchema(r Resource) (map[string]any, error) {
	s := map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
	if trimmed := bytes.TrimSpace(r.SchemaJSON); len(trimmed) > 0 && !bytes.Equal(trimmed, []byte("null")) {
		v, ok := fastjson.Decode(trimmed, fastjson.UseNumber)
		if !ok {
			// fastjson refuses what it does not handle; encoding/json
			// decides (the same values, numbers as json.Number).
			dec := json.NewDecoder(bytes.NewReader(trimmed))
			dec.UseNumber()
			if err := dec.Decode(&v); err != nil || dec.More() {
				return nil, invalidResource("schema of %q is not valid JSON", r.Plural)
			}
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, invalidResource("schema of %q is not a JSON object", r.Plural)
		}
		s = m
	}
	props := map[string]any{}
	if p, ok := s["properties"]; ok && p != nil {
		if props, ok = p.(map[string]any); !ok {
			return nil, invalidResource("schema of %q: properties is not an object", r.Plural)
		}
	}
	props["apiVersion"] = prop("string", apiVersionDescription)
	props["kind"] = prop("string", kindDescription)
	props["metadata"] = refField(objectMetaName, metadataDescription)
	s["properties"] = props
	if _, ok := s["type"]; !ok {
		s["type"] = "object"
	}
	addEmbeddedProperties(s)
	return withGVK(s, r.Group, r.Version, r.Kind), nil
}

// addEmbeddedProperties gives every x-kubernetes-embedded-resource object
// below s its apiVersion, kind and metadata properties, and requires kind
// and apiVersion, as an object of a kind has them.
//
// Mirrors addEmbeddedProperties in
// k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder/builder.go
// (for v3; machinery/openapi/v2 takes them off again where v2 needs).
func addEmbeddedProperties(s any) {
	m, ok := s.(map[string]any)
	if !ok {
		return
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for _, p := range props {
			addEmbeddedProperties(p)
		}
	}
	addEmbeddedProperties(m["items"])
	addEmbeddedProperties(m["additionalProperties"])
	if m["x-kubernetes-embedded-resource"] != true {
		return
	}
	props, _ := m["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		m["properties"] = props
	}
	props["apiVersion"] = prop("string", embeddedAPIVersionDescription)
	props["kind"] = prop("string", embeddedKindDescription)
	props["metadata"] = refField(objectMetaName, metadataDescription)
	required, _ := m["required"].([]any)
	for _, r := range []string{"kind", "apiVersion"} {
		if !slices.Contains(required, any(r)) {
			required = append(required, r)
		}
	}
	m["required"] = required
}

// listSchema is the schema of the kind's List.
func listSchema(r Resource) map[string]any {
	return withGVK(map[string]any{
		"description": r.ListKind + " is a list of " + r.Kind,
		"type":        "object",
		"required":    []any{"items"},
		"properties": map[string]any{
			"apiVersion": prop("string", apiVersionDescription),
			"items": map[string]any{"type": "array", "items": ref(r.name()),
				"description": "List of " + r.Plural + ". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md"},
			"kind":     prop("string", kindDescription),
			"metadata": refField(listMetaName, listMetaDescription),
		},
	}, r.Group, r.Version, r.ListKind)
}

// camel turns "stable.example-2.com" into "StableExample2Com", as the
// operation ids spell groups; the core group is "Core".
func camel(s string) string {
	if s == "" {
		return "Core"
	}
	var b strings.Builder
	up := true
	for _, c := range s {
		if c == '.' || c == '-' {
			up = true
			continue
		}
		if up {
			c = unicode.ToUpper(c)
			up = false
		}
		b.WriteRune(c)
	}
	return b.String()
}

// tag is the operations' tag: "stableExampleCom_v1".
func tag(group, version string) string {
	c := camel(group)
	if c == "" {
		return version
	}
	return strings.ToLower(c[:1]) + c[1:] + "_" + version
}

func content(schema map[string]any, types ...string) map[string]mediaType {
	m := make(map[string]mediaType, len(types))
	for _, t := range types {
		m[t] = mediaType{Schema: schema}
	}
	return m
}

var (
	jsonYAML       = []string{"application/json", "application/yaml"}
	patchTypes     = []string{"application/apply-patch+yaml", "application/json-patch+json", "application/merge-patch+json"}
	unauthorized   = response{Description: "Unauthorized"}
	statusResponse = func(desc string) response {
		return response{Description: desc, Content: content(ref(statusName), jsonYAML...)}
	}
)

// addPaths adds the paths of one resource. Mirrors the routes the
// endpoints installer registers for a CRD's storage.
func addPaths(paths map[string]*pathItem, r Resource) {
	g := gvk{Group: r.Group, Version: r.Version, Kind: r.Kind}
	scaleGVK := gvk{Group: "autoscaling", Version: "v1", Kind: "Scale"}
	obj := ref(r.name())
	list := ref(r.listName())
	tags := []string{tag(r.Group, r.Version)}
	gv := camel(r.Group) + camel(r.Version)
	ns := ""
	prefix := prefix(r.Group, r.Version)
	root := prefix
	var scopeParams []parameter
	if r.Namespaced {
		ns = "Namespaced"
		prefix += "namespaces/{namespace}/"
		scopeParams = []parameter{pNamespace}
	}
	collection := prefix + r.Plural
	item := collection + "/{name}"
	nameParam := pathParam("name", "name of the "+r.Kind)
	itemParams := append([]parameter{nameParam}, scopeParams...)

	op := func(action, verb, suffix, desc string, kind gvk, params []parameter, body *requestBody, responses map[string]response) *operation {
		kubeVerb := map[string]string{"post": "create", "put": "update"}[action]
		if kubeVerb == "" {
			kubeVerb = action
		}
		if !r.has(kubeVerb) {
			return nil
		}
		responses["401"] = unauthorized
		return &operation{Tags: tags, Description: desc, OperationID: verb + gv + suffix, Parameters: params,
			RequestBody: body, Responses: responses, Action: action, GVK: kind}
	}
	objBody := func(schema map[string]any) *requestBody {
		return &requestBody{Content: content(schema, jsonYAML...), Required: true}
	}
	patchBody := &requestBody{Content: content(ref(patchName), patchTypes...), Required: true}
	ok := func(schema map[string]any, codes ...string) map[string]response {
		m := map[string]response{}
		for _, c := range codes {
			desc := map[string]string{"200": "OK", "201": "Created", "202": "Accepted"}[c]
			m[c] = response{Description: desc, Content: content(schema, jsonYAML...)}
		}
		return m
	}

	listResponses := map[string]response{"200": {Description: "OK",
		Content: content(list, "application/json", "application/json;stream=watch", "application/yaml")}}
	paths[collection] = &pathItem{
		Parameters: append(slices.Clone(scopeParams), pPretty),
		Get:        op("list", "list", ns+r.Kind, "list objects of kind "+r.Kind, g, listParams, nil, listResponses),
		Post:       op("post", "create", ns+r.Kind, "create a "+r.Kind, g, createParams, objBody(obj), ok(obj, "200", "201", "202")),
		Delete: op("deletecollection", "delete", "Collection"+ns+r.Kind, "delete collection of "+r.Kind, g, deleteCollectionParams,
			objBody(ref(deleteOptionsName)), map[string]response{"200": statusResponse("OK")}),
	}
	paths[item] = &pathItem{
		Parameters: append(slices.Clone(itemParams), pPretty),
		Get:        op("get", "read", ns+r.Kind, "read the specified "+r.Kind, g, nil, nil, ok(obj, "200")),
		Put:        op("put", "replace", ns+r.Kind, "replace the specified "+r.Kind, g, updateParams, objBody(obj), ok(obj, "200", "201")),
		Patch:      op("patch", "patch", ns+r.Kind, "partially update the specified "+r.Kind, g, patchParams, patchBody, ok(obj, "200", "201")),
		Delete: op("delete", "delete", ns+r.Kind, "delete a "+r.Kind, g, deleteParams, objBody(ref(deleteOptionsName)),
			map[string]response{"200": statusResponse("OK"), "202": statusResponse("Accepted")}),
	}
	if r.Namespaced {
		paths[root+r.Plural] = &pathItem{
			Parameters: []parameter{pPretty},
			Get: op("list", "list", r.Kind+"ForAllNamespaces", "list objects of kind "+r.Kind, g, listParams, nil,
				map[string]response{"200": listResponses["200"]}),
		}
	}
	if r.HasStatus {
		paths[item+"/status"] = &pathItem{
			Parameters: append(slices.Clone(itemParams), pPretty),
			Get:        op("get", "read", ns+r.Kind+"Status", "read status of the specified "+r.Kind, g, nil, nil, ok(obj, "200")),
			Put:        op("put", "replace", ns+r.Kind+"Status", "replace status of the specified "+r.Kind, g, updateParams, objBody(obj), ok(obj, "200", "201")),
			Patch:      op("patch", "patch", ns+r.Kind+"Status", "partially update status of the specified "+r.Kind, g, patchParams, patchBody, ok(obj, "200", "201")),
		}
	}
	if r.Scale != nil {
		sc := ref(scaleName)
		paths[item+"/scale"] = &pathItem{
			Parameters: append(slices.Clone(itemParams), pPretty),
			Get:        op("get", "read", ns+r.Kind+"Scale", "read scale of the specified "+r.Kind, scaleGVK, nil, nil, ok(sc, "200")),
			Put:        op("put", "replace", ns+r.Kind+"Scale", "replace scale of the specified "+r.Kind, scaleGVK, updateParams, objBody(sc), ok(sc, "200", "201")),
			Patch:      op("patch", "patch", ns+r.Kind+"Scale", "partially update scale of the specified "+r.Kind, scaleGVK, patchParams, patchBody, ok(sc, "200", "201")),
		}
	}
	// A resource with fewer verbs (the self-reviews: create only) leaves
	// paths without operations: they are not served.
	for path, item := range paths {
		if item.Get == nil && item.Put == nil && item.Post == nil && item.Delete == nil && item.Patch == nil {
			delete(paths, path)
		}
	}
}
