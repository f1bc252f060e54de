package endpoints

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler/negotiation"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/machinery/patch"
	"github.com/crdlab/crdlab/machinery/strategicpatch"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
)

// Patch content types.
const (
	patchTypeJSON           = "application/json-patch+json"
	patchTypeMerge          = "application/merge-patch+json"
	patchTypeStrategicMerge = "application/strategic-merge-patch+json"
	patchTypeApply          = "application/apply-patch+yaml"
	patchTypeApplyCBOR      = "application/apply-patch+cbor"
)

// supportedPatchTypes are the patch types crdlab applies to a custom
// resource, in the order a 415 lists them (upstream's crdHandler's);
// typedPatchTypes those it applies to a built-in kind (upstream's
// endpoints installer's).
var (
	supportedPatchTypes = []string{patchTypeJSON, patchTypeMerge, patchTypeApply}
	typedPatchTypes     = []string{patchTypeJSON, patchTypeMerge, patchTypeStrategicMerge, patchTypeApply}
)

// patchTypes are the patch types s applies.
func (s *RequestScope) patchTypes() []string {
	if s.StrategicMerge != nil {
		return typedPatchTypes
	}
	return supportedPatchTypes
}

// patchResource serves PATCH on one object: read the current object,
// write it in the URL's version, apply the patch, decode the result as a
// body would be (schema, field validation) and store it — all inside the
// storage's retry loop, so a concurrent write makes it start over. A JSON
// or merge patch records an Update entry in managedFields; a server-side
// apply (applyPatch) merges through the field manager and may create the
// object. A strategic merge patch (a scope with StrategicMerge: a
// built-in kind) is applied by package machinery/strategicpatch with the
// patch metadata of the URL version's Go type, and records an Update
// entry as a merge patch does.
//
// Mirrors PatchResource and (*patcher).patchResource in handlers/patch.go.
func patchResource(w http.ResponseWriter, r *http.Request, s *RequestScope, namespace, name string) {
	// A patch reads, then updates: upstream's rest.Patcher is a Getter
	// and an Updater (namespaces/finalize is only an Updater: 405).
	updater, ok := s.Storage.(registry.Updater)
	if _, getter := s.Storage.(registry.Getter); !ok || !getter {
		methodNotSupported(w, s, "patch")
		return
	}
	patchType := negotiation.ContentTypeOf(r.Header.Get("Content-Type"))
	apply := patchType == patchTypeApply
	switch {
	case patchType == patchTypeJSON, patchType == patchTypeMerge:
	case patchType == patchTypeStrategicMerge && s.StrategicMerge != nil:
	case apply && s.FieldManager != nil:
	case apply:
		e := apierrors.NewUnsupportedMediaType(patchType, s.patchTypes())
		e.ErrStatus.Message = fmt.Sprintf("not supported: server-side apply of %s (upstream applies it to every resource)", s.groupResource())
		responsewriters.WriteError(w, e)
		return
	default:
		// Strategic merge needs a Go type's struct tags: upstream answers
		// 415 for custom resources too. CBOR applies need a feature gate
		// upstream, off by default.
		responsewriters.WriteError(w, apierrors.NewUnsupportedMediaType(patchType, s.patchTypes()))
		return
	}
	opts, err := negotiateObject(r, s, false)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	var patchOpts metav1.PatchOptions
	if err := scheme.DecodeParameters(r.URL.Query(), &patchOpts); err != nil {
		responsewriters.WriteError(w, apierrors.NewBadRequest(err.Error()))
		return
	}
	if err := firstError(validatePatchManagement(&patchOpts, apply), validateDryRun(patchOpts.DryRun),
		validateFieldValidation(patchOpts.FieldValidation)); err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	body, err := readBody(r)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	if len(bytes.TrimSpace(body)) == 0 {
		responsewriters.WriteError(w, apierrors.NewBadRequest("the body of the request was empty"))
		return
	}
	if apply {
		applyPatch(w, r, s, updater, opts, &patchOpts, body, namespace, name)
		return
	}
	manager := managerOrUserAgent(patchOpts.FieldManager, r.UserAgent())
	// Warnings of the last attempt only: a retried attempt starts over.
	var strictErr *scheme.StrictDecodingError
	objInfo := registry.UpdatedObjectFunc(func(ctx context.Context, old scheme.Object) (scheme.Object, error) {
		if old == nil {
			return nil, apierrors.NewNotFound(s.groupResource(), name)
		}
		if m, ok := metav1.Accessor(old); ok && m.GetName() == "" && m.GetResourceVersion() == "" {
			return nil, apierrors.NewNotFound(s.groupResource(), name)
		}
		current, err := s.Encode(old)
		if err != nil {
			return nil, err
		}
		currentJSON, err := marshalObject(current)
		if err != nil {
			return nil, err
		}
		var patched []byte
		switch patchType {
		case patchTypeJSON:
			patched, err = patch.JSONPatch(currentJSON, body)
		case patchTypeStrategicMerge:
			if patched, err = strategicpatch.StrategicMergePatch(currentJSON, body, s.StrategicMerge); err != nil {
				return nil, strategicPatchError(err)
			}
		default:
			patched, err = patch.MergePatch(currentJSON, body)
		}
		if err != nil {
			return nil, patchError(err)
		}
		obj, se, err := s.Decode(ctx, patched, patchOpts.FieldValidation != metav1.FieldValidationIgnore)
		if err != nil {
			return nil, decodeError(err)
		}
		strictErr = se
		if patchOpts.FieldValidation == metav1.FieldValidationStrict {
			if err := applyFieldValidation(w, metav1.FieldValidationStrict, strictErr); err != nil {
				return nil, err
			}
		}
		if err := s.matchURL(obj, namespace, name); err != nil {
			return nil, err
		}
		if s.FieldManager != nil {
			obj = s.FieldManager.recordUpdate(old, obj, manager)
		}
		return obj, nil
	})
	updateOpts := &metav1.UpdateOptions{DryRun: patchOpts.DryRun, FieldManager: patchOpts.FieldManager, FieldValidation: patchOpts.FieldValidation}
	out, _, err := updater.Update(r.Context(), name, objInfo, nil, s.validateUpdate(namespace, updateOpts.DryRun), false, updateOpts)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	if patchOpts.FieldValidation != metav1.FieldValidationStrict {
		_ = applyFieldValidation(w, patchOpts.FieldValidation, strictErr)
	}
	writeEncoded(w, r, s, opts, http.StatusOK, out)
}

