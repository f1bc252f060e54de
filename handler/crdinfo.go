package handler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/apis/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/handler/endpoints"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/customresource/tableconvertor"
	"github.com/crdlab/crdlab/scheme"
)

// errNoCustomResourceStorage says Config.CustomResourceStorage is unset.
var errNoCustomResourceStorage = errors.New("handler: Config.CustomResourceStorage is not set: custom resources cannot be served")

// buildCRDInfo builds the serving info of a CRD: one storage (in the
// storage version) and, per served version, the scopes of the main
// resource, /status and /scale with that version's schema, converter and
// table convertor. The schemas are compiled on the first read or write of
// an object (crdSchemas), the type converter on the first write.
//
// Mirrors (*crdHandler).getOrCreateServingInfoFor in customresource_handler.go.
func (h *GenericAPIServer) buildCRDInfo(crd *apiextensionsv1.CustomResourceDefinition) (*crdInfo, error) {
	if h.cfg.CustomResourceStorage == nil {
		return nil, errNoCustomResourceStorage
	}
	storageVersion, err := helpers.GetCRDStorageVersion(crd)
	if err != nil {
		return nil, err
	}
	names := crd.Status.AcceptedNames
	if names.Plural == "" || names.Kind == "" {
		names = crd.Spec.Names
	}
	listKind := names.ListKind
	if listKind == "" {
		listKind = names.Kind + "List"
	}
	// The schemas of the served versions and of the storage version
	// (served or not) are compiled on first use (crdSchemas).
	schemas := h.newCRDSchemas(crd, storageVersion)
	st, err := h.cfg.CustomResourceStorage(crd, schemaValidator(crd.Spec.Group, storageVersion, schemas, crd.Spec.PreserveUnknownFields))
	if err != nil {
		return nil, err
	}
	info := &crdInfo{
		spec:           &crd.Spec,
		acceptedNames:  crd.Status.AcceptedNames,
		storageVersion: storageVersion,
		schemas:        schemas,
		versions:       map[string]*versionScopes{},
		destroy: func() {
			for _, s := range []interface{ Destroy() }{st.Main, st.Status, st.Scale} {
				if s != nil {
					s.Destroy()
				}
			}
		},
	}
	storageGV := scheme.GroupVersion{Group: crd.Spec.Group, Version: storageVersion}
	// One type converter knows the CRD's kind in all its versions, so that
	// managedFields entries written in one are understood in another. It
	// is built on the first write.
	tc := h.newLazyTypeConverter(&crd.Spec, names)
	info.typeConverter = tc
	statusReset := map[fieldpath.APIVersion]*fieldpath.Set{}
	for _, v := range crd.Spec.Versions {
		if v.Subresources != nil && v.Subresources.Status != nil {
			statusReset[fieldpath.APIVersion(crd.Spec.Group+"/"+v.Name)] = fieldpath.NewSet(
				fieldpath.MakePathOrDie("metadata"), fieldpath.MakePathOrDie("spec"))
		}
	}
	for i := range crd.Spec.Versions {
		v := &crd.Spec.Versions[i]
		if !v.Served {
			continue
		}
		gv := scheme.GroupVersion{Group: crd.Spec.Group, Version: v.Name}
		cols := make([]tableconvertor.PrinterColumn, 0, len(v.AdditionalPrinterColumns))
		for _, c := range v.AdditionalPrinterColumns {
			cols = append(cols, tableconvertor.PrinterColumn{Name: c.Name, Type: c.Type, Format: c.Format, Description: c.Description, JSONPath: c.JSONPath, Priority: c.Priority})
		}
		table, err := tableconvertor.New(cols, h.cfg.Now)
		if err != nil {
			return nil, err
		}
		conv := &crCodec{
			kind:                  gv.WithKind(names.Kind),
			storageGV:             storageGV,
			schemas:               schemas,
			preserveUnknownFields: crd.Spec.PreserveUnknownFields,
			namespaced:            crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		}
		var warnings []string
		if w, _ := helpers.GetDeprecationWarning(crd, v.Name); w != nil {
			warnings = append(warnings, *w)
		}
		mk := func(sub string) *endpoints.RequestScope {
			return h.serverScope(&endpoints.RequestScope{
				Resource:      gv.WithResource(names.Plural),
				Subresource:   sub,
				Kind:          conv.kind,
				ListKind:      listKind,
				Namespaced:    conv.namespaced,
				Decode:        conv.decode,
				DecodeObject:  conv.decodeObject,
				Encode:        conv.encode,
				EncodeOwned:   conv.encodeOwned,
				EncodeShared:  conv.encodeShared,
				ReadsAsStored: conv.readsAsStored,
				EncodeStored:  conv.encodeStored,
				// Only the None conversion strategy is served, which
				// changes apiVersion alone, and the root's metadata
				// takes no defaults (validation forbids them): the
				// metadata of a stored custom resource is its answer's
				// in every version. A metadata-only list (the garbage
				// collector's) then reads it out of storage's bytes
				// instead of decoding each object whole: restarted on
				// 100,000 objects of 2 KB, its first list took 8.2-8.7 s
				// before, 4.0-4.2 s now (bench/cmd/crdbench/perf-notes.md,
				// the table of optimisations).
				MetadataAsStored: true,
				Table:            table,
				Admit:            h.cfg.Admission,
				Warnings:         warnings,
			})
		}
		hasStatus := v.Subresources != nil && v.Subresources.Status != nil
		// The main endpoint resets status when there is /status: nobody
		// owns it through the main endpoint.
		//
		// Mirrors customResourceStrategy.GetResetFields and
		// statusStrategy.GetResetFields.
		var mainReset map[fieldpath.APIVersion]*fieldpath.Set
		if hasStatus {
			mainReset = map[fieldpath.APIVersion]*fieldpath.Set{fieldpath.APIVersion(gv.String()): fieldpath.NewSet(fieldpath.MakePathOrDie("status"))}
		}
		vs := &versionScopes{main: mk("")}
		vs.main.Storage = st.Main
		vs.main.DecodeStored = conv.decodeStored
		if vs.main.FieldManager, err = newCRFieldManager(tc, conv, "", mainReset); err != nil {
			return nil, err
		}
		if hasStatus && st.Status != nil {
			vs.status = mk("status")
			vs.status.Storage = st.Status
			if vs.status.FieldManager, err = newCRFieldManager(tc, conv, "status", statusReset); err != nil {
				return nil, err
			}
		}
		if v.Subresources != nil && v.Subresources.Scale != nil && st.Scale != nil {
			vs.scale = newScaleScope(mk("scale"), st.Scale)
			if vs.scale.FieldManager, err = newScaleFieldManager(tc); err != nil {
				return nil, err
			}
		}
		info.versions[v.Name] = vs
	}
	return info, nil
}

