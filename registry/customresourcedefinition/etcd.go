package customresourcedefinition

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/crdlab/crdlab/apis/apiextensions"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/internal/specmemo"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// Resource is customresourcedefinitions.apiextensions.k8s.io.
var Resource = apiextensions.Resource("customresourcedefinitions")

// KeyPrefix is where CRDs live in storage.
var KeyPrefix = registry.KeyPrefix(apiextensions.GroupName, "customresourcedefinitions")

// REST is the REST storage of CRDs. Objects are the internal
// *apiextensions.CustomResourceDefinition; the handler converts from and to
// the requested version.
//
// Mirrors REST in customresourcedefinition/etcd.go.
type REST struct {
	*registry.Store
	// codec is the storage codec (tests look at its memo).
	codec Codec
	// writtenSince is the backend's first revision written with this
	// CodecVersion (stored.go); math.MaxInt64 if it cannot tell.
	writtenSince int64
}

// NewREST returns the REST storage of CRDs and of their /status, kept in
// backend under /registry/apiextensions.k8s.io/customresourcedefinitions
// as apiextensions.k8s.io/v1 JSON. s must have the apiextensions group
// installed (apis/apiextensions/install).
//
// Mirrors NewREST and NewStatusREST in customresourcedefinition/etcd.go.
func NewREST(backend storage.Backend, s *scheme.Scheme) (*REST, *StatusREST) {
	st := strategy{ObjectTyper: s}
	newFunc := func() storage.Object { return &apiextensions.CustomResourceDefinition{} }
	codec := NewCodec(s)
	keyRoot, key := registry.DefaultKeyFuncs(KeyPrefix, false)
	store := &registry.Store{
		NewFunc:                  newFunc,
		NewListFunc:              func() scheme.Object { return &apiextensions.CustomResourceDefinitionList{} },
		DefaultQualifiedResource: Resource,
		KeyRootFunc:              keyRoot,
		KeyFunc:                  key,
		CreateStrategy:           st,
		UpdateStrategy:           st,
		DeleteStrategy:           st,
		Storage: backend.ForResource(storage.ResourceConfig{
			Prefix:  KeyPrefix,
			NewFunc: newFunc,
			Codec:   codec,
		}),
	}
	statusStore := *store
	statusStore.UpdateStrategy = statusStrategy{st}
	return &REST{Store: store, codec: codec, writtenSince: writtenSinceOf(backend)}, &StatusREST{store: &statusStore, codec: codec}
}

// DecodeBody decodes a request body whose spec was stored before without
// reading its spec (Codec.DecodeBody).
func (r *REST) DecodeBody(body []byte, strict bool) (scheme.Object, *scheme.StrictDecodingError, bool) {
	return r.codec.DecodeBody(body, strict)
}

// EncodeWire writes a CRD whose spec the codec read before as the JSON
// a client gets in gv, without writing the spec again
// (Codec.EncodeWire).
func (r *REST) EncodeWire(obj scheme.Object, gv scheme.GroupVersion) ([]byte, bool) {
	return r.codec.EncodeWire(obj, gv)
}

// AppendWire is EncodeWire appending to dst (Codec.AppendWire).
func (r *REST) AppendWire(dst []byte, obj scheme.Object, gv scheme.GroupVersion) ([]byte, bool) {
	return r.codec.AppendWire(dst, obj, gv)
}

// NoteEncoded is Codec.NoteEncoded: the handler's field manager calls it
// with each CRD it writes.
func (r *REST) NoteEncoded(obj scheme.Object, gv scheme.GroupVersion, wire []byte) {
	r.codec.NoteEncoded(obj, gv, wire)
}

// ShortNames are the names kubectl accepts for CRDs ("kubectl get crd").
func (r *REST) ShortNames() []string { return []string{"crd", "crds"} }

// Categories puts CRDs in "kubectl get api-extensions".
func (r *REST) Categories() []string { return []string{"api-extensions"} }

