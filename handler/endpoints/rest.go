package endpoints

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler/filters"
	"github.com/crdlab/crdlab/handler/negotiation"
	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/machinery/fields"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
)

// This file holds the generic verb handlers: each takes a RequestScope and
// serves one verb on it, whatever the resource. They mirror the files of
// k8s.io/apiserver/pkg/endpoints/handlers: get.go (GetResource,
// ListResource), create.go, update.go, patch.go, delete.go, watch.go.

// Serve dispatches a resource request to its verb's handler, as info (the
// request's RequestInfo, which the authorizer read too) says: verb,
// namespace and name. Verbs the scope's storage does not implement, and
// any but get, update and patch on a subresource, are 405.
//
// Mirrors the verb switch of (*crdHandler).serveResource /
// serveStatus / serveScale in customresource_handler.go, and the routes
// the endpoint installer registers per verb.
func Serve(w http.ResponseWriter, r *http.Request, s *RequestScope, info *request.RequestInfo) {
	for _, warn := range s.Warnings {
		addWarning(w, warn)
	}
	namespace := info.Namespace
	// The path's name: RequestInfo also fills Name from a metadata.name
	// field selector of a list or watch, for authorization.
	name := ""
	if len(info.Parts) >= 2 {
		name = info.Parts[1]
	}
	ctx := registry.WithNamespace(r.Context(), s.namespaceFor(namespace))
	ctx = registry.WithWarningRecorder(ctx, &headerWarnings{w: w})
	ctx = registry.WithRequestVersion(ctx, s.Resource.GroupVersion())
	r = r.WithContext(ctx)
	verb := info.Verb
	switch {
	case verb == "update" && name == "":
		verb = "update-collection"
	case verb == "patch" && name == "":
		verb = "patch-collection"
	case verb == "":
		verb = strings.ToLower(r.Method)
	}
	if s.Subresource != "" && verb != "get" && verb != "update" && verb != "patch" {
		methodNotSupported(w, s, verb)
		return
	}
	switch verb {
	case "get":
		getResource(w, r, s, name)
	case "list":
		listResource(w, r, s)
	case "watch":
		watchResource(w, r, s, name)
	case "create":
		if name != "" {
			methodNotSupported(w, s, verb)
			return
		}
		createResource(w, r, s, namespace)
	case "update":
		updateResource(w, r, s, namespace, name)
	case "patch":
		patchResource(w, r, s, namespace, name)
	case "delete":
		deleteResource(w, r, s, namespace, name)
	case "deletecollection":
		deleteCollection(w, r, s, namespace)
	default:
		methodNotSupported(w, s, verb)
	}
}

// headerWarnings sends the warnings the registry records as Warning
// headers. They must come before the answer is written, which holds: the
// registry runs before any write.
//
// Mirrors k8s.io/apiserver/pkg/endpoints/filters.WithWarningRecorder.
type headerWarnings struct {
	mu   sync.Mutex // guards w's header map and seen
	w    http.ResponseWriter
	seen map[string]bool
}

func (h *headerWarnings) AddWarning(_, text string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seen[text] {
		return
	}
	if h.seen == nil {
		h.seen = map[string]bool{}
	}
	h.seen[text] = true
	addWarning(h.w, text)
}

// transformDecodeError says which kind a body that names its kind could
// not be decoded as ("Secret in version "v1" cannot be handled as a
// Secret: illegal base64 data …"); other errors are decodeError's.
//
// Mirrors transformDecodeError in k8s.io/apiserver/pkg/endpoints/handlers/rest.go.
func (s *RequestScope) transformDecodeError(err error, body []byte) error {
	if _, ok := err.(apierrors.APIStatus); ok {
		return err
	}
	if gvk, kerr := scheme.Kind(body); kerr == nil && gvk.Kind != "" {
		return apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, s.Kind.Kind, err))
	}
	return decodeError(err)
}