// crCodec turns request bodies into stored custom resources and back, for
// one served version.
//
// Mirrors the codec chain upstream builds per version in
// customresource_handler.go: the unstructured decoder,
// schemaCoercingConverter / unstructuredDefaulter / pruning, and the
// None-strategy converter (nopConverter: only apiVersion changes).
type crCodec struct {
	// kind is the URL version's kind.
	kind      scheme.GroupVersionKind
	storageGV scheme.GroupVersion
	// schemas are the CRD's compiled schemas, compiled on first use; nil
	// when there are none (a test's codec).
	schemas               *crdSchemas
	preserveUnknownFields bool
	namespaced            bool
}

// compiled returns the schema of the codec's version and the storage
// version's (either nil when the version has none): the latter's defaults
// are applied when reading from storage, and it prunes what another
// version writes. noDefaults says the storage schema sets no defaults (or
// there is none): reading an object then changes it only if its
// apiVersion or kind differ from the URL's. The first call compiles them.
func (c *crCodec) compiled() (schema, storageSchema Schema, noDefaults bool, err error) {
	if c.schemas == nil {
		return nil, nil, true, nil
	}
	cs, err := c.schemas.get()
	if err != nil {
		return nil, nil, false, err
	}
	return cs.byVersion[c.kind.Version], cs.byVersion[cs.storageVersion], cs.noDefaults, nil
}