// Delete marks a CRD for deletion on the first request: it sets
// deletionTimestamp, adds the customresourcecleanup finalizer and the
// Terminating condition, and returns the CRD with false. The finalizer
// controller deletes the custom resources, then removes the finalizer
// through /status, which deletes the CRD. Later requests go to the generic
// delete. The UID of the CRD read first is a precondition of the write, so
// a CRD deleted and re-created meanwhile is left alone.
//
// Mirrors (*REST).Delete in customresourcedefinition/etcd.go.
func (r *REST) Delete(ctx context.Context, name string, deleteValidation registry.ValidateObjectFunc, opts *metav1.DeleteOptions) (scheme.Object, bool, error) {
	obj, err := r.Get(ctx, name, &metav1.GetOptions{})
	if err != nil {
		return nil, false, err
	}
	crd := obj.(*apiextensions.CustomResourceDefinition)
	o, err := registry.DeletePreconditions(Resource, crd, opts)
	if err != nil {
		return nil, false, err
	}
	if crd.DeletionTimestamp != nil {
		return r.Store.Delete(ctx, name, deleteValidation, &o)
	}
	return r.MarkForDeletion(ctx, name, &o, deleteValidation, func(existing storage.Object) {
		existingCRD := existing.(*apiextensions.CustomResourceDefinition)
		if existingCRD.DeletionTimestamp == nil {
			now := metav1.NewTime(r.now())
			existingCRD.DeletionTimestamp = &now
		}
		if !hasFinalizer(existingCRD, apiextensions.CustomResourceCleanupFinalizer) {
			existingCRD.Finalizers = append(existingCRD.Finalizers, apiextensions.CustomResourceCleanupFinalizer)
		}
		setCondition(existingCRD, apiextensions.CustomResourceDefinitionCondition{
			Type:    apiextensions.Terminating,
			Status:  apiextensions.ConditionTrue,
			Reason:  "InstanceDeletionPending",
			Message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
		}, r.now())
	})
}

func (r *REST) now() time.Time {
	if r.Clock != nil {
		return r.Clock()
	}
	return time.Now()
}

func hasFinalizer(crd *apiextensions.CustomResourceDefinition, finalizer string) bool {
	for _, f := range crd.Finalizers {
		if f == finalizer {
			return true
		}
	}
	return false
}

// setCondition sets a condition of an internal CRD; the transition time
// moves only when the status changes.
//
// Mirrors apiextensions.SetCRDCondition (internal version).
func setCondition(crd *apiextensions.CustomResourceDefinition, c apiextensions.CustomResourceDefinitionCondition, now time.Time) {
	c.LastTransitionTime = metav1.NewTime(now)
	for i := range crd.Status.Conditions {
		existing := &crd.Status.Conditions[i]
		if existing.Type != c.Type {
			continue
		}
		if existing.Status == c.Status && !existing.LastTransitionTime.IsZero() {
			c.LastTransitionTime = existing.LastTransitionTime
		}
		*existing = c
		return
	}
	crd.Status.Conditions = append(crd.Status.Conditions, c)
}

// StatusREST serves customresourcedefinitions/status: GET reads the CRD,
// PUT and PATCH write its status (and finalizers).
//
// Mirrors StatusREST in customresourcedefinition/etcd.go.
type StatusREST struct {
	store *registry.Store
	codec Codec
}

var (
	_ registry.Storage = (*StatusREST)(nil)
	_ registry.Getter  = (*StatusREST)(nil)
	_ registry.Updater = (*StatusREST)(nil)
	_ registry.Scoper  = (*StatusREST)(nil)
)

func (r *StatusREST) New() scheme.Object    { return &apiextensions.CustomResourceDefinition{} }
func (r *StatusREST) Destroy()              {}
func (r *StatusREST) NamespaceScoped() bool { return false }

// GetResetFields returns what /status may not write (spec).
func (r *StatusREST) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return r.store.GetResetFields()
}

// DecodeBody decodes a request body whose spec was stored before without
// reading its spec (Codec.DecodeBody).
func (r *StatusREST) DecodeBody(body []byte, strict bool) (scheme.Object, *scheme.StrictDecodingError, bool) {
	return r.codec.DecodeBody(body, strict)
}

// EncodeWire is REST.EncodeWire.
func (r *StatusREST) EncodeWire(obj scheme.Object, gv scheme.GroupVersion) ([]byte, bool) {
	return r.codec.EncodeWire(obj, gv)
}

// AppendWire is REST.AppendWire.
func (r *StatusREST) AppendWire(dst []byte, obj scheme.Object, gv scheme.GroupVersion) ([]byte, bool) {
	return r.codec.AppendWire(dst, obj, gv)
}

