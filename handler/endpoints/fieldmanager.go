package endpoints

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"sigs.k8s.io/yaml"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/apis/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/machinery/managedfields"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
)

// This file wires server-side apply's bookkeeping (package
// machinery/managedfields) into the verb handlers. A scope whose objects
// keep metadata.managedFields has a FieldManager: create, update and
// JSON or merge patches record an Update entry for their manager
// (recordUpdate, as upstream's handlers call FieldManager.UpdateNoErrors),
// and an application/apply-patch+yaml merges through it (applyPatch in
// patch.go).
//
// The handler builds each scope's (NewFieldManager): the CRD API's from
// its Go types, custom resources' from their CRD's schemas.

// FieldManager is the field manager of one scope: the kind in the
// URL's version, and the subresource.
//
// Mirrors the FieldManager of upstream's RequestScope.
type FieldManager struct {
	fm     *managedfields.FieldManager
	toWire func(obj scheme.Object) (*unstructured.Unstructured, error) // see NewFieldManager
	// updateWire, if set, reads the objects of recordUpdate: see
	// WithUpdateWire.
	updateWire UpdateWire
}

// UpdateWire reads the two objects of a write that is not an apply, as
// NewFieldManager's toWire would, for the bookkeeping of the write only:
// live is the stored object, nil for a create (liveW is then nil too),
// and obj the object about to be stored.
type UpdateWire func(live, obj scheme.Object) (liveW, objW *unstructured.Unstructured, err error)

// NewFieldManager is the field manager of a scope: fm merges and records
// in the scope's kind and subresource; toWire returns an object as Decode
// returns it and storage holds it, as Unstructured in the scope's version,
// defaulted as a read would be (it may share parts of obj: the field
// manager only reads them).
func NewFieldManager(fm *managedfields.FieldManager, toWire func(obj scheme.Object) (*unstructured.Unstructured, error)) *FieldManager {
	return &FieldManager{fm: fm, toWire: toWire}
}

// WithUpdateWire makes recordUpdate read objects with updateWire rather
// than toWire. updateWire may leave out what an update's bookkeeping
// never looks at, with the same entries as a result: top-level fields
// that are the scope's reset fields in every version (a CRD's spec on
// /status: the merge engine filters reset fields out of every
// comparison), or the inside of a field the merge engine compares whole
// when updateWire settles that comparison itself (a CRD's spec.versions:
// managedfields.AtomicField). Apply still reads whole objects.
func (m *FieldManager) WithUpdateWire(updateWire UpdateWire) *FieldManager {
	m.updateWire = updateWire
	return m
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
func (m *FieldManager) recordUpdate(live, obj scheme.Object, manager string) scheme.Object {
	if live != nil && !isStored(live) {
		live = nil
	}
	liveW, objW, err := m.readUpdate(live, obj)
	if err != nil {
		return obj
	}
	if liveW == nil {
		liveW = m.fm.NewEmptyObject()
	}
	out := m.fm.UpdateNoErrors(liveW, objW, manager)
	setManagedFieldsFrom(obj, out)
	return obj
}

// readUpdate reads recordUpdate's objects: live (if stored) and obj.
func (m *FieldManager) readUpdate(live, obj scheme.Object) (liveW, objW *unstructured.Unstructured, err error) {
	if m.updateWire != nil {
		return m.updateWire(live, obj)
	}
	return ReadBoth(m.toWire, live, obj)
}

// ReadBoth reads live (nil for a create: liveW is then nil) and obj
// whole with toWire: what an UpdateWire does for a write whose objects
// it cannot shorten.
func ReadBoth(toWire func(obj scheme.Object) (*unstructured.Unstructured, error), live, obj scheme.Object) (liveW, objW *unstructured.Unstructured, err error) {
	if live != nil {
		if liveW, err = toWire(live); err != nil {
			return nil, nil, err
		}
	}
	objW, err = toWire(obj)
	return liveW, objW, err
}

// apply merges applied (in the scope's version) into live as manager: the
// merged object, with its managedFields, to be decoded like a body.
//
// Mirrors (*applyPatcher).applyPatchToCurrentObject and createNewObject.
func (m *FieldManager) apply(live scheme.Object, applied *unstructured.Unstructured, manager string, force bool) (*unstructured.Unstructured, error) {
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
	return apierrors.NewInvalid(scheme.GroupKind{Group: metav1.GroupName, Kind: optionsKind}, "", registry.StatusCauses(errs))
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
	return apierrors.NewInvalid(scheme.GroupKind{Group: metav1.GroupName, Kind: "PatchOptions"}, "", registry.StatusCauses(errs))
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
// A JSON body (what client-go and controller-runtime send) is first
// scanned for repeated keys with scheme.StrictErrors, which decodes no
// value; only a body with some, or a YAML one, goes through the YAML
// decoder, whose message upstream answers. That decoder cost about a
// tenth of the server's CPU per apply (0.4 of 5 ms for an object with
// 20 list-map entries).
//
// Mirrors the unmarshalStrictFn check of (*applyPatcher).applyPatchToCurrentObject.
func strictApplyPatch(body []byte) error {
	// decodeApplyPatch has decoded the body already: a JSON one is
	// well-formed, as StrictErrors needs.
	if j := bytes.TrimSpace(body); len(j) > 0 && j[0] == '{' && scheme.StrictErrors(j, nil) == nil {
		return nil
	}
	var m map[string]any
	return yaml.UnmarshalStrict(body, &m)
}

// traceApply tells /ui what an apply did: its manager, and the fields it
// met in conflict or the managers that own the object's fields after it.
func traceApply(s *RequestScope, namespace, name, manager string, force bool, out scheme.Object, err error) {
	if !s.Tracer.Enabled() {
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
	if s.Subresource != "" {
		ev.Resource += "/" + s.Subresource
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
		s.Tracer.Emit(ev)
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
	s.Tracer.Emit(ev)
}