// defaultsReporter is a Schema that can tell whether it has any default.
type defaultsReporter interface {
	HasDefaults() bool
}

// encodeShared encodes an object others share (storage's decoded objects)
// without changing it: when it is already what the wire wants (the URL's
// apiVersion and kind, no defaults to apply) it is returned as is, and
// reused is true; otherwise a copy is encoded.
func (c *crCodec) encodeShared(obj scheme.Object) (out scheme.Object, reused bool, err error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, false, fmt.Errorf("expected a custom resource, got %T", obj)
	}
	_, _, noDefaults, err := c.compiled()
	if err != nil {
		return nil, false, err
	}
	if noDefaults && u.GetKind() != "" && u.GetAPIVersion() == c.kind.GroupVersion().String() {
		return u, true, nil
	}
	out, err = c.encode(u)
	return out, false, err
}

// readsAsStored says an object stored in this version may go on the wire
// as it is stored, its resourceVersion set: the storage schema sets no
// defaults (encodeShared's test, without an object), or the schemas are
// not compiled yet — a list does not compile them for nothing (a
// resource with no objects never does), and encodeStored checks each
// object. Lists in plain JSON then take storage's bytes.
func (c *crCodec) readsAsStored() bool {
	if c.schemas == nil || !c.schemas.compiled() {
		return true
	}
	_, _, noDefaults, err := c.compiled()
	return err == nil && noDefaults
}

// encodeStored appends the JSON of an object as storage holds it: its
// bytes with its resourceVersion spliced in when it reads as stored
// (encodeShared's test: no defaults, stored in the URL's version), else —
// the bytes the splice declines too — the object decoded and encoded as a
// get's.
func (c *crCodec) encodeStored(dst []byte, o registry.StoredJSON) ([]byte, error) {
	_, _, noDefaults, err := c.compiled()
	if err != nil {
		return dst, err
	}
	if noDefaults {
		if out, apiVersion, kind, ok := o.AppendJSON(dst); ok && len(kind) > 0 && string(apiVersion) == c.kind.GroupVersion().String() {
			return out, nil
		}
	}
	u, err := c.decodeStored(o)
	if err != nil {
		return dst, err
	}
	out, err := c.encodeOwned(u)
	if err != nil {
		return dst, err
	}
	return out.(*unstructured.Unstructured).AppendJSON(dst)
}