// methodNotSupported answers 405 for a verb the scope's storage does not
// serve. A compiled-in resource (a scope with StrategicMerge) answers as
// upstream's go-restful routes do, where no route exists for the verb:
// the generic "the server does not allow this method on the requested
// resource" (NewGenericServerResponse(405, …)); custom resources answer
// as upstream's crdHandler, naming the verb and the resource.
func methodNotSupported(w http.ResponseWriter, s *RequestScope, verb string) {
	if s.StrategicMerge != nil {
		responsewriters.WriteError(w, &apierrors.StatusError{ErrStatus: metav1.Status{
			TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
			Status:   metav1.StatusFailure,
			Code:     http.StatusMethodNotAllowed,
			Reason:   metav1.StatusReasonMethodNotAllowed,
			Message:  "the server does not allow this method on the requested resource",
			Details:  &metav1.StatusDetails{},
		}})
		return
	}
	gr := s.groupResource()
	if s.Subresource != "" {
		gr.Resource += "/" + s.Subresource
	}
	responsewriters.WriteError(w, apierrors.NewMethodNotSupported(gr, verb))
}

// negotiateObject picks the representation of an object answer: JSON or
// YAML, or a Table / PartialObjectMetadata if asked for (only on the main
// resource, as upstream).
func negotiateObject(r *http.Request, s *RequestScope, list bool) (negotiation.Options, error) {
	allowed := func(t negotiation.Target) bool {
		if s.Subresource != "" {
			return false
		}
		switch t {
		case negotiation.TableV1, negotiation.TableV1beta1:
			return true
		case negotiation.PartialObjectMetadataV1:
			return !list
		case negotiation.PartialObjectMetadataList:
			return list
		}
		return false
	}
	opts, err := negotiation.Negotiate(r.Header.Get("Accept"), allowed)
	if err != nil {
		return opts, err
	}
	if p := r.URL.Query().Get("pretty"); p == "1" || p == "true" {
		opts.Pretty = true
	}
	return opts, nil
}

// writeEncoded answers one object from storage: encoded for the wire, and
// turned into a Table or PartialObjectMetadata if negotiated.
func writeEncoded(w http.ResponseWriter, r *http.Request, s *RequestScope, opts negotiation.Options, code int, obj scheme.Object) {
	if s.Tracer.Enabled() {
		noteTraceObject(r, obj)
	}
	if opts.Convert == nil && !opts.Pretty && s.AppendJSON != nil {
		if b, ok := s.AppendJSON(nil, obj); ok {
			responsewriters.WriteEncoded(w, opts, code, b)
			return
		}
	}
	out, err := s.encodeResult(obj)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	body, err := transform(r, s, opts, out, nil)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	responsewriters.WriteObject(w, opts, code, body)
}

// transform turns a wire object (or, with items set, a wire list) into
// what opts.Convert asks for.
//
// Mirrors transformObject in k8s.io/apiserver/pkg/endpoints/handlers/response.go.
func transform(r *http.Request, s *RequestScope, opts negotiation.Options, obj any, items []scheme.Object) (any, error) {
	if opts.Convert == nil {
		return obj, nil
	}
	t := *opts.Convert
	switch {
	case t.IsTable():
		include, err := includeObjectOf(r)
		if err != nil {
			return nil, err
		}
		var lm metav1.ListMeta
		objs := items
		if l, ok := obj.(*wireList); ok {
			lm = l.Metadata
		} else {
			objs = []scheme.Object{obj.(scheme.Object)}
			if m, ok := metav1.Accessor(obj); ok {
				lm.ResourceVersion = m.GetResourceVersion()
			}
		}
		return buildTable(r.Context(), s.tableConvertor(), objs, lm, include, t)
	case t == negotiation.PartialObjectMetadataV1:
		m, ok := metav1.Accessor(obj)
		if !ok {
			return nil, fmt.Errorf("%T has no metadata", obj)
		}
		return asPartialObjectMetadata(m, scheme.GroupVersion{Group: t.Group, Version: t.Version}), nil
	case t == negotiation.PartialObjectMetadataList:
		l := obj.(*wireList)
		out := &metav1.PartialObjectMetadataList{
			TypeMeta: metav1.TypeMeta{APIVersion: t.Group + "/" + t.Version, Kind: "PartialObjectMetadataList"},
			ListMeta: l.Metadata,
			Items:    []metav1.PartialObjectMetadata{},
		}
		gv := scheme.GroupVersion{Group: t.Group, Version: t.Version}
		for _, it := range items {
			if m, ok := metav1.Accessor(it); ok {
				out.Items = append(out.Items, *asPartialObjectMetadata(m, gv))
			}
		}
		return out, nil
	}
	return nil, negotiation.NewNotAcceptableError()
}

