package handler

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/apis/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/machinery/managedfields"
	"github.com/crdlab/crdlab/machinery/openapi"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
)

// This file wires server-side apply's bookkeeping (package
// machinery/managedfields) into the verb handlers. A scope whose objects
// keep metadata.managedFields has a scopeFieldManager: create, update and
// JSON or merge patches record an Update entry for their manager
// (recordUpdate, as upstream's handlers call FieldManager.UpdateNoErrors),
// and an application/apply-patch+yaml merges through it (applyPatch in
// patch.go).
//
// Built-in kinds get theirs from newTypedFieldManager; custom resources
// from buildCRDInfo, whose schemas are the CRD's.

// scopeFieldManager is the field manager of one scope: the kind in the
// URL's version, and the subresource.
type scopeFieldManager struct {
	fm *managedfields.FieldManager
	// toWire returns an object as decode returns it and storage holds it
	// (the storage version, an internal type) as Unstructured in the
	// scope's version, defaulted as a read would be. The result may share
	// parts of obj: the field manager only reads them.
	toWire func(obj scheme.Object) (*unstructured.Unstructured, error)
}

// isStored reports whether old is a stored object rather than the empty
// object Store.Update hands over when the object does not exist yet.
func isStored(old scheme.Object) bool {
	m, ok := metav1.Accessor(old)
	return ok && old != nil && (m.GetResourceVersion() != "" || m.GetUID() != "")
}

// recordUpdate gives obj, about to be stored by a create, update or
// non-apply patch of manager, its new managedFields: live is the stored
// object (nil, or Store's empty object, for a create). It never fails: on
// an error obj keeps live's entries.
//
// Mirrors the FieldManager.UpdateNoErrors calls of upstream's create.go,
// update.go and patch.go.
func (m *scopeFieldManager) recordUpdate(live, obj scheme.Object, manager string) scheme.Object {
	liveW := m.fm.NewEmptyObject()
	if live != nil && isStored(live) {
		w, err := m.toWire(live)
		if err != nil {
			return obj
		}
		liveW = w
	}
	objW, err := m.toWire(obj)
	if err != nil {
		return obj
	}
	out := m.fm.UpdateNoErrors(liveW, objW, manager)
	setManagedFieldsFrom(obj, out)
	return obj
}

// apply merges applied (in the scope's version) into live as manager: the
// merged object, with its managedFields, to be decoded like a body.
//
// Mirrors (*applyPatcher).applyPatchToCurrentObject and createNewObject.
func (m *scopeFieldManager) apply(live scheme.Object, applied *unstructured.Unstructured, manager string, force bool) (*unstructured.Unstructured, error) {
	liveW := m.fm.NewEmptyObject()
	if live != nil && isStored(live) {
		w, err := m.toWire(live)
		if err != nil {
			return nil, err
		}
		liveW = w
	}
	return m.fm.Apply(liveW, applied, manager, force)
}

// setManagedFieldsFrom copies wire's managedFields into obj.
func setManagedFieldsFrom(obj scheme.Object, wire *unstructured.Unstructured) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		// The entries as the field manager wrote them, without a second
		// conversion.
		raw, ok, _ := unstructured.NestedFieldNoCopy(wire.Object, "metadata", "managedFields")
		if ok {
			_ = unstructured.SetNestedField(u.Object, raw, "metadata", "managedFields")
		} else {
			unstructured.RemoveNestedField(u.Object, "metadata", "managedFields")
		}
		return
	}
	if a, ok := metav1.Accessor(obj); ok {
		a.SetManagedFields(wire.GetManagedFields())
	}
}

