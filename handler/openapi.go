package handler

import (
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/scheme"
)

// openAPIService serves /openapi/v3 (the root: one entry per group
// version) and /openapi/v3/apis/<group>/<version> (paths and schemas of
// one group version), built from the Established CRDs. Documents are
// cached until a CRD changes.
//
// What kubectl needs from them: for `kubectl create/apply` with the default
// --validate=strict, a PATCH operation on the resource's path tagged with
// x-kubernetes-group-version-kind and a fieldValidation query parameter
// (then kubectl leaves validation to the server); for `kubectl explain`,
// components.schemas keyed by a dotted name.
//
// Mirrors k8s.io/kube-openapi/pkg/handler3 (root and per-group-version
// documents with ?hash=) and apiextensions-apiserver's
// controller/openapi/builder (paths and schemas per CRD version).
type openAPIService struct {
	h *Handler

	mu sync.Mutex // guards cache
	// cache holds built group-version documents by "group/version"; it is
	// emptied by invalidate.
	cache map[string][]byte
}

func newOpenAPIService(h *Handler) *openAPIService {
	return &openAPIService{h: h, cache: map[string][]byte{}}
}

// invalidate drops every cached document (a CRD changed).
func (o *openAPIService) invalidate() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.cache = map[string][]byte{}
}

