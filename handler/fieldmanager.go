package handler

// This file builds the field managers (server-side apply's bookkeeping,
// endpoints.FieldManager) of the handler's scopes: the CRD API's from its
// Go types, custom resources' from their CRD's schemas.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler/endpoints"
	"github.com/crdlab/crdlab/machinery/managedfields"
	"github.com/crdlab/crdlab/machinery/openapi"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
)

// This file wires server-side apply's bookkeeping (package
// machinery/managedfields) into the verb handlers. A scope whose objects
// keep metadata.managedFields has a endpoints.FieldManager: create, update and
// JSON or merge patches record an Update entry for their manager
// (recordUpdate, as upstream's handlers call FieldManager.UpdateNoErrors),
// and an application/apply-patch+yaml merges through it (applyPatch in
// patch.go).
//
// Built-in kinds get theirs from newTypedFieldManager; custom resources
// from buildCRDInfo, whose schemas are the CRD's.

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
func (h *GenericAPIServer) newTypedFieldManager(resources []openapi.Resource, kind scheme.GroupVersionKind, subresource string, storage registry.Storage) (*endpoints.FieldManager, error) {
	models, err := openapi.Models(resources)
	if err != nil {
		return nil, err
	}
	tc, err := managedfields.NewTypeConverter(models, false)
	if err != nil {
		return nil, err
	}
	s := h.cfg.Scheme
	noter, _ := storage.(encodedNoter)
	// bufs are the buffers objects are written into: the JSON is read
	// into maps and copied (NoteEncoded) before the buffer is put back. A
	// buffer grown by append for each write was about four times a
	// real-size CRD's JSON in garbage.
	var bufs sync.Pool
	getBuf := func() *[]byte {
		if buf, _ := bufs.Get().(*[]byte); buf != nil {
			return buf
		}
		return new([]byte)
	}
	// write converts obj to gv and writes it into buf.
	write := func(obj scheme.Object, gv scheme.GroupVersion, buf *[]byte) ([]byte, error) {
		out, err := s.ConvertToVersion(obj, gv)
		if err != nil {
			return nil, err
		}
		// Through the object's own writer when it has one (a CRD's
		// schemas: json.Marshal would check and compact their output once
		// more).
		b, err := scheme.AppendJSON((*buf)[:0], out)
		if err != nil {
			return nil, err
		}
		*buf = b
		if noter != nil {
			noter.NoteEncoded(obj, gv, b)
		}
		return b, nil
	}
	toVersion := func(obj scheme.Object, gv scheme.GroupVersion) (*unstructured.Unstructured, error) {
		buf := getBuf()
		defer bufs.Put(buf)
		b, err := write(obj, gv, buf)
		if err != nil {
			return nil, err
		}
		return decodeWire(b)
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
	gv := kind.GroupVersion()
	toWire := func(obj scheme.Object) (*unstructured.Unstructured, error) { return toVersion(obj, gv) }
	out := endpoints.NewFieldManager(fm, toWire)
	fields := resetTopFields(resources, reset)
	elide := kind.GroupKind() == crdGroupKind && managedfields.AtomicField(tc, kind, "spec", "versions")
	if len(fields) == 0 && !elide {
		return out, nil
	}
	return out.WithUpdateWire(func(live, obj scheme.Object) (liveW, objW *unstructured.Unstructured, err error) {
		if len(fields) > 0 {
			obj = withoutFields(obj, fields)
			if live != nil {
				live = withoutFields(live, fields)
			}
		}
		if !elide || !managedIn(gv, live, obj) {
			return endpoints.ReadBoth(toWire, live, obj)
		}
		var liveB []byte
		if live != nil {
			buf := getBuf()
			defer bufs.Put(buf)
			if liveB, err = write(live, gv, buf); err != nil {
				return nil, nil, err
			}
		}
		buf := getBuf()
		defer bufs.Put(buf)
		objB, err := write(obj, gv, buf)
		if err != nil {
			return nil, nil, err
		}
		return readVersionsElided(liveB, objB, live != nil)
	}), nil
}

// crdGroupKind is the kind whose spec.versions the field manager
// compares by their JSON (readVersionsElided).
var crdGroupKind = scheme.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}