// getResource serves GET on one object.
//
// Mirrors GetResource in handlers/get.go.
func getResource(w http.ResponseWriter, r *http.Request, s *RequestScope, name string) {
	getter, ok := s.Storage.(registry.Getter)
	if !ok {
		methodNotSupported(w, s, "get")
		return
	}
	opts, err := negotiateObject(r, s, false)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	var getOpts metav1.GetOptions
	if err := scheme.DecodeParameters(r.URL.Query(), &getOpts); err != nil {
		responsewriters.WriteError(w, apierrors.NewBadRequest(err.Error()))
		return
	}
	obj, err := getter.Get(r.Context(), name, &getOpts)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	writeEncoded(w, r, s, opts, http.StatusOK, obj)
}

// decodeListOptions reads and validates the query of a list or watch.
//
// Mirrors ValidateListOptions in
// k8s.io/apimachinery/pkg/apis/meta/internalversion/validation.
func decodeListOptions(r *http.Request) (*metav1.ListOptions, error) {
	var opts metav1.ListOptions
	if err := scheme.DecodeParameters(r.URL.Query(), &opts); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	var causes []metav1.StatusCause
	forbidden := func(field, msg string) {
		causes = append(causes, metav1.StatusCause{Type: metav1.CauseTypeFieldValueForbidden, Field: field, Message: "Forbidden: " + msg})
	}
	if opts.SendInitialEvents != nil {
		if !opts.Watch {
			forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list")
		}
		if opts.ResourceVersionMatch != metav1.ResourceVersionMatchNotOlderThan {
			forbidden("resourceVersionMatch", "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan")
		}
	}
	if opts.ResourceVersionMatch != "" {
		switch {
		case opts.Watch && opts.SendInitialEvents == nil:
			forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided")
		case opts.Watch:
		case opts.ResourceVersion == "":
			forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden unless resourceVersion is provided")
		case opts.Continue != "":
			forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided")
		}
		switch opts.ResourceVersionMatch {
		case metav1.ResourceVersionMatchNotOlderThan:
		case metav1.ResourceVersionMatchExact:
			if opts.ResourceVersion == "0" {
				forbidden("resourceVersionMatch", `resourceVersionMatch "exact" is forbidden for resourceVersion "0"`)
			}
		default:
			causes = append(causes, metav1.StatusCause{Type: metav1.CauseTypeFieldValueNotSupported, Field: "resourceVersionMatch",
				Message: fmt.Sprintf("Unsupported value: %q: supported values: %q, %q", opts.ResourceVersionMatch,
					metav1.ResourceVersionMatchExact, metav1.ResourceVersionMatchNotOlderThan)})
		}
	}
	if opts.Limit < 0 {
		causes = append(causes, metav1.StatusCause{Type: metav1.CauseTypeFieldValueInvalid, Field: "limit",
			Message: fmt.Sprintf("Invalid value: %d: must be greater than or equal to 0", opts.Limit)})
	}
	if len(causes) > 0 {
		return nil, apierrors.NewInvalid(scheme.GroupKind{Group: metav1.GroupName, Kind: "ListOptions"}, "", causes)
	}
	return &opts, nil
}

// listOptions reads the options of a list, watch or deletecollection,
// with the field selector in the storage's field names.
func (s *RequestScope) listOptions(r *http.Request) (*metav1.ListOptions, error) {
	opts, err := decodeListOptions(r)
	if err != nil {
		return nil, err
	}
	if err := s.applyFieldLabels(opts); err != nil {
		return nil, err
	}
	return opts, nil
}

// applyFieldLabels rewrites a list or watch's field selector with the
// scope's field label conversion (events.k8s.io's regarding.name →
// involvedObject.name); an unknown label is a 400.
//
// Mirrors the ConvertFieldLabel step of ListResource in handlers/get.go.
func (s *RequestScope) applyFieldLabels(opts *metav1.ListOptions) error {
	if s.FieldLabel == nil || opts.FieldSelector == "" {
		return nil
	}
	sel, err := fields.ParseSelector(opts.FieldSelector)
	if err != nil {
		return apierrors.NewBadRequest(err.Error())
	}
	sel, err = fields.Transform(sel, fields.TransformFunc(s.FieldLabel))
	if err != nil {
		return apierrors.NewBadRequest(err.Error())
	}
	opts.FieldSelector = sel.String()
	return nil
}