// groupVersions lists the documented group versions: apiextensions.k8s.io's
// enabled versions and every version served by an Established CRD.
func (o *openAPIService) groupVersions() []scheme.GroupVersion {
	set := map[scheme.GroupVersion]bool{}
	for v := range o.h.crdScopes {
		set[scheme.GroupVersion{Group: apiextensions.GroupName, Version: v}] = true
	}
	for _, crd := range o.h.crds.List() {
		if !helpers.IsCRDConditionTrue(crd, apiextensionsv1.Established) {
			continue
		}
		for _, v := range crd.Spec.Versions {
			if v.Served {
				set[scheme.GroupVersion{Group: crd.Spec.Group, Version: v.Name}] = true
			}
		}
	}
	out := make([]scheme.GroupVersion, 0, len(set))
	for gv := range set {
		out = append(out, gv)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func (o *openAPIService) document(gv scheme.GroupVersion) ([]byte, bool) {
	key := gv.String()
	o.mu.Lock()
	doc, ok := o.cache[key]
	o.mu.Unlock()
	if ok {
		return doc, doc != nil
	}
	doc = o.build(gv)
	o.mu.Lock()
	o.cache[key] = doc
	o.mu.Unlock()
	return doc, doc != nil
}

func hashOf(doc []byte) string {
	sum := sha512.Sum512(doc)
	return fmt.Sprintf("%X", sum[:])
}

func (o *openAPIService) serveRoot(w http.ResponseWriter, r *http.Request) {
	paths := map[string]any{}
	for _, gv := range o.groupVersions() {
		doc, ok := o.document(gv)
		if !ok {
			continue
		}
		p := "apis/" + gv.Group + "/" + gv.Version
		paths[p] = map[string]string{"serverRelativeURL": "/openapi/v3/" + p + "?hash=" + hashOf(doc)}
	}
	responsewriters.WriteJSON(w, http.StatusOK, map[string]any{"paths": paths})
}

func (o *openAPIService) serveGroupVersion(w http.ResponseWriter, r *http.Request, gv scheme.GroupVersion) {
	doc, ok := o.document(gv)
	if !ok {
		notFoundHandler(w, r)
		return
	}
	etag := `"` + hashOf(doc) + `"`
	w.Header().Set("ETag", etag)
	if r.URL.Query().Get("hash") != "" {
		w.Header().Set("Cache-Control", "public, immutable")
	}
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(doc)
}

// openAPIResource is one resource in a group-version document.
type openAPIResource struct {
	plural, kind string
	namespaced   bool
	schema       any
	status       bool
	scale        bool
}

// build makes the document of gv, or nil if nothing serves gv.
func (o *openAPIService) build(gv scheme.GroupVersion) []byte {
	var resources []openAPIResource
	if gv.Group == apiextensions.GroupName {
		if _, ok := o.h.crdScopes[gv.Version]; !ok {
			return nil
		}
		resources = append(resources, openAPIResource{plural: "customresourcedefinitions", kind: "CustomResourceDefinition",
			schema: map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}, status: true})
	} else {
		for _, crd := range o.h.crds.List() {
			if crd.Spec.Group != gv.Group || !helpers.IsCRDConditionTrue(crd, apiextensionsv1.Established) {
				continue
			}
			for _, v := range crd.Spec.Versions {
				if v.Name != gv.Version || !v.Served {
					continue
				}
				res := openAPIResource{plural: crd.Spec.Names.Plural, kind: crd.Spec.Names.Kind,
					namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
					schema:     map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
				if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
					var sch map[string]any
					if b, err := json.Marshal(v.Schema.OpenAPIV3Schema); err == nil && json.Unmarshal(b, &sch) == nil {
						res.schema = sch
					}
				}
				if v.Subresources != nil {
					res.status = v.Subresources.Status != nil
					res.scale = v.Subresources.Scale != nil
				}
				resources = append(resources, res)
			}
		}
	}
	if len(resources) == 0 {
		return nil
	}
	paths := map[string]any{}
	schemas := metaSchemas()
	for _, res := range resources {
		gvk := map[string]string{"group": gv.Group, "version": gv.Version, "kind": res.kind}
		name := schemaName(gv, res.kind)
		m, _ := res.schema.(map[string]any)
		sch := withTypeMeta(m)
		sch["x-kubernetes-group-version-kind"] = []any{gvk}
		schemas[name] = sch
		ref := map[string]any{"$ref": "#/components/schemas/" + name}
		body := map[string]any{"content": map[string]any{"application/json": map[string]any{"schema": ref}}}
		okResp := map[string]any{"200": map[string]any{"description": "OK", "content": map[string]any{"application/json": map[string]any{"schema": ref}}}}
		op := func(action string, params ...string) map[string]any {
			m := map[string]any{
				"operationId":                     action + res.kind,
				"x-kubernetes-action":             action,
				"x-kubernetes-group-version-kind": gvk,
				"responses":                       okResp,
			}
			var ps []any
			for _, p := range params {
				ps = append(ps, map[string]any{"name": p, "in": "query", "schema": map[string]any{"type": "string", "uniqueItems": true}})
			}
			if ps != nil {
				m["parameters"] = ps
			}
			return m
		}
		write := []string{"dryRun", "fieldManager", "fieldValidation"}
		base := "/apis/" + gv.Group + "/" + gv.Version
		if res.namespaced {
			base += "/namespaces/{namespace}"
		}
		collection := base + "/" + res.plural
		post := op("post", write...)
		post["requestBody"] = body
		paths[collection] = map[string]any{
			"get":    op("list", "labelSelector", "fieldSelector", "limit", "continue", "resourceVersion", "resourceVersionMatch", "watch", "timeoutSeconds", "allowWatchBookmarks", "sendInitialEvents"),
			"post":   post,
			"delete": op("deletecollection"),
		}
		item := func() map[string]any {
			put := op("put", write...)
			put["requestBody"] = body
			patch := op("patch", append(write, "force")...)
			patch["requestBody"] = map[string]any{"content": map[string]any{
				"application/json-patch+json":  map[string]any{"schema": map[string]any{"type": "object"}},
				"application/merge-patch+json": map[string]any{"schema": map[string]any{"type": "object"}},
			}}
			return map[string]any{"get": op("get"), "put": put, "patch": patch, "delete": op("delete", "dryRun", "propagationPolicy")}
		}
		paths[collection+"/{name}"] = item()
		if res.status {
			st := item()
			delete(st, "delete")
			paths[collection+"/{name}/status"] = st
		}
		if res.scale {
			sc := item()
			delete(sc, "delete")
			scaleGVK := map[string]string{"group": "autoscaling", "version": "v1", "kind": "Scale"}
			for _, k := range []string{"get", "put", "patch"} {
				sc[k].(map[string]any)["x-kubernetes-group-version-kind"] = scaleGVK
			}
			paths[collection+"/{name}/scale"] = sc
		}
	}
	doc, err := json.Marshal(map[string]any{
		"openapi":    "3.0.0",
		"info":       map[string]any{"title": "crdlab", "version": "unversioned"},
		"paths":      paths,
		"components": map[string]any{"schemas": schemas},
	})
	if err != nil {
		return nil
	}
	return doc
}

// schemaName is the dotted name of a kind's schema, reversed group first,
// as upstream names CRD schemas ("com.example.stable.v1.CronTab").
func schemaName(gv scheme.GroupVersion, kind string) string {
	parts := strings.Split(gv.Group, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".") + "." + gv.Version + "." + kind
}