// decodeWire reads an object's JSON into maps.
func decodeWire(b []byte) (*unstructured.Unstructured, error) {
	m, err := unstructured.DecodeJSONObject(b)
	if err != nil {
		return nil, err
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// readVersionsElided reads two CRDs' JSON (live's absent for a create:
// stored false) for the bookkeeping of a write, with an empty list in
// place of spec.versions: reading a real-size CRD's versions — its
// schemas — into maps was most of the field manager's work, and the merge
// engine never looks inside them (the CRD API's types make the list
// atomic: managedfields.AtomicField). What it does need is whether the
// write changed them: for a create, that obj has them; for an update,
// whether they are equal. The JSON of both is the same writer's, so equal
// bytes are equal values; unequal bytes may still be equal values (a
// default's keys in another order, as a client wrote them), and then both
// are read whole, as before.
//
// The stand-in also skips the merge engine's check of the versions
// against the CRD API's types: the JSON was written from those types, so
// it passes (TestCRDFieldManager_VersionsElided compares the two ways
// on real-size CRDs).
func readVersionsElided(liveB, objB []byte, stored bool) (liveW, objW *unstructured.Unstructured, err error) {
	objStart, objEnd, found := apiextensionsv1.VersionsSpan(objB)
	if stored {
		ls, le, liveFound := apiextensionsv1.VersionsSpan(liveB)
		if !found || !liveFound || !bytes.Equal(liveB[ls:le], objB[objStart:objEnd]) {
			if liveW, err = decodeWire(liveB); err != nil {
				return nil, nil, err
			}
			objW, err = decodeWire(objB)
			return liveW, objW, err
		}
		if liveW, err = decodeWire(spliceEmptyList(liveB, ls, le)); err != nil {
			return nil, nil, err
		}
	}
	if !found {
		objW, err = decodeWire(objB)
		return liveW, objW, err
	}
	objW, err = decodeWire(spliceEmptyList(objB, objStart, objEnd))
	return liveW, objW, err
}

// spliceEmptyList returns b with b[start:end] replaced by [].
func spliceEmptyList(b []byte, start, end int) []byte {
	out := make([]byte, 0, len(b)-(end-start)+2)
	return append(append(append(out, b[:start]...), "[]"...), b[end:]...)
}

// managedIn reports whether every managedFields entry of live (if not
// nil) and obj is in gv: the merge engine then compares the objects in
// gv only, as they are read. An entry in another version has it convert
// them to that version, from what they hold.
func managedIn(gv scheme.GroupVersion, objs ...scheme.Object) bool {
	want := gv.String()
	for _, obj := range objs {
		if obj == nil {
			continue
		}
		m, ok := metav1.Accessor(obj)
		if !ok {
			return false
		}
		for _, e := range m.GetManagedFields() {
			if e.APIVersion != want {
				return false
			}
		}
	}
	return true
}

// encodedNoter is a storage that can use what the field manager wrote
// (CRDs': registry/customresourcedefinition.Codec.NoteEncoded): obj,
// converted to gv, written as wire by scheme.MarshalJSON. A create's
// storage then copies the new CRD's spec from it instead of converting
// and writing it again.
type encodedNoter interface {
	NoteEncoded(obj scheme.Object, gv scheme.GroupVersion, wire []byte)
}

// resetTopFields returns the top-level fields ("spec") that are reset
// fields, whole, in every version the kind has (resources): an update's
// bookkeeping may leave them out (endpoints.FieldManager.WithUpdateWire).
// A CRD's /status resets spec: each status write of a real-size CRD
// converted and encoded its whole spec twice (old and new object) only
// for the merge engine to filter it out again.
func resetTopFields(resources []openapi.Resource, reset map[fieldpath.APIVersion]*fieldpath.Set) map[string]bool {
	if len(resources) == 0 {
		return nil
	}
	var out map[string]bool
	for i, r := range resources {
		set, ok := reset[fieldpath.APIVersion(scheme.GroupVersion{Group: r.Group, Version: r.Version}.String())]
		if !ok {
			return nil
		}
		fields := map[string]bool{}
		set.Iterate(func(p fieldpath.Path) {
			if len(p) == 1 && p[0].FieldName != nil && *p[0].FieldName != "metadata" {
				fields[*p[0].FieldName] = true
			}
		})
		if i == 0 {
			out = fields
			continue
		}
		for f := range out {
			if !fields[f] {
				delete(out, f)
			}
		}
	}
	return out
}

// withoutFields returns a shallow copy of obj, a pointer to a struct,
// whose fields with these JSON names are zero; obj itself if it has none.
// obj may be of an internal type (package apis/apiextensions): it is
// converted to the wire's version after.
func withoutFields(obj scheme.Object, fields map[string]bool) scheme.Object {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return obj
	}
	t := v.Elem().Type()
	var cp reflect.Value
	for i := range t.NumField() {
		// The field's JSON name; an internal type has no tags, and its
		// fields are the versioned ones' capitalised ("Spec").
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" && !t.Field(i).Anonymous {
			name = strings.ToLower(t.Field(i).Name[:1]) + t.Field(i).Name[1:]
		}
		if !fields[name] || !t.Field(i).IsExported() {
			continue
		}
		if !cp.IsValid() {
			cp = reflect.New(t)
			cp.Elem().Set(v.Elem())
		}
		cp.Elem().Field(i).SetZero()
	}
	if !cp.IsValid() {
		return obj
	}
	return cp.Interface().(scheme.Object)
}