// decodeStored decodes a listed object's stored JSON as storage does,
// its resourceVersion set: the object a metadata-only list falls back to
// when its metadata cannot be cut out of the bytes.
func (c *crCodec) decodeStored(o registry.StoredJSON) (scheme.Object, error) {
	m, err := unstructured.DecodeJSONObject(o.Data)
	if err != nil {
		return nil, fmt.Errorf("decoding the object at revision %d: %w", o.Rev, err)
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetResourceVersion(strconv.FormatInt(o.Rev, 10))
	return u, nil
}

// decode checks a body's apiVersion (400 for another group or version),
// prunes (unless unknown fields are preserved) and defaults it with the
// version's schema, validates kind (422 for another kind, as upstream's
// ValidateTypeMeta) and metadata — every violation a cause of one 422; the
// schema's own checks are the storage strategy's (schemaValidator) — and
// converts it to the storage version, pruned with that
// version's schema. With strict, it also reports the keys the body
// repeats and the fields the schema pruned, also beside a 422: upstream
// refuses strictly before it validates.
func (c *crCodec) decode(ctx context.Context, body []byte, strict bool) (scheme.Object, *scheme.StrictDecodingError, error) {
	m, decodeErr := unstructured.DecodeJSONObject(body)
	// A body that decoded is valid JSON: its apiVersion and kind need no
	// second validating pass; one that did not gets scheme.Kind's words.
	kindOf := scheme.KindUnchecked
	if decodeErr != nil {
		kindOf = scheme.Kind
	}
	gvk, err := kindOf(body)
	if err != nil {
		return nil, nil, apierrors.NewBadRequest(err.Error())
	}
	if err := endpoints.CheckKind(gvk, c.kind.GroupVersion().WithKind(gvk.Kind)); err != nil {
		return nil, nil, err
	}
	if decodeErr != nil {
		return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding request body: %v", decodeErr))
	}
	return c.decodeChecked(ctx, m, gvk, body, strict)
}

// decodeObject is decode(ctx, body, false) for an object the server built
// (a server-side apply's merge), given as m, what
// unstructured.DecodeJSONObject returns for body; it keeps m. ok is false
// when m's apiVersion or kind is not a string that parses: decode's error
// quotes the body.
func (c *crCodec) decodeObject(ctx context.Context, m map[string]any) (obj scheme.Object, ok bool, err error) {
	apiVersion, _ := m["apiVersion"].(string)
	kind, _ := m["kind"].(string)
	if apiVersion == "" || kind == "" {
		return nil, false, nil
	}
	gv, err := scheme.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, false, nil
	}
	gvk := gv.WithKind(kind)
	if err := endpoints.CheckKind(gvk, c.kind.GroupVersion().WithKind(gvk.Kind)); err != nil {
		return nil, true, err
	}
	obj, _, err = c.decodeChecked(ctx, m, gvk, nil, false)
	return obj, true, err
}

// decodeChecked is decode once the body has decoded into m and its
// apiVersion is the scope's.
func (c *crCodec) decodeChecked(ctx context.Context, m map[string]any, gvk scheme.GroupVersionKind, body []byte, strict bool) (scheme.Object, *scheme.StrictDecodingError, error) {
	u := &unstructured.Unstructured{Object: m}
	if md, ok := m["metadata"]; ok && md != nil {
		if _, isMap := md.(map[string]any); !isMap {
			return nil, nil, apierrors.NewBadRequest("metadata must be an object")
		}
	}
	schema, _, _, err := c.compiled()
	if err != nil {
		return nil, nil, apierrors.NewInternalError(err)
	}
	var strictErr *scheme.StrictDecodingError
	if strict {
		strictErr = scheme.StrictErrors(body, nil) // repeated keys
	}
	// metadata holds what ObjectMeta has, whatever the schema says:
	// upstream decodes it into an ObjectMeta (GetObjectMetaWithOptions).
	unknown := structural.PruneObjectMeta(m)
	if schema != nil {
		if !c.preserveUnknownFields {
			unknown = append(unknown, schema.Prune(m)...)
		}
		schema.Default(m)
	}
	if strict && len(unknown) > 0 {
		if strictErr == nil {
			strictErr = &scheme.StrictDecodingError{}
		}
		strictErr.Unknown = unknown
	}
	if gvk.Kind != c.kind.Kind {
		return nil, strictErr, apierrors.NewInvalid(c.kind.GroupKind(), u.GetName(), []metav1.StatusCause{{
			Type: metav1.CauseTypeFieldValueInvalid, Field: "kind", Message: fmt.Sprintf("Invalid value: %q: must be %s", gvk.Kind, c.kind.Kind)}})
	}
	// The schema's own checks (OpenAPI, then CEL rules) run in the
	// storage's strategy (schemaValidator), where the stored object is at
	// hand for updates; but when the metadata is already wrong, the object
	// goes no further, and the schema's causes join the metadata's in one
	// 422, as in upstream's strategy.Validate.
	causes := validateCustomResourceMetadata(u)
	if len(causes) > 0 && schema != nil {
		causes = append(causes, schema.Validate(ctx, m, nil)...)
	}
	if len(causes) > 0 {
		return nil, strictErr, apierrors.NewInvalid(c.kind.GroupKind(), u.GetName(), causes)
	}
	// In the storage version it holds only what that version's schema
	// declares; but it is pruned so only once validated, with the
	// request's version (schemaValidator).
	u.SetAPIVersion(c.storageGV.String())
	return u, strictErr, nil
}