// newTypedFieldManager returns the field manager of a scope of a built-in
// kind: objects are the kind's Go types, in kind's version on the wire
// and any version (the internal one) in storage. resources describe the
// kind in each of its versions (what the OpenAPI documents say, with the
// strategy's markers: crdKindOpenAPIResource), so that entries written in
// one version are understood in another. The reset fields are those the
// storage's strategy declares (registry.ResetFieldsStrategy).
//
// This is how a built-in kind gets managedFields: set the scope's
// fieldManager to what this returns.
//
// Mirrors the FieldManager upstream's endpoint installer builds for every
// resource (managedfields.NewDefaultFieldManager with the static OpenAPI
// models).
func (h *Handler) newTypedFieldManager(resources []openapi.Resource, kind scheme.GroupVersionKind, subresource string, storage registry.Storage) (*scopeFieldManager, error) {
	models, err := openapi.Models(resources)
	if err != nil {
		return nil, err
	}
	tc, err := managedfields.NewTypeConverter(models, false)
	if err != nil {
		return nil, err
	}
	s := h.cfg.Scheme
	toVersion := func(obj scheme.Object, gv scheme.GroupVersion) (*unstructured.Unstructured, error) {
		out, err := s.ConvertToVersion(obj, gv)
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		m, err := unstructured.DecodeJSONObject(b)
		if err != nil {
			return nil, err
		}
		return &unstructured.Unstructured{Object: m}, nil
	}
	convert := func(obj *unstructured.Unstructured, apiVersion string) (*unstructured.Unstructured, error) {
		gv, err := scheme.ParseGroupVersion(apiVersion)
		if err != nil {
			return nil, err
		}
		from := obj.GroupVersionKind()
		if !s.Recognizes(gv.WithKind(from.Kind)) {
			return nil, &managedfields.NoCorrespondingTypeError{GVK: gv.WithKind(from.Kind)}
		}
		typed, err := s.New(from)
		if err != nil {
			return nil, &managedfields.NoCorrespondingTypeError{GVK: from}
		}
		b, err := obj.MarshalJSON()
		if err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		if err := dec.Decode(typed); err != nil {
			return nil, err
		}
		typed.GetObjectKind().SetGroupVersionKind(from)
		return toVersion(typed, gv)
	}
	var reset map[fieldpath.APIVersion]*fieldpath.Set
	if r, ok := storage.(registry.ResetFieldsStrategy); ok {
		reset = r.GetResetFields()
	}
	fm, err := managedfields.New(managedfields.Config{
		TypeConverter: tc, Kind: kind, Subresource: subresource, Converter: convert, ResetFields: reset,
	})
	if err != nil {
		return nil, err
	}
	return &scopeFieldManager{fm: fm, toWire: func(obj scheme.Object) (*unstructured.Unstructured, error) {
		return toVersion(obj, kind.GroupVersion())
	}}, nil
}

