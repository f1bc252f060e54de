package handler

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"sort"
	"strings"

	"github.com/gorilla/mux"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/handler/discovery"
	"github.com/crdlab/crdlab/scheme"
)

// This file serves apiextensions.k8s.io/<version>/customresourcedefinitions
// and its /status through the CRD REST storage, which works on internal
// objects: bodies are decoded in the URL's version and converted to the
// hub; answers are converted back to the URL's version.
//
// Mirrors the CRD part of apiextensions-apiserver's completedConfig.New
// (InstallAPIGroup of customresourcedefinitions and
// customresourcedefinitions/status) and the generic endpoint installer.

// crdDiscoveryResource is customresourcedefinitions in discovery.
func crdDiscoveryResource() discovery.Resource {
	return discovery.Resource{
		Name:         "customresourcedefinitions",
		SingularName: "customresourcedefinition",
		Namespaced:   false,
		Kind:         "CustomResourceDefinition",
		Verbs:        []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
		ShortNames:   []string{"crd", "crds"},
		Categories:   []string{"api-extensions"},
		Subresources: []discovery.Subresource{{
			Name:  "status",
			Kind:  scheme.GroupVersionKind{Group: apiextensions.GroupName, Version: "v1", Kind: "CustomResourceDefinition"},
			Verbs: []string{"get", "patch", "update"},
		}},
	}
}

// newCRDScope builds the requestScope of customresourcedefinitions (or its
// status, with subresource "status") in gv.
func (h *Handler) newCRDScope(gv scheme.GroupVersion, subresource string) *requestScope {
	kind := gv.WithKind("CustomResourceDefinition")
	storage := h.cfg.CRDREST
	if subresource == "status" {
		storage = h.cfg.CRDStatusREST
	}
	s := h.cfg.Scheme
	codecs := h.cfg.Codecs
	if codecs.Scheme() == nil {
		codecs = scheme.NewCodecFactory(s)
	}
	return &requestScope{
		resource:    gv.WithResource("customresourcedefinitions"),
		subresource: subresource,
		kind:        kind,
		listKind:    "CustomResourceDefinitionList",
		namespaced:  false,
		storage:     storage,
		decode: func(_ context.Context, body []byte) (scheme.Object, []string, error) {
			if err := checkTypeMeta(body, kind); err != nil {
				return nil, nil, err
			}
			obj, _, err := codecs.Decode(body, scheme.DecodeOptions{})
			if err != nil {
				return nil, nil, err
			}
			var unknown []string
			if t, err := s.New(kind); err == nil {
				unknown = unknownTypedFields(body, reflect.TypeOf(t))
			}
			internal, err := s.ConvertToVersion(obj, apiextensions.SchemeGroupVersion)
			if err != nil {
				return nil, nil, err
			}
			return internal, unknown, nil
		},
		encode: func(obj scheme.Object) (scheme.Object, error) {
			return s.ConvertToVersion(obj, gv)
		},
	}
}

// serveCRDs routes /apis/apiextensions.k8s.io/{version}/customresourcedefinitions[/{name}[/status]].
func (h *Handler) serveCRDs(w http.ResponseWriter, r *http.Request) {
	v := mux.Vars(r)
	scopes, ok := h.crdScopes[v["version"]]
	if !ok {
		h.cfg.Delegate.ServeHTTP(w, r)
		return
	}
	s := scopes[0]
	switch v["subresource"] {
	case "":
	case "status":
		s = scopes[1]
	default:
		h.cfg.Delegate.ServeHTTP(w, r)
		return
	}
	h.serveResource(w, r, s, "", v["name"])
}

// unknownTypedFields returns the paths of the fields of a JSON document
// that the Go type t does not have ("spec.foo"), for field validation of
// typed objects. Maps, json.RawMessage and interface fields accept
// anything.
//
// Mirrors what upstream's strict JSON decoding reports (via
// sigs.k8s.io/json's UnmarshalStrict with field paths).
func unknownTypedFields(body []byte, t reflect.Type) []string {
	var doc any
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil
	}
	var out []string
	walkUnknown(doc, t, "", &out)
	sort.Strings(out)
	return out
}

var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

func walkUnknown(v any, t reflect.Type, path string, out *[]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessageType {
		return
	}
	if reflect.PointerTo(t).Implements(reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()) {
		return // custom decoding (Time, JSON, IntOrString …) takes any shape it likes
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		fields := jsonFields(t)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ft, ok := fields[k]
			if !ok {
				*out = append(*out, joinPath(path, k))
				continue
			}
			walkUnknown(m[k], ft, joinPath(path, k), out)
		}
	case reflect.Slice, reflect.Array:
		a, ok := v.([]any)
		if !ok {
			return
		}
		for i, e := range a {
			walkUnknown(e, t.Elem(), path+"["+itoa(i)+"]", out)
		}
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		for k, e := range m {
			walkUnknown(e, t.Elem(), joinPath(path, k), out)
		}
	}
}

// jsonFields maps the JSON names of t's fields (embedded structs inlined)
// to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if (f.Anonymous && name == "") || strings.Contains(opts, "inline") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range jsonFields(ft) {
					out[k] = v
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

func joinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