// schemaValidator is what the storage's strategy calls to check a custom
// resource against the schema of the version the request was written in
// (registry.RequestVersionFrom; the storage version if none). The objects
// it gets are in the storage version; the schema sees them with the
// request's apiVersion, as upstream's per-version storages do.
//
// Mirrors the schema part of customResourceStrategy.Validate and
// ValidateUpdate in pkg/registry/customresource/strategy.go.
//
// An object written in another version keeps the fields of that version's
// schema until it is validated; then it is pruned with the storage
// version's schema, as upstream's storage codec (schemaCoercingConverter)
// prunes what it converts to the storage version when it writes.
func schemaValidator(group, storageVersion string, compiled *crdSchemas, preserveUnknownFields bool) CustomResourceValidator {
	return func(ctx context.Context, obj, old *unstructured.Unstructured) []metav1.StatusCause {
		version := registry.RequestVersionFrom(ctx).Version
		if version == "" {
			version = storageVersion
		}
		// The request's decode compiled them (and answered 500 if they
		// do not compile), so this is not the first use.
		cs, err := compiled.get()
		if err != nil {
			return []metav1.StatusCause{{Type: metav1.CauseTypeFieldValueInvalid, Message: err.Error()}}
		}
		schemas := cs.byVersion
		sch := schemas[version]
		var causes []metav1.StatusCause
		if sch != nil {
			apiVersion := group + "/" + version
			var oldObj map[string]any
			if old != nil {
				oldObj = withAPIVersion(old.Object, apiVersion)
			}
			causes = sch.Validate(ctx, withAPIVersion(obj.Object, apiVersion), oldObj)
		}
		if storage := schemas[storageVersion]; len(causes) == 0 && version != storageVersion && storage != nil && !preserveUnknownFields {
			storage.Prune(obj.Object)
		}
		return causes
	}
}

// withAPIVersion is obj with apiVersion set, a shallow copy if it differs.
func withAPIVersion(obj map[string]any, apiVersion string) map[string]any {
	if obj["apiVersion"] == apiVersion {
		return obj
	}
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	out["apiVersion"] = apiVersion
	return out
}

// encode writes a stored custom resource in the URL's version, as
// upstream's storage codec reads one: defaults of the storage version's
// schema, then the None conversion strategy (apiVersion only), then — for
// another version — pruning with that version's schema.
func (c *crCodec) encode(obj scheme.Object) (scheme.Object, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("expected a custom resource, got %T", obj)
	}
	return c.encodeOwned(u.DeepCopy())
}

// encodeOwned is encode for an object the caller owns, which it changes in
// place instead of copying: the objects the registry returns (storage hands
// out copies of what it shares). For a list of thousands, the copy it saves
// was a third of the time and most of the garbage.
func (c *crCodec) encodeOwned(obj scheme.Object) (scheme.Object, error) {
	out, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("expected a custom resource, got %T", obj)
	}
	// An object without a name (a watch's bookmark) is neither defaulted
	// nor pruned, and compiles no schema.
	var schema, storageSchema Schema
	if out.GetName() != "" {
		var err error
		if schema, storageSchema, _, err = c.compiled(); err != nil {
			return nil, err
		}
	}
	if storageSchema != nil {
		storageSchema.Default(out.Object)
	}
	out.SetAPIVersion(c.kind.GroupVersion().String())
	if out.GetKind() == "" {
		out.SetKind(c.kind.Kind)
	}
	if schema != nil && !c.preserveUnknownFields && c.kind.Version != c.storageGV.Version {
		schema.Prune(out.Object)
	}
	return out, nil
}

