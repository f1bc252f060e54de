package structural

import (
	"encoding/json"
	"fmt"
	"strings"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
	utilvalidation "github.com/crdlab/crdlab/machinery/validation"
)

// validateEmbedded checks the apiVersion, kind and metadata of every
// x-kubernetes-embedded-resource object in x (and of x itself with
// isResourceRoot).
//
// Mirrors objectmeta.Validate in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta/validation.go.
func validateEmbedded(pth *field.Path, x any, s *Structural, isResourceRoot bool) field.ErrorList {
	s = rootSchema(s, isResourceRoot)
	if s == nil || s.noEmbedded {
		return nil
	}
	var errs field.ErrorList
	switch x := x.(type) {
	case map[string]any:
		if s.XEmbeddedResource {
			errs = append(errs, validateEmbeddedResource(pth, x)...)
		}
		for _, k := range sortedKeys(x) {
			if prop, ok := s.Properties[k]; ok {
				errs = append(errs, validateEmbedded(pth.Child(k), x[k], prop, false)...)
			} else if s.AdditionalProperties != nil {
				errs = append(errs, validateEmbedded(pth.Key(k), x[k], s.AdditionalProperties, false)...)
			}
		}
	case []any:
		for i, v := range x {
			errs = append(errs, validateEmbedded(pth.Index(i), v, s.Items, false)...)
		}
	}
	return errs
}

// validateEmbeddedResource checks one embedded object: apiVersion and kind
// are required strings (a group/version, a kind that lower-cased is a
// DNS-1035 label), and metadata is valid ObjectMeta (its name, if any, a
// path segment). Mirrors validateEmbeddedResource.
func validateEmbeddedResource(pth *field.Path, x map[string]any) field.ErrorList {
	var errs field.ErrorList
	if _, ok := x["apiVersion"]; !ok {
		errs = append(errs, field.Required(pth.Child("apiVersion"), ""))
	}
	if _, ok := x["kind"]; !ok {
		errs = append(errs, field.Required(pth.Child("kind"), ""))
	}
	if v, ok := x["apiVersion"]; ok {
		p := pth.Child("apiVersion")
		av, isStr := v.(string)
		switch {
		case !isStr:
			errs = append(errs, field.Invalid(p, v, "must be a string"))
		case av == "":
			errs = append(errs, field.Invalid(p, av, "must not be empty"))
		case av != "/" && strings.Count(av, "/") > 1:
			errs = append(errs, field.Invalid(p, av, "unexpected GroupVersion string: "+av))
		}
	}
	if v, ok := x["kind"]; ok {
		p := pth.Child("kind")
		k, isStr := v.(string)
		switch {
		case !isStr:
			errs = append(errs, field.Invalid(p, v, "must be a string"))
		case k == "":
			errs = append(errs, field.Invalid(p, k, "must not be empty"))
		default:
			if msgs := utilvalidation.IsDNS1035Label(strings.ToLower(k)); len(msgs) > 0 {
				errs = append(errs, field.Invalid(p, k, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
			}
		}
	}
	if v, ok := x["metadata"]; ok {
		p := pth.Child("metadata")
		var meta metav1.ObjectMeta
		b, err := json.Marshal(v)
		if err == nil {
			err = json.Unmarshal(b, &meta)
		}
		if err != nil {
			errs = append(errs, field.Invalid(p, v, err.Error()))
		} else {
			if meta.Name == "" {
				meta.Name = "fakename" // as upstream: a name is not required here
			}
			errs = append(errs, validation.ValidateObjectMeta(&meta, meta.Namespace != "", pathSegmentName, p)...)
		}
	}
	return errs
}

// pathSegmentName is the name rule of embedded objects: any name that can
// be one segment of a URL path. Mirrors content.IsPathSegmentName and
// IsPathSegmentPrefix in k8s.io/apimachinery/pkg/api/validate/content/path.go.
func pathSegmentName(name string, prefix bool) []string {
	if !prefix {
		for _, bad := range []string{".", ".."} {
			if name == bad {
				return []string{fmt.Sprintf("may not be '%s'", bad)}
			}
		}
	}
	var msgs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			msgs = append(msgs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return msgs
}