// Get reads the CRD.
func (r *StatusREST) Get(ctx context.Context, name string, opts *metav1.GetOptions) (scheme.Object, error) {
	return r.store.Get(ctx, name, opts)
}

// Update writes the status. A subresource never creates.
func (r *StatusREST) Update(ctx context.Context, name string, objInfo registry.UpdatedObjectInfo, createValidation registry.ValidateObjectFunc,
	updateValidation registry.ValidateObjectUpdateFunc, _ bool, opts *metav1.UpdateOptions) (scheme.Object, bool, error) {
	return r.store.Update(ctx, name, objInfo, createValidation, updateValidation, false, opts)
}

// Codec stores internal CRDs as apiextensions.k8s.io/v1 JSON: Encode
// converts to v1, Decode reads v1 (with its defaults) and converts to the
// internal version. A spec it has read before (specmemo.go) is neither
// read nor written again: Decode shares the decoded one, Encode copies
// its JSON.
//
// Mirrors the storage codec upstream builds for the group (the storage
// version of customresourcedefinitions is v1).
type Codec struct {
	codecs  scheme.CodecFactory
	memo    *specMemo
	decodes *decodes // specs Decode is reading whole (nil with memo)
}

var _ storage.Codec = Codec{}

// NewCodec returns the storage codec of CRDs over s.
func NewCodec(s *scheme.Scheme) Codec {
	return Codec{codecs: scheme.NewCodecFactory(s), memo: newSpecMemo(), decodes: &decodes{}}
}

// Encode writes obj as v1 JSON; a remembered spec is copied as it was
// read, and a spec written whole lately (NoteEncoded) as it was written
// (encoding the rest with an empty spec in its place).
func (c Codec) Encode(obj storage.Object) ([]byte, error) {
	if crd, ok := obj.(*apiextensions.CustomResourceDefinition); ok && c.memo != nil {
		if e := c.memo.Find(&crd.Spec); e != nil {
			// The write that makes a CRD Established is the controllers'
			// last: its spec goes first when the memo is full.
			if apiextensions.IsCRDConditionTrue(crd, apiextensions.Established) {
				c.memo.Finish(e)
			}
			if b, ok := c.appendSpliced(nil, crd, e.JSON); ok {
				return b, nil
			}
		}
		if specJSON := c.memo.FindWritten(&crd.Spec); specJSON != nil {
			if b, ok := c.appendSpliced(nil, crd, specJSON); ok {
				return b, nil
			}
		}
	}
	b, err := c.codecs.Encode(obj, apiextensionsv1.SchemeGroupVersion)
	if crd, ok := obj.(*apiextensions.CustomResourceDefinition); ok && err == nil && c.memo != nil {
		if start, end, found := apiextensionsv1.SpecSpan(b); found {
			c.memo.NoteWritten(b[start:end], crd.Spec)
		}
	}
	return b, err
}

// NoteEncoded is told that obj was converted to gv and written as wire
// by the handler's writer (scheme.MarshalJSON, what Encode uses): a
// create's field manager writes the new CRD whole, in v1, before storage
// does. If obj is a CRD and gv is v1, its spec's JSON is noted as
// written (specmemo's NoteWritten), and Encode copies it rather than
// converting and writing the spec again, as long as the spec is the same
// (its versions and every other field, shallowly: nothing changes a spec
// in place, the rule of specmemo.go). The read-back of the create then
// confirms it as Encode's own whole write would (confirmWritten).
func (c Codec) NoteEncoded(obj scheme.Object, gv scheme.GroupVersion, wire []byte) {
	crd, ok := obj.(*apiextensions.CustomResourceDefinition)
	if !ok || c.memo == nil || gv != apiextensionsv1.SchemeGroupVersion {
		return
	}
	if start, end, found := apiextensionsv1.SpecSpan(wire); found {
		c.memo.NoteWritten(wire[start:end], crd.Spec)
	}
}

// EncodeWire writes obj as apiextensions.k8s.io/v1 JSON for a client —
// byte for byte what converting it to v1 and writing it (the handler's
// Encode and AppendJSON) give — when its spec is a remembered one whose
// JSON is that writer's own: the rest is converted and written with an
// empty spec in its place, and the spec's JSON copied in. A /status
// write's answer and the watch events of a CRD on its way to Established
// carry such a spec. The first object written of a remembered spec is
// written whole, as the handler would, and shows whether the spec's JSON
// is the writer's: it is not for a spec stored by an older build, or
// stored without a default its decode fills in. ok is false for any
// other object, version or spec: the caller encodes it the usual way.
func (c Codec) EncodeWire(obj scheme.Object, gv scheme.GroupVersion) ([]byte, bool) {
	return c.AppendWire(nil, obj, gv)
}