// collectionRequest reads what list, watch and deletecollection share:
// the representation of the answer (list: of a list) and the list
// options of the query.
func collectionRequest(r *http.Request, s *RequestScope, list bool) (negotiation.Options, *metav1.ListOptions, error) {
	opts, err := negotiateObject(r, s, list)
	if err != nil {
		return opts, nil, err
	}
	listOpts, err := s.listOptions(r)
	return opts, listOpts, err
}

// listResource serves GET on a collection.
//
// Mirrors ListResource in handlers/get.go.
func listResource(w http.ResponseWriter, r *http.Request, s *RequestScope) {
	lister, ok := s.Storage.(registry.Lister)
	if !ok {
		methodNotSupported(w, s, "list")
		return
	}
	opts, listOpts, err := collectionRequest(r, s, true)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	// Items are only encoded (and read by Table printing): when the scope
	// can encode without changing them, storage's shared objects will do.
	ctx, shared := r.Context(), s.EncodeShared != nil
	if shared {
		ctx = registry.WithReadOnlyItems(ctx)
	}
	// A list streamed as plain JSON of objects that read as they are
	// stored takes storage's bytes, and nothing is decoded.
	if streams(opts) && s.EncodeStored != nil && s.ReadsAsStored != nil && s.ReadsAsStored() {
		ctx = registry.WithEncodedItems(ctx)
	}
	// So does a metadata-only list, which reads each item's metadata
	// out of its bytes.
	if s.metadataFromStored(opts) {
		ctx = registry.WithEncodedMetadata(ctx)
	}
	list, err := lister.List(ctx, listOpts)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	writeList(w, r, s, opts, http.StatusOK, list, shared)
}

// writeList answers a list; shared says its items are shared with other
// readers (registry.WithReadOnlyItems) and must not be changed. Plain JSON
// streams (streamList); Tables, metadata-only lists, YAML and pretty JSON
// are built whole, as upstream builds them.
func writeList(w http.ResponseWriter, r *http.Request, s *RequestScope, opts negotiation.Options, code int, list scheme.Object, shared bool) {
	if streams(opts) {
		streamList(r.Context(), w, s, opts, code, list, shared)
		return
	}
	var (
		out   *wireList
		items []scheme.Object
		err   error
	)
	if s.MetadataAsStored && opts.Convert != nil && *opts.Convert == negotiation.PartialObjectMetadataList {
		// Only the metadata goes out: storage's objects have it. A
		// conversion of each item first cost the garbage collector's
		// metadata list of 2,000 real-size CRDs 5 s of CPU at each start
		// (perf-notes, session 21). Upstream turns storage's objects into
		// PartialObjectMetadata without a conversion too.
		out, items, err = s.listAsStored(list)
	} else {
		out, items, err = s.encodeList(list, shared)
	}
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	body, err := transform(r, s, opts, out, items)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	responsewriters.WriteObject(w, opts, code, body)
}

// streams says a list answer is streamed (streamList): plain JSON.
func streams(opts negotiation.Options) bool {
	return opts.Convert == nil && !opts.Pretty && opts.MediaType != negotiation.MediaTypeYAML
}

// createResource serves POST on a collection.
//
// Mirrors createHandler in handlers/create.go.
func createResource(w http.ResponseWriter, r *http.Request, s *RequestScope, namespace string) {
	creater, ok := s.Storage.(registry.Creater)
	if !ok {
		methodNotSupported(w, s, "create")
		return
	}
	req, err := decodeWrite(w, r, s, namespace, "")
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	// Before the registry, as upstream's mutating admission runs.
	if err := s.admitCreate(r.Context(), namespace, req.obj, registry.IsDryRun(req.opts.DryRun)); err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	if m, ok := metav1.Accessor(req.obj); ok && s.Tracer.Enabled() {
		key := m.GetName()
		if key == "" {
			key = m.GetGenerateName() + "…"
		}
		if ns := m.GetNamespace(); ns != "" {
			key = ns + "/" + key
		}
		filters.NoteRequestKey(r.Context(), key)
	}
	opts := metav1.CreateOptions(req.opts)
	if s.FieldManager != nil {
		req.obj = s.FieldManager.recordUpdate(nil, req.obj, managerOrUserAgent(opts.FieldManager, r.UserAgent()))
	}
	out, err := creater.Create(r.Context(), req.obj, nil, &opts)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	writeEncoded(w, r, s, req.accept, http.StatusCreated, out)
}