// crdTypeConverter types the custom resources of crd: the schemas of all
// its versions, served or not, with apiVersion, kind and metadata added,
// and the meta kinds (ObjectMeta, Scale). A CRD whose schemas do not
// convert is merged with deduced types, and the log says so.
//
// Mirrors buildOpenAPIModelsForApply and the TypeConverter of
// getOrCreateServingInfoFor (customresource_handler.go), which answers
// such a CRD's requests with an error instead.
func (h *GenericAPIServer) crdTypeConverter(spec *apiextensionsv1.CustomResourceDefinitionSpec, names apiextensionsv1.CustomResourceDefinitionNames) managedfields.TypeConverter {
	crdName := spec.Names.Plural + "." + spec.Group
	var resources []openapi.Resource
	for _, v := range spec.Versions {
		r := openapi.Resource{Group: spec.Group, Version: v.Name, Kind: names.Kind, Plural: names.Plural}
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			b, err := json.Marshal(v.Schema.OpenAPIV3Schema)
			if err != nil {
				h.logger.Warn("server-side apply: a CRD's schema cannot be encoded; merging by deduced types", "crd", crdName, "err", err)
				return managedfields.NewDeducedTypeConverter()
			}
			r.SchemaJSON = b
		}
		resources = append(resources, r)
	}
	models, err := openapi.Models(resources)
	if err == nil {
		var tc managedfields.TypeConverter
		if tc, err = managedfields.NewTypeConverter(models, spec.PreserveUnknownFields); err == nil {
			return tc
		}
	}
	h.logger.Warn("server-side apply: a CRD's schemas do not convert to a typed schema; merging by deduced types", "crd", crdName, "err", err)
	return managedfields.NewDeducedTypeConverter()
}

// lazyTypeConverter is a CRD's type converter, built on first use: on the
// first write of one of its custom resources (every create, update, patch
// and apply records managedFields), not with the serving info. A typed
// schema of a 265 KB provider CRD costs about 0.2 MiB; most CRDs of a
// provider are served (listed and watched by its controllers) but few
// ever get an object (docs/crd-memory.md). Until it is built it points at
// the spec of the CRD object the crdHandler holds (repoint follows the
// crdHandler to a newer object with the same spec), and keeps no copy.
//
// Upstream builds the TypeConverter with the serving info
// (getOrCreateServingInfoFor).
type lazyTypeConverter struct {
	build func(*apiextensionsv1.CustomResourceDefinitionSpec) managedfields.TypeConverter

	mu sync.Mutex // guards spec and tc
	// spec is what tc is built from; nil once tc is built.
	spec *apiextensionsv1.CustomResourceDefinitionSpec
	tc   managedfields.TypeConverter
}

// newLazyTypeConverter returns crdTypeConverter(spec, names), built on
// first use.
func (h *GenericAPIServer) newLazyTypeConverter(spec *apiextensionsv1.CustomResourceDefinitionSpec, names apiextensionsv1.CustomResourceDefinitionNames) *lazyTypeConverter {
	return &lazyTypeConverter{spec: spec, build: func(spec *apiextensionsv1.CustomResourceDefinitionSpec) managedfields.TypeConverter {
		return h.crdTypeConverter(spec, names)
	}}
}

// get returns the type converter, building it the first time.
func (l *lazyTypeConverter) get() managedfields.TypeConverter {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tc == nil {
		l.tc, l.spec = l.build(l.spec), nil
	}
	return l.tc
}

// built reports whether the type converter has been built.
func (l *lazyTypeConverter) built() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.tc != nil
}

// repoint makes a converter not built yet read spec, an equal spec of a
// newer object, so that the older object can go.
func (l *lazyTypeConverter) repoint(spec *apiextensionsv1.CustomResourceDefinitionSpec) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tc == nil {
		l.spec = spec
	}
}

func (l *lazyTypeConverter) ObjectToTyped(obj *unstructured.Unstructured, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	return l.get().ObjectToTyped(obj, opts...)
}

func (l *lazyTypeConverter) TypedToObject(tv *typed.TypedValue) (*unstructured.Unstructured, error) {
	return l.get().TypedToObject(tv)
}

// newCRFieldManager returns the field manager of a custom resource scope
// in conv's version.
func newCRFieldManager(tc managedfields.TypeConverter, conv *crCodec, subresource string, reset map[fieldpath.APIVersion]*fieldpath.Set) (*endpoints.FieldManager, error) {
	fm, err := managedfields.New(managedfields.Config{TypeConverter: tc, Kind: conv.kind, Subresource: subresource, ResetFields: reset})
	if err != nil {
		return nil, err
	}
	return endpoints.NewFieldManager(fm, conv.toWire), nil
}

// scaleKind is the kind of /scale bodies.
var scaleKind = scheme.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}

// newScaleFieldManager returns the field manager of a /scale scope:
// objects are autoscaling/v1 Scales, whose managedFields the scale storage
// moves to and from the custom resource's (managedfields.ScaleHandler).
func newScaleFieldManager(tc managedfields.TypeConverter) (*endpoints.FieldManager, error) {
	fm, err := managedfields.New(managedfields.Config{TypeConverter: tc, Kind: scaleKind, Subresource: "scale"})
	if err != nil {
		return nil, err
	}
	return endpoints.NewFieldManager(fm, func(obj scheme.Object) (*unstructured.Unstructured, error) {
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
	}), nil
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
	_, _, noDefaults, err := c.compiled()
	if err != nil {
		return nil, err
	}
	if !noDefaults {
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