// applyPatch serves a server-side apply (application/apply-patch+yaml, a
// YAML or JSON body): inside the storage's retry loop, the field manager
// merges the applied configuration into the current object (or into an
// empty one: an apply creates what does not exist), the result is
// decoded as a body would be, and stored. Conflicts are a 409 naming each
// field and its manager; ?force=true takes the fields over.
//
// Mirrors the applyPatcher of handlers/patch.go.
func applyPatch(w http.ResponseWriter, r *http.Request, s *RequestScope, updater registry.Updater, accept negotiation.Options,
	patchOpts *metav1.PatchOptions, body []byte, namespace, name string) {
	applied, err := decodeApplyPatch(body)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	force := patchOpts.Force != nil && *patchOpts.Force
	// The merge only reads old, and the result is decoded afresh: no
	// copy of the stored object is needed (registry.ReadOnlyUpdatedObjectFunc).
	objInfo := registry.ReadOnlyUpdatedObjectFunc(func(ctx context.Context, old scheme.Object) (scheme.Object, error) {
		merged, err := s.FieldManager.apply(old, applied.DeepCopy(), patchOpts.FieldManager, force)
		if err != nil {
			return nil, err
		}
		if !isStored(old) && merged.GetUID() != "" {
			return nil, apierrors.NewConflict(s.groupResource(), name,
				fmt.Errorf("uid mismatch: the provided object specified uid %s, and no existing object was found", merged.GetUID()))
		}
		obj, err := s.decodeMerged(ctx, merged)
		if err != nil {
			return nil, err
		}
		if err := s.matchURL(obj, namespace, name); err != nil {
			return nil, err
		}
		if !isStored(old) {
			if err := s.admitCreate(ctx, namespace, obj, registry.IsDryRun(patchOpts.DryRun)); err != nil {
				return nil, err
			}
		}
		return obj, nil
	})
	updateOpts := &metav1.UpdateOptions{DryRun: patchOpts.DryRun, FieldManager: patchOpts.FieldManager, FieldValidation: patchOpts.FieldValidation}
	out, created, err := updater.Update(r.Context(), name, objInfo, nil, s.validateUpdate(namespace, updateOpts.DryRun), true, updateOpts)
	traceApply(s, namespace, name, patchOpts.FieldManager, force, out, err)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	// Upstream checks a Strict or Warn apply for duplicate keys once it
	// has applied.
	if v := patchOpts.FieldValidation; v == metav1.FieldValidationStrict || v == metav1.FieldValidationWarn || v == "" {
		if err := strictApplyPatch(body); err != nil {
			if v == metav1.FieldValidationStrict {
				responsewriters.WriteError(w, apierrors.NewBadRequest("error strict decoding patch: "+err.Error()))
				return
			}
			addWarning(w, err.Error())
		}
	}
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	writeEncoded(w, r, s, accept, code, out)
}