// updateResource serves PUT on one object.
//
// Mirrors UpdateResource in handlers/update.go.
func updateResource(w http.ResponseWriter, r *http.Request, s *RequestScope, namespace, name string) {
	updater, ok := s.Storage.(registry.Updater)
	if !ok {
		methodNotSupported(w, s, "update")
		return
	}
	req, err := decodeWrite(w, r, s, namespace, name)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	// The body, copied on each try of the storage's retry loop, with a uid
	// precondition if it names one; the field manager records the write.
	manager := managerOrUserAgent(req.opts.FieldManager, r.UserAgent())
	objInfo := registry.DefaultUpdatedObjectInfo(req.obj, func(_ context.Context, obj, old scheme.Object) (scheme.Object, error) {
		if s.FieldManager != nil {
			obj = s.FieldManager.recordUpdate(old, obj, manager)
		}
		return obj, nil
	})
	opts := req.opts
	out, created, err := updater.Update(r.Context(), name, objInfo, s.validateCreate(namespace, opts.DryRun),
		s.validateUpdate(namespace, opts.DryRun), s.AllowCreateOnUpdate, &opts)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	writeEncoded(w, r, s, req.accept, code, out)
}

// writeRequest is what a create or an update reads from its request before
// the registry is called.
type writeRequest struct {
	// accept is the representation of the answer.
	accept negotiation.Options
	// opts are the query's options (CreateOptions has the same fields).
	opts metav1.UpdateOptions
	// obj is the decoded body, in the storage's version.
	obj scheme.Object
}

// decodeWrite is the step create and update share (upstream writes it out
// in both createHandler and UpdateResource): negotiate the answer, read
// dryRun, fieldManager and fieldValidation from the query, read the body in
// its content type, decode it through the scope (type check; prune,
// default and validate with the schema; convert to the storage version),
// answer what strict decoding found as fieldValidation says, and make the
// object's namespace — and, on update, its name — agree with the URL.
func decodeWrite(w http.ResponseWriter, r *http.Request, s *RequestScope, namespace, name string) (*writeRequest, error) {
	accept, err := negotiateObject(r, s, false)
	if err != nil {
		return nil, err
	}
	req := &writeRequest{accept: accept}
	if err := scheme.DecodeParameters(r.URL.Query(), &req.opts); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	optionsKind := "UpdateOptions"
	if name == "" {
		optionsKind = "CreateOptions"
	}
	if err := firstError(validateDryRun(req.opts.DryRun), validateFieldValidation(req.opts.FieldValidation),
		validateFieldManager(req.opts.FieldManager, optionsKind)); err != nil {
		return nil, err
	}
	body, err := readBody(r)
	if err != nil {
		return nil, err
	}
	body, err = bodyAsJSON(r, body)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, apierrors.NewBadRequest("the body of the request was empty")
	}
	directive := req.opts.FieldValidation
	obj, strictErr, err := s.Decode(r.Context(), body, directive != metav1.FieldValidationIgnore)
	if directive == metav1.FieldValidationStrict && strictErr != nil {
		// Upstream decodes (and refuses strictly) before it validates,
		// and says which kind the body could not be; mirrors
		// transformDecodeError in handlers/rest.go.
		return nil, apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", s.Kind.Kind, s.Kind.Version, s.Kind.Kind, strictErr))
	}
	if err != nil {
		return nil, s.transformDecodeError(err, body)
	}
	if err := applyFieldValidation(w, directive, strictErr); err != nil {
		return nil, err
	}
	if err := s.matchURL(obj, namespace, name); err != nil {
		return nil, err
	}
	req.obj = obj
	return req, nil
}