// validateCustomResourceMetadata checks what the schema cannot: the name
// is a DNS-1123 subdomain, labels and annotations are well-formed.
//
// Mirrors the ObjectMeta part of customResourceStrategy.Validate.
func validateCustomResourceMetadata(u *unstructured.Unstructured) []metav1.StatusCause {
	var errs field.ErrorList
	fp := field.NewPath("metadata")
	if name := u.GetName(); name != "" {
		for _, msg := range validation.NameIsDNSSubdomain(name, false) {
			errs = append(errs, field.Invalid(fp.Child("name"), name, msg))
		}
	}
	if gn := u.GetGenerateName(); gn != "" {
		for _, msg := range validation.NameIsDNSSubdomain(gn, true) {
			errs = append(errs, field.Invalid(fp.Child("generateName"), gn, msg))
		}
	}
	if md, ok := u.Object["metadata"].(map[string]any); ok {
		for _, key := range []string{"labels", "annotations"} {
			if v, ok := md[key]; ok && v != nil {
				mm, isMap := v.(map[string]any)
				if !isMap {
					errs = append(errs, field.Invalid(fp.Child(key), v, "must be a map of strings"))
					continue
				}
				for k, e := range mm {
					if _, isString := e.(string); !isString {
						errs = append(errs, field.Invalid(fp.Child(key).Key(k), e, "must be a string"))
					}
				}
			}
		}
		// Lists the accessors would read as empty: refuse them rather
		// than store them malformed.
		for _, key := range []string{"finalizers", "ownerReferences"} {
			if v, ok := md[key]; ok && v != nil {
				list, isList := v.([]any)
				if !isList {
					errs = append(errs, field.Invalid(fp.Child(key), v, "must be a list"))
					continue
				}
				for i, e := range list {
					_, isString := e.(string)
					_, isMap := e.(map[string]any)
					if key == "finalizers" && !isString || key == "ownerReferences" && !isMap {
						errs = append(errs, field.Invalid(fp.Child(key).Index(i), e, map[string]string{"finalizers": "must be a string", "ownerReferences": "must be an object"}[key]))
					}
				}
			}
		}
	}
	errs = append(errs, validation.ValidateLabels(u.GetLabels(), fp.Child("labels"))...)
	errs = append(errs, validation.ValidateAnnotations(u.GetAnnotations(), fp.Child("annotations"))...)
	return registry.StatusCauses(errs)
}

// newScaleScope serves /scale: bodies are autoscaling/v1 Scale objects,
// decoded into whatever the scale storage's New returns.
//
// Mirrors serveScale in customresource_handler.go.
func newScaleScope(s *endpoints.RequestScope, storage interface {
	New() scheme.Object
	Destroy()
}) *endpoints.RequestScope {
	scaleKind := scheme.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}
	s.Kind = scaleKind
	s.ListKind = ""
	s.Table = nil
	s.Storage = storage
	s.Decode = func(_ context.Context, body []byte, strict bool) (scheme.Object, *scheme.StrictDecodingError, error) {
		if err := endpoints.CheckTypeMeta(body, scaleKind); err != nil {
			return nil, nil, err
		}
		obj := storage.New()
		if err := json.Unmarshal(body, obj); err != nil {
			return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding request body: %v", err))
		}
		if strict {
			return obj, scheme.StrictErrors(body, obj), nil
		}
		return obj, nil, nil
	}
	s.Encode = func(obj scheme.Object) (scheme.Object, error) {
		out := obj.DeepCopyObject()
		if out.GetObjectKind().GroupVersionKind().Kind == "" {
			out.GetObjectKind().SetGroupVersionKind(scaleKind)
		}
		return out, nil
	}
	// The main scope's in-place encoder and map decoder are for custom
	// resources; a Scale goes through encode and decode.
	s.EncodeOwned = nil
	s.DecodeObject = nil
	return s
}