// WireSlack is the room AppendWire leaves after what it appends, in the
// one allocation it makes for it: a watch event's closing brace and
// newline fit without copying a real-size CRD's JSON again.
const WireSlack = 8

// AppendWire is EncodeWire appending to dst (dst unchanged if ok is
// false). A watch event is written into one buffer this way: with the
// spec's JSON spliced into a buffer of its own and that copied into the
// event's, growing it by doubling, each event of a real-size CRD
// allocated about five times its size (docs/crd-memory.md, "Session 19:
// the bytes a CRD's events allocate").
func (c Codec) AppendWire(dst []byte, obj scheme.Object, gv scheme.GroupVersion) ([]byte, bool) {
	crd, isCRD := obj.(*apiextensions.CustomResourceDefinition)
	if !isCRD || c.memo == nil || gv != apiextensionsv1.SchemeGroupVersion {
		return dst, false
	}
	e := c.memo.Find(&crd.Spec)
	if e == nil {
		return dst, false
	}
	switch e.State.Load() {
	case wireSame:
		return c.appendSpliced(dst, crd, e.JSON)
	case wireDiffers:
		return dst, false
	}
	b, err := c.codecs.Encode(crd, apiextensionsv1.SchemeGroupVersion)
	if err != nil {
		return dst, false
	}
	if start, end, found := apiextensionsv1.SpecSpan(b); found && bytes.Equal(b[start:end], e.JSON) {
		e.State.Store(wireSame)
	} else {
		e.State.Store(wireDiffers)
	}
	return append(slices.Grow(dst, len(b)+WireSlack), b...), true
}

// appendSpliced appends crd as v1 JSON with specJSON as its spec's value
// to dst, growing it once (with WireSlack to spare); dst is unchanged if
// ok is false.
func (c Codec) appendSpliced(dst []byte, crd *apiextensions.CustomResourceDefinition, specJSON []byte) ([]byte, bool) {
	stub := *crd
	stub.Spec = apiextensions.CustomResourceDefinitionSpec{}
	b, err := c.codecs.Encode(&stub, apiextensionsv1.SchemeGroupVersion)
	if err != nil {
		return dst, false
	}
	start, end, found := apiextensionsv1.SpecSpan(b)
	if !found {
		return dst, false
	}
	out := slices.Grow(dst, len(b)-(end-start)+len(specJSON)+WireSlack)
	out = append(out, b[:start]...)
	out = append(out, specJSON...)
	return append(out, b[end:]...), true
}

// Decode reads v1 JSON into an internal CRD. A spec read before is not
// read again: the rest is decoded with an empty spec in its place, and
// the remembered spec (shared, read only) put in. A spec read for the
// first time is remembered.
func (c Codec) Decode(data []byte, into storage.Object) error {
	crd, ok := into.(*apiextensions.CustomResourceDefinition)
	if !ok || c.memo == nil {
		return c.decode(data, into)
	}
	start, end, found := apiextensionsv1.SpecSpan(data)
	if !found {
		return c.decode(data, into)
	}
	specJSON := data[start:end]
	if c.decodeRemembered(data, start, end, crd) {
		return nil
	}
	if c.decodeWritten(data, start, end, crd) {
		return nil
	}
	// Another reader decoding the same spec whole right now (a create's
	// read-back and its watch event: decodes) remembers it for this one.
	if c.decodes != nil {
		wait, done := c.decodes.start(specJSON)
		if wait != nil {
			<-wait
			if c.decodeRemembered(data, start, end, crd) {
				return nil
			}
		} else {
			defer done()
		}
	}
	if err := c.decode(data, crd); err != nil {
		return err
	}
	// Two readers may still decode a spec at once (one that waited for a
	// decode that failed or was not remembered): the one remembered first
	// is shared by both.
	crd.Spec = c.memo.Remember(specJSON, crd.Spec)
	// A spec this codec has just written whole (a create's) is known to
	// write as read if it decoded to what was written.
	c.confirmWritten(specJSON, &crd.Spec)
	return nil
}