// decodeMerged decodes an apply's merged object as Decode decodes a
// body, not strictly: what the schema does not know was refused when the
// field manager typed the configuration, so nothing is left to report.
// Where the scope can (DecodeObject), it decodes a copy of the object as
// the JSON would read back (unstructured.CopyAsDecoded) instead of the
// JSON: for an object with a 20-entry list-type map, writing and reading
// it cost about 4% of the server's CPU per apply. Upstream hands the
// merged object to the rest of the patch without a round trip through
// JSON, as a typed (unstructured) object.
func (s *RequestScope) decodeMerged(ctx context.Context, merged *unstructured.Unstructured) (scheme.Object, error) {
	if s.DecodeObject != nil {
		if m, ok := unstructured.CopyAsDecoded(merged.Object); ok {
			obj, ok, err := s.DecodeObject(ctx, m)
			if ok {
				if err != nil {
					return nil, decodeError(err)
				}
				return obj, nil
			}
		}
	}
	j, err := merged.MarshalJSON()
	if err != nil {
		return nil, err
	}
	obj, _, err := s.Decode(ctx, j, false)
	if err != nil {
		return nil, decodeError(err)
	}
	return obj, nil
}

// patchError answers a failed patch as upstream does: a malformed patch is
// 400, one that cannot apply is 422, one too large 413.
//
// Mirrors the error classification of (*jsonPatcher).applyJSPatch.
func patchError(err error) error {
	var pe *patch.Error
	if !errors.As(err, &pe) {
		return err
	}
	switch pe.Code {
	case patch.CodeBadPatch:
		return apierrors.NewBadRequest(pe.Msg)
	case patch.CodeNotApplicable:
		// Upstream answers NewGenericServerResponse(422, …): reason
		// Invalid, empty details, no causes. kubectl then prints "The
		// request is invalid: <message>"; a cause without a field would
		// print as "…is invalid: : <message>". Upstream's message is a
		// generic "the server rejected our request due to an error in our
		// request"; crdlab keeps the patch's own, which says what failed.
		return unprocessable(pe.Msg)
	case patch.CodeTooLarge:
		return apierrors.NewRequestEntityTooLarge(pe.Msg)
	}
	return apierrors.NewInternalError(err)
}

// strategicPatchError answers a failed strategic merge patch: one in a
// wrong format (not a JSON object, a malformed directive) is 400, one that
// cannot apply 422 — where upstream answers 422 for a list of lists only
// and 500 for the others (an element without its merge key, an unknown
// $patch value).
//
// Mirrors interpretStrategicMergePatchError.
func strategicPatchError(err error) error {
	if strategicpatch.IsBadFormat(err) {
		return apierrors.NewBadRequest(err.Error())
	}
	return unprocessable(err.Error())
}

// unprocessable is upstream's NewGenericServerResponse(422, …) of a patch
// that cannot apply.
func unprocessable(msg string) error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure, Code: http.StatusUnprocessableEntity, Reason: metav1.StatusReasonInvalid,
		Message: msg,
		Details: &metav1.StatusDetails{},
	}}
}