// deleteOptionsOf reads DeleteOptions from the body (if any) and the query
// (query values win for fields the body leaves unset, as upstream).
//
// Mirrors the option decoding of DeleteResource in handlers/delete.go.
func deleteOptionsOf(r *http.Request) (*metav1.DeleteOptions, error) {
	opts := &metav1.DeleteOptions{}
	body, err := readBody(r)
	if err != nil {
		return nil, err
	}
	if len(strings.TrimSpace(string(body))) > 0 {
		j, err := bodyAsJSON(r, body)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(j, opts); err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding DeleteOptions: %v", err))
		}
		if opts.Kind != "" && opts.Kind != "DeleteOptions" {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("expected a DeleteOptions body, got kind %q", opts.Kind))
		}
	} else if err := scheme.DecodeParameters(r.URL.Query(), opts); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if err := validateDryRun(opts.DryRun); err != nil {
		return nil, err
	}
	if opts.PropagationPolicy != nil {
		switch *opts.PropagationPolicy {
		case metav1.DeletePropagationOrphan, metav1.DeletePropagationBackground, metav1.DeletePropagationForeground:
		default:
			return nil, apierrors.NewInvalid(scheme.GroupKind{Group: metav1.GroupName, Kind: "DeleteOptions"}, "",
				[]metav1.StatusCause{{Type: metav1.CauseTypeFieldValueNotSupported, Field: "propagationPolicy",
					Message: fmt.Sprintf("Unsupported value: %q: supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"", *opts.PropagationPolicy)}})
		}
		if opts.OrphanDependents != nil {
			return nil, apierrors.NewInvalid(scheme.GroupKind{Group: metav1.GroupName, Kind: "DeleteOptions"}, "",
				[]metav1.StatusCause{{Type: metav1.CauseTypeFieldValueInvalid, Field: "propagationPolicy",
					Message: "Invalid value: \"" + string(*opts.PropagationPolicy) + "\": orphanDependents and deletionPropagation cannot be both set"}})
		}
	}
	opts.TypeMeta = metav1.TypeMeta{}
	return opts, nil
}

// deleteResource serves DELETE on one object: the answer is a Status
// naming it if it is gone, or the object with a deletionTimestamp while
// finalizers keep it.
//
// Mirrors DeleteResource in handlers/delete.go.
func deleteResource(w http.ResponseWriter, r *http.Request, s *RequestScope, namespace, name string) {
	deleter, ok := s.Storage.(registry.GracefulDeleter)
	if !ok {
		methodNotSupported(w, s, "delete")
		return
	}
	opts, err := negotiateObject(r, s, false)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	delOpts, err := deleteOptionsOf(r)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	obj, deleted, err := deleter.Delete(r.Context(), name, s.validateDelete(namespace, delOpts.DryRun), delOpts)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	code := http.StatusOK
	if !deleted && delOpts.OrphanDependents != nil && !*delOpts.OrphanDependents {
		code = http.StatusAccepted
	}
	if obj == nil || deleted {
		// Gone now: upstream's generic store answers a Status naming it,
		// with its uid, rather than the object, so that a client can tell
		// it from one finalizers keep (finalizeDelete; ReturnDeletedObject
		// is unset for every resource crdlab serves, custom resources
		// included). Checked with the real kube-apiserver: e2e
		// TestReferenceKubeControllers.
		details := &metav1.StatusDetails{Name: name, Group: s.Resource.Group, Kind: s.Resource.Resource}
		if m, ok := metav1.Accessor(obj); ok {
			details.UID = m.GetUID()
		}
		responsewriters.WriteObject(w, opts, code, &metav1.Status{
			TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusSuccess,
			Details: details,
		})
		return
	}
	writeEncoded(w, r, s, opts, code, obj)
}

// deleteCollection serves DELETE on a collection; the answer is the list
// of deleted objects.
//
// Mirrors DeleteCollection in handlers/delete.go.
func deleteCollection(w http.ResponseWriter, r *http.Request, s *RequestScope, namespace string) {
	deleter, ok := s.Storage.(registry.CollectionDeleter)
	if !ok {
		methodNotSupported(w, s, "deletecollection")
		return
	}
	opts, listOpts, err := collectionRequest(r, s, true)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	if listOpts.Watch {
		responsewriters.WriteError(w, apierrors.NewBadRequest("watch is not allowed with deletecollection"))
		return
	}
	delOpts, err := deleteOptionsOf(r)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	// The deleted objects are only encoded, as a list's (listResource).
	ctx, shared := r.Context(), s.EncodeShared != nil
	if shared {
		ctx = registry.WithReadOnlyItems(ctx)
	}
	list, err := deleter.DeleteCollection(ctx, s.validateDelete(namespace, delOpts.DryRun), delOpts, listOpts)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	writeList(w, r, s, opts, http.StatusOK, list, shared)
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// noteTraceObject tells the trace filter which object the request
// answers with (filters.NoteObject).
func noteTraceObject(r *http.Request, obj scheme.Object) {
	m, ok := obj.(interface {
		GetNamespace() string
		GetName() string
		GetResourceVersion() string
	})
	if !ok {
		return
	}
	key := m.GetName()
	if ns := m.GetNamespace(); ns != "" {
		key = ns + "/" + key
	}
	filters.NoteObject(r.Context(), key, m.GetResourceVersion())
}