// decodeRemembered decodes data into crd without its spec,
// data[start:end], if the memo remembers that spec; false if it does not,
// or storedVersions is empty (it defaults from the spec: then data must be
// decoded whole).
func (c Codec) decodeRemembered(data []byte, start, end int, crd *apiextensions.CustomResourceDefinition) bool {
	spec, hit := c.memo.Lookup(data[start:end])
	if !hit || !c.decodeRest(data, start, end, crd) {
		return false
	}
	crd.Spec = spec
	return true
}

// decodeRest decodes data into crd with an empty spec in place of
// data[start:end], for a caller that has the spec already. False, with
// crd zero, on an error or an empty storedVersions (defaulted from the
// spec: then data must be decoded whole).
func (c Codec) decodeRest(data []byte, start, end int, crd *apiextensions.CustomResourceDefinition) bool {
	rest := specmemo.Splice(data, start, end, []byte("{}"))
	if err := c.decode(rest, crd); err != nil || len(crd.Status.StoredVersions) == 0 {
		*crd = apiextensions.CustomResourceDefinition{}
		return false
	}
	return true
}

// decodeWritten decodes data into crd without its spec, data[start:end],
// if that spec's JSON is one this codec has just written whole (a
// create's, an update of the spec: NoteWritten) for a spec that reads
// back as written (apiextensions.SpecWritesAsRead): the spec written is
// remembered as the one read, and its JSON as what the writer writes
// for it. Upstream decodes it back (etcd3 store's Create); for a
// real-size CRD that read-back was about 9 % of the server's CPU while
// 2,000 were created (docs/crd-memory.md, "Session 33"). False if the
// spec was not written just now, does not read back as written, or
// storedVersions is empty (as decodeRemembered).
func (c Codec) decodeWritten(data []byte, start, end int, crd *apiextensions.CustomResourceDefinition) bool {
	specJSON := data[start:end]
	written, ok := c.memo.TakeWrittenSpec(specJSON)
	if !ok || !apiextensions.SpecWritesAsRead(&written) || !c.decodeRest(data, start, end, crd) {
		return false
	}
	crd.Spec = c.memo.Remember(specJSON, written)
	if e := c.memo.Find(&crd.Spec); e != nil {
		e.State.CompareAndSwap(0, wireSame)
	}
	return true
}

// DecodeBody decodes a request body (apiextensions.k8s.io/v1 JSON) to an
// internal CRD as the handler's scope would — defaults, strict errors,
// conversion — when its spec is, byte for byte, one the codec read or
// wrote before: then the spec is not read again (it is the remembered
// one: the same spec, and no strict errors in it, since the codec's JSON
// has none). A controller's status write sends the stored spec back as
// it got it. ok is false for any other body, or an error: the caller
// decodes it the usual way.
func (c Codec) DecodeBody(body []byte, strict bool) (obj scheme.Object, strictErr *scheme.StrictDecodingError, ok bool) {
	if c.memo == nil {
		return nil, nil, false
	}
	start, end, found := apiextensionsv1.SpecSpan(body)
	if !found {
		return nil, nil, false
	}
	spec, hit := c.memo.Lookup(body[start:end])
	if !hit {
		return nil, nil, false
	}
	rest := specmemo.Splice(body, start, end, []byte("{}"))
	wire, _, err := c.codecs.Decode(rest, scheme.DecodeOptions{Strict: strict})
	if errors.As(err, &strictErr) {
		err = nil
	}
	v1obj, isV1 := wire.(*apiextensionsv1.CustomResourceDefinition)
	if err != nil || !isV1 || len(v1obj.Status.StoredVersions) == 0 {
		return nil, nil, false
	}
	crd := &apiextensions.CustomResourceDefinition{}
	if err := c.codecs.Scheme().Convert(v1obj, crd); err != nil {
		return nil, nil, false
	}
	crd.Spec = spec
	return crd, strictErr, true
}

func (c Codec) decode(data []byte, into storage.Object) error {
	v1obj := &apiextensionsv1.CustomResourceDefinition{}
	if err := c.codecs.DecodeInto(data, v1obj, scheme.DecodeOptions{}); err != nil {
		return err
	}
	return c.codecs.Scheme().Convert(v1obj, into)
}