// managerOrUserAgent is the manager of a write: the fieldManager
// parameter, or the User-Agent's product ("kubectl" of
// "kubectl/v1.37.2 (linux/amd64) kubernetes/abc"), printable characters
// only, at most 128 bytes.
//
// Mirrors managerOrUserAgent and prefixFromUserAgent in
// k8s.io/apiserver/pkg/endpoints/handlers/create.go.
func managerOrUserAgent(manager, userAgent string) string {
	if manager != "" {
		return manager
	}
	prefix, _, _ := strings.Cut(userAgent, "/")
	var b strings.Builder
	for _, r := range prefix {
		if !unicode.IsPrint(r) {
			continue
		}
		if b.Len()+utf8.RuneLen(r) > validation.FieldManagerMaxLength {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// validateFieldManager answers an invalid fieldManager parameter (too
// long, unprintable) with upstream's 422 on the verb's options kind
// ("CreateOptions", "UpdateOptions", "PatchOptions").
//
// Mirrors the fieldManager part of ValidateCreateOptions,
// ValidateUpdateOptions and ValidatePatchOptions.
func validateFieldManager(manager, optionsKind string) error {
	errs := validation.ValidateFieldManager(manager, field.NewPath("fieldManager"))
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(scheme.GroupKind{Group: metav1.GroupName, Kind: optionsKind}, "", fieldErrorsToCauses(errs))
}

// validatePatchManagement checks what a patch's options say about field
// management: an apply needs a fieldManager, force is for applies only,
// and the fieldManager must be valid; all 422 on PatchOptions, as
// upstream.
//
// Mirrors the first part of ValidatePatchOptions.
func validatePatchManagement(opts *metav1.PatchOptions, apply bool) error {
	var errs field.ErrorList
	if apply {
		if opts.FieldManager == "" {
			errs = append(errs, field.Required(field.NewPath("fieldManager"), "is required for apply patch"))
		}
	} else if opts.Force != nil {
		errs = append(errs, field.Forbidden(field.NewPath("force"), "may not be specified for non-apply patch"))
	}
	errs = append(errs, validation.ValidateFieldManager(opts.FieldManager, field.NewPath("fieldManager"))...)
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(scheme.GroupKind{Group: metav1.GroupName, Kind: "PatchOptions"}, "", fieldErrorsToCauses(errs))
}

// decodeApplyPatch reads an apply body, YAML or JSON, as an object.
func decodeApplyPatch(body []byte) (*unstructured.Unstructured, error) {
	j, err := scheme.ToJSON(body)
	if err != nil {
		return nil, apierrors.NewBadRequest("error decoding patch: " + err.Error())
	}
	m, err := unstructured.DecodeJSONObject(j)
	if err != nil {
		return nil, apierrors.NewBadRequest("error decoding patch: " + err.Error())
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// strictApplyPatch reports what strict decoding finds in an apply body
// that the apply itself accepted: keys given twice.
//
// Mirrors the unmarshalStrictFn check of (*applyPatcher).applyPatchToCurrentObject.
func strictApplyPatch(body []byte) error {
	var m map[string]any
	return yaml.UnmarshalStrict(body, &m)
}

// traceApply tells /ui what an apply did: its manager, and the fields it
// met in conflict or the managers that own the object's fields after it.
func (h *Handler) traceApply(r *http.Request, s *requestScope, namespace, name, manager string, force bool, out scheme.Object, err error) {
	if !h.cfg.Tracer.Enabled() {
		return
	}
	key := name
	if ns := s.namespaceFor(namespace); ns != "" {
		key = ns + "/" + name
	}
	ev := trace.Event{
		Component: trace.Handler, Step: "apply", Actor: manager,
		Resource: s.groupResource().String(), Key: key,
		Upstream: "k8s.io/apimachinery/pkg/util/managedfields.(*FieldManager).Apply",
	}
	if s.subresource != "" {
		ev.Resource += "/" + s.subresource
	}
	verb := "applied"
	if force {
		verb = "force-applied"
	}
	if err != nil {
		ev.Err = err.Error()
		st := apierrors.ToStatus(err)
		var fields []string
		if st.Details != nil {
			for _, c := range st.Details.Causes {
				if c.Type == metav1.CauseTypeFieldManagerConflict {
					fields = append(fields, c.Field+" ("+strings.TrimPrefix(c.Message, "conflict with ")+")")
				}
			}
		}
		if len(fields) > 0 {
			ev.Message = fmt.Sprintf("%s's apply conflicts with other managers on %s: nothing written (force=true takes them over)", manager, strings.Join(fields, ", "))
		} else {
			ev.Message = fmt.Sprintf("%s's apply failed", manager)
		}
		h.cfg.Tracer.Emit(ev)
		return
	}
	var owners []string
	if m, ok := metav1.Accessor(out); ok {
		ev.ResourceVersion = m.GetResourceVersion()
		for _, e := range m.GetManagedFields() {
			o := e.Manager + " (" + string(e.Operation)
			if e.Subresource != "" {
				o += ", " + e.Subresource
			}
			owners = append(owners, o+")")
		}
	}
	ev.Message = fmt.Sprintf("%s %s its configuration; fields now managed by %s", manager, verb, strings.Join(owners, ", "))
	h.cfg.Tracer.Emit(ev)
}

// crdTypeConverter types the custom resources of crd: the schemas of all
// its versions, served or not, with apiVersion, kind and metadata added,
// and the meta kinds (ObjectMeta, Scale). A CRD whose schemas do not
// convert is merged with deduced types, and the log says so.
//
// Mirrors buildOpenAPIModelsForApply and the TypeConverter of
// getOrCreateServingInfoFor (customresource_handler.go), which answers
// such a CRD's requests with an error instead.
func (h *Handler) crdTypeConverter(crd *apiextensionsv1.CustomResourceDefinition, names apiextensionsv1.CustomResourceDefinitionNames) managedfields.TypeConverter {
	var resources []openapi.Resource
	for _, v := range crd.Spec.Versions {
		r := openapi.Resource{Group: crd.Spec.Group, Version: v.Name, Kind: names.Kind, Plural: names.Plural}
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			b, err := json.Marshal(v.Schema.OpenAPIV3Schema)
			if err != nil {
				h.logger.Warn("server-side apply: a CRD's schema cannot be encoded; merging by deduced types", "crd", crd.Name, "err", err)
				return managedfields.NewDeducedTypeConverter()
			}
			r.SchemaJSON = b
		}
		resources = append(resources, r)
	}
	models, err := openapi.Models(resources)
	if err == nil {
		var tc managedfields.TypeConverter
		if tc, err = managedfields.NewTypeConverter(models, crd.Spec.PreserveUnknownFields); err == nil {
			return tc
		}
	}
	h.logger.Warn("server-side apply: a CRD's schemas do not convert to a typed schema; merging by deduced types", "crd", crd.Name, "err", err)
	return managedfields.NewDeducedTypeConverter()
}

// newCRFieldManager returns the field manager of a custom resource scope
// in conv's version.
func newCRFieldManager(tc managedfields.TypeConverter, conv *crCodec, subresource string, reset map[fieldpath.APIVersion]*fieldpath.Set) (*scopeFieldManager, error) {
	fm, err := managedfields.New(managedfields.Config{TypeConverter: tc, Kind: conv.kind, Subresource: subresource, ResetFields: reset})
	if err != nil {
		return nil, err
	}
	return &scopeFieldManager{fm: fm, toWire: conv.toWire}, nil
}

// scaleKind is the kind of /scale bodies.
var scaleKind = scheme.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}

// newScaleFieldManager returns the field manager of a /scale scope:
// objects are autoscaling/v1 Scales, whose managedFields the scale storage
// moves to and from the custom resource's (managedfields.ScaleHandler).
func newScaleFieldManager(tc managedfields.TypeConverter) (*scopeFieldManager, error) {
	fm, err := managedfields.New(managedfields.Config{TypeConverter: tc, Kind: scaleKind, Subresource: "scale"})
	if err != nil {
		return nil, err
	}
	return &scopeFieldManager{fm: fm, toWire: func(obj scheme.Object) (*unstructured.Unstructured, error) {
		b, err := json.Marshal(obj)
		if err != nil {
			return nil, err
		}
		m, err := unstructured.DecodeJSONObject(b)
		if err != nil {
			return nil, err
		}
		u := &unstructured.Unstructured{Object: m}
		u.SetGroupVersionKind(scaleKind)
		return u, nil
	}}, nil
}

// toWire returns a stored custom resource (or one decode returned) as its
// field manager reads it: in the URL's version and defaulted, as a read
// answers it. Without defaults to apply, a shallow copy does: the field
// manager changes only metadata.managedFields, of its own metadata copy.
func (c *crCodec) toWire(obj scheme.Object) (*unstructured.Unstructured, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("expected a custom resource, got %T", obj)
	}
	if !c.noDefaults {
		out, err := c.encode(u)
		if err != nil {
			return nil, err
		}
		return out.(*unstructured.Unstructured), nil
	}
	out := make(map[string]any, len(u.Object))
	for k, v := range u.Object {
		out[k] = v
	}
	if md, ok := u.Object["metadata"].(map[string]any); ok {
		m := make(map[string]any, len(md))
		for k, v := range md {
			m[k] = v
		}
		out["metadata"] = m
	}
	out["apiVersion"] = c.kind.GroupVersion().String()
	if _, ok := out["kind"]; !ok {
		out["kind"] = c.kind.Kind
	}
	return &unstructured.Unstructured{Object: out}, nil
}
