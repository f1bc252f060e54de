package handler

import (
	"context"
	"errors"
	"net/http"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/handler/endpoints"
	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/machinery/apiresource"
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
func crdDiscoveryResource() apiresource.Resource {
	return apiresource.Resource{
		Name:         "customresourcedefinitions",
		SingularName: "customresourcedefinition",
		Namespaced:   false,
		Kind:         "CustomResourceDefinition",
		Verbs:        []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
		ShortNames:   []string{"crd", "crds"},
		Categories:   []string{"api-extensions"},
		Subresources: []apiresource.Subresource{{
			Name:  "status",
			Kind:  scheme.GroupVersionKind{Group: apiextensions.GroupName, Version: "v1", Kind: "CustomResourceDefinition"},
			Verbs: []string{"get", "patch", "update"},
		}},
	}
}

// newCRDScope builds the endpoints.RequestScope of
// customresourcedefinitions (or its status, with subresource "status")
// in gv.
func (h *Handler) newCRDScope(gv scheme.GroupVersion, subresource string) *endpoints.RequestScope {
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
	return h.serverScope(&endpoints.RequestScope{
		Resource:    gv.WithResource("customresourcedefinitions"),
		Subresource: subresource,
		Kind:        kind,
		ListKind:    "CustomResourceDefinitionList",
		Namespaced:  false,
		Storage:     storage,
		Decode: func(_ context.Context, body []byte, strict bool) (scheme.Object, *scheme.StrictDecodingError, error) {
			if err := endpoints.CheckTypeMeta(body, kind); err != nil {
				return nil, nil, err
			}
			obj, _, err := codecs.Decode(body, scheme.DecodeOptions{Strict: strict})
			var strictErr *scheme.StrictDecodingError
			if errors.As(err, &strictErr) {
				err = nil // decoded all the same
			}
			if err != nil {
				return nil, nil, err
			}
			internal, err := s.ConvertToVersion(obj, apiextensions.SchemeGroupVersion)
			if err != nil {
				return nil, nil, err
			}
			return internal, strictErr, nil
		},
		Encode: func(obj scheme.Object) (scheme.Object, error) {
			return s.ConvertToVersion(obj, gv)
		},
	})
}

// serveCRDs serves /apis/apiextensions.k8s.io/<version>/customresourcedefinitions[/<name>[/status]],
// as info names it.
func (h *Handler) serveCRDs(w http.ResponseWriter, r *http.Request, info *request.RequestInfo) {
	scopes, ok := h.crdScopes[info.APIVersion]
	if !ok || info.Namespace != "" || len(info.Parts) > 3 {
		h.cfg.Delegate.ServeHTTP(w, r)
		return
	}
	s := scopes[0]
	switch info.Subresource {
	case "":
	case "status":
		s = scopes[1]
	default:
		h.cfg.Delegate.ServeHTTP(w, r)
		return
	}
	endpoints.Serve(w, r, s, info)
}
