package endpoints

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler/admission"
	"github.com/crdlab/crdlab/handler/negotiation"
	"github.com/crdlab/crdlab/handler/protobuf"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/machinery/strategicpatch"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
)

// RequestScope is everything the generic verb handlers need to serve one
// resource or subresource in one version: the REST storage to call, how to
// turn a request body into the object that storage wants and a stored
// object into what goes on the wire, how to print a Table, and the
// server's settings the handlers read. A scope is built once per resource
// and version and shared by its requests; nothing changes it after.
//
// Mirrors k8s.io/apiserver/pkg/endpoints/handlers.RequestScope.
type RequestScope struct {
	// Resource is the URL's group, version and plural.
	Resource scheme.GroupVersionResource
	// Subresource is "", "status" or "scale".
	Subresource string
	// Kind is the kind of the objects on the wire in this version (for
	// /scale, autoscaling/v1 Scale).
	Kind scheme.GroupVersionKind
	// ListKind is the kind of lists on the wire ("CronTabList").
	ListKind string
	// Namespaced says whether objects live in namespaces.
	Namespaced bool
	// Storage is the REST storage; a verb is served iff it implements the
	// verb's interface of package registry.
	Storage registry.Storage

	// Decode turns a request body (JSON) into the object storage wants.
	// It checks apiVersion and kind against the URL's and applies what the
	// version's schema says (pruning, defaulting, validation). With strict
	// (fieldValidation Warn or Strict) it also reports what strict
	// decoding finds — unknown fields, repeated keys — or nil.
	Decode func(ctx context.Context, body []byte, strict bool) (obj scheme.Object, strictErr *scheme.StrictDecodingError, err error)
	// DecodeObject, if set, is Decode(ctx, body, false) for an object the
	// server built itself (a server-side apply's merged object), given as
	// m, what unstructured.DecodeJSONObject returns for body, so that body
	// need not be written only to be read back; it may keep m. ok false
	// means it cannot tell without body: Decode is called.
	DecodeObject func(ctx context.Context, m map[string]any) (obj scheme.Object, ok bool, err error)
	// Encode turns an object from storage into the object on the wire
	// (apiVersion/kind of this version, read-time defaulting).
	Encode func(obj scheme.Object) (scheme.Object, error)
	// EncodeOwned, if set, is Encode for an object the caller owns and
	// lets it be changed: what a registry call returned. Watch events are
	// shared between watchers and always go through Encode.
	EncodeOwned func(obj scheme.Object) (scheme.Object, error)
	// EncodeShared, if set, encodes an object others share without
	// changing it, and says whether it could (reused): then a list may
	// ask the registry for storage's shared objects instead of copies
	// (registry.WithReadOnlyItems).
	EncodeShared func(obj scheme.Object) (out scheme.Object, reused bool, err error)
	// MetadataAsStored says an object from storage has the metadata of
	// the object Encode makes of it: a metadata-only answer
	// (PartialObjectMetadataList) is read from storage's objects without
	// Encode. True for built-in kinds, whose conversions between versions
	// copy ObjectMeta, and for custom resources under the None conversion
	// strategy, the only one served (upstream's conversion webhook may
	// change labels and annotations).
	MetadataAsStored bool
	// ReadsAsStored and EncodeStored, if set, let a list in plain JSON
	// write storage's bytes (registry.WithEncodedItems, an
	// *registry.EncodedList): ReadsAsStored says reading changes nothing
	// in an object stored in this version but its resourceVersion (no
	// read-time defaults), and EncodeStored appends one listed object's
	// JSON — as Encode and AppendJSON would write it, byte for byte.
	ReadsAsStored func() bool
	EncodeStored  func(dst []byte, o registry.StoredJSON) ([]byte, error)
	// DecodeStored, if set, decodes one listed object's stored JSON as
	// storage would, its resourceVersion set. With MetadataAsStored, a
	// metadata-only list then takes storage's bytes too, and reads each
	// item's metadata out of them (metadataOfStored), decoding only an
	// object whose metadata cannot be cut out.
	DecodeStored func(o registry.StoredJSON) (scheme.Object, error)
	// AppendJSON, if set, appends to dst an object from storage as the
	// JSON Encode and the wire object's AppendJSON would write, byte for
	// byte, when it can do so faster (ok true; dst grown once, with room
	// for a few bytes more); else dst is unchanged and the caller encodes
	// it the usual way. Answers and watch events in plain JSON use it.
	AppendJSON func(dst []byte, obj scheme.Object) (json []byte, ok bool)
	// Table prints objects already encoded for the wire; nil uses the
	// default Name / Created At table.
	Table registry.TableConvertor
	// AllowCreateOnUpdate lets PUT create a missing object (false for
	// custom resources and CRDs, as upstream's strategies say).
	AllowCreateOnUpdate bool
	// Admit is the admission chain of the scope's writes (the server's
	// Config.Admission; nil: none), wrapped by the crdHandler's
	// forbidCreateAdmission for a terminating CRD (admit.go).
	Admit admission.Interface
	// Warnings are sent with every answer (deprecated versions).
	Warnings []string
	// FieldManager keeps the objects' metadata.managedFields and serves
	// server-side apply (fieldmanager.go); nil for a scope without them
	// (an apply is then a 415).
	FieldManager *FieldManager
	// StrategicMerge, if set, is the patch metadata of the Go type of
	// Kind: a strategic merge patch applies with it (built-in kinds).
	// Nil: a strategic merge patch is a 415, as upstream answers for
	// custom resources.
	StrategicMerge strategicpatch.LookupPatchMeta
	// FieldLabel, if set, maps the field selector keys of this version to
	// those the storage selects on (scheme.ConvertFieldLabel).
	FieldLabel func(label, value string) (string, string, error)

	// The server's: Tracer (nil: tracing off) gets the apply events and
	// rides in the request context; WatchWriteTimeout bounds each write
	// of a watch (DefaultWatchWriteTimeout; negative: no bound);
	// WatchLines, shared by every scope of a server, encodes a watch
	// event once for all its watchers (nil: each encodes its own).
	Tracer            *trace.Tracer
	WatchWriteTimeout time.Duration
	WatchLines        *WatchLines
}

func (s *RequestScope) groupResource() scheme.GroupResource {
	return s.Resource.GroupResource()
}

// namespaceFor returns the namespace the request works in: the URL's for
// namespaced resources, "" for cluster-scoped ones.
func (s *RequestScope) namespaceFor(urlNamespace string) string {
	if !s.Namespaced {
		return ""
	}
	return urlNamespace
}

// readBody reads the whole request body. The size limit is enforced by
// the filter chain (an oversized read fails with *http.MaxBytesError,
// answered as 413).
//
// A body that says its length is read into a buffer of that size (plus
// one byte, to see the end), not grown from 512 bytes as io.ReadAll does:
// for a real-size CRD (265 KiB) that was ten buffers and twice the
// bytes. Only lengths up to maxPresizedBody are trusted this far (the
// chain's WithMaxRequestBody refuses larger ones before they get here).
func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	defer r.Body.Close()
	n := r.ContentLength
	if n <= 0 || n > maxPresizedBody {
		return io.ReadAll(r.Body)
	}
	b := make([]byte, 0, n+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // longer than it said
		}
		m, err := r.Body.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// maxPresizedBody is the largest Content-Length readBody allocates for
// up front: upstream's limit of a request body (3 MiB) and some.
const maxPresizedBody = 4 << 20

// bodyAsJSON returns the body of a create, update or delete as JSON,
// converting YAML (Content-Type application/yaml) and protobuf
// (application/vnd.kubernetes.protobuf, which client-go's typed
// apiextensions clientset sends for CRDs and DeleteOptions). Other content
// types, and protobuf of other kinds, are 415.
func bodyAsJSON(r *http.Request, body []byte) ([]byte, error) {
	switch ct := negotiation.ContentTypeOf(r.Header.Get("Content-Type")); ct {
	case "", negotiation.MediaTypeJSON, "*/*":
		return body, nil
	case negotiation.MediaTypeYAML:
		j, err := scheme.ToJSON(body)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		return j, nil
	case protobuf.MediaType:
		j, err := protobuf.ToJSON(body)
		var unsupported *protobuf.UnsupportedKindError
		switch {
		case errors.As(err, &unsupported):
			e := apierrors.NewUnsupportedMediaType(ct, []string{negotiation.MediaTypeJSON, negotiation.MediaTypeYAML})
			e.ErrStatus.Message = err.Error()
			return nil, e
		case err != nil:
			return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding request body: %v", err))
		}
		return j, nil
	default:
		return nil, apierrors.NewUnsupportedMediaType(ct, []string{negotiation.MediaTypeJSON, negotiation.MediaTypeYAML})
	}
}

// CheckTypeMeta checks the apiVersion and kind a body names against what
// the URL serves. Missing values are errors, as upstream's decoders say.
func CheckTypeMeta(body []byte, want scheme.GroupVersionKind) error {
	gvk, err := scheme.Kind(body)
	if err != nil {
		return apierrors.NewBadRequest(err.Error())
	}
	return CheckKind(gvk, want)
}

// CheckKind is CheckTypeMeta of a body whose apiVersion and kind are
// already read.
func CheckKind(gvk, want scheme.GroupVersionKind) error {
	if gvk.GroupVersion() != want.GroupVersion() {
		return apierrors.NewBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)",
			gvk.GroupVersion().String(), want.GroupVersion().String()))
	}
	if gvk.Kind != want.Kind {
		return apierrors.NewBadRequest(fmt.Sprintf("the kind in the data (%s) does not match the expected kind (%s)", gvk.Kind, want.Kind))
	}
	return nil
}

// decodeError turns a JSON syntax or type error into a 400 BadRequest.
func decodeError(err error) error {
	if _, ok := err.(apierrors.APIStatus); ok {
		return err
	}
	return apierrors.NewBadRequest(fmt.Sprintf("error decoding request body: %v", err))
}

// matchURL makes a decoded body's namespace agree with the URL's (an empty
// one is filled in, a cluster-scoped object's is dropped) and, with name
// set (update, patch), checks that it names the URL's object.
func (s *RequestScope) matchURL(obj scheme.Object, namespace, name string) error {
	m, ok := metav1.Accessor(obj)
	if !ok {
		return nil
	}
	if name != "" {
		if err := checkName(m, name); err != nil {
			return err
		}
	}
	return registry.EnsureObjectNamespaceMatchesRequestNamespace(s.namespaceFor(namespace), m)
}

// checkName checks that an update's body names the object of the URL.
//
// Mirrors checkName in k8s.io/apiserver/pkg/endpoints/handlers/rest.go.
func checkName(obj metav1.Object, name string) error {
	if objName := obj.GetName(); objName != name {
		return apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", objName, name))
	}
	return nil
}

// listItems returns the items of a list object: UnstructuredList's, or
// the Items field of a typed list.
func listItems(list scheme.Object) ([]scheme.Object, error) {
	if ul, ok := list.(*unstructured.UnstructuredList); ok {
		out := make([]scheme.Object, len(ul.Items))
		for i := range ul.Items {
			out[i] = &ul.Items[i]
		}
		return out, nil
	}
	v := reflect.ValueOf(list)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%T is not a list", list)
	}
	items := v.FieldByName("Items")
	if !items.IsValid() || items.Kind() != reflect.Slice {
		return nil, fmt.Errorf("%T has no Items", list)
	}
	out := make([]scheme.Object, 0, items.Len())
	for i := 0; i < items.Len(); i++ {
		e := items.Index(i)
		if e.Kind() != reflect.Pointer {
			e = e.Addr()
		}
		obj, ok := e.Interface().(scheme.Object)
		if !ok {
			return nil, fmt.Errorf("item %d of %T is not an object", i, list)
		}
		out = append(out, obj)
	}
	return out, nil
}

// listMetaOf returns the ListMeta of a list object.
func listMetaOf(list scheme.Object) metav1.ListMeta {
	var lm metav1.ListMeta
	if l, ok := list.(metav1.ListInterface); ok {
		lm.ResourceVersion = l.GetResourceVersion()
		lm.Continue = l.GetContinue()
		lm.RemainingItemCount = l.GetRemainingItemCount()
	}
	return lm
}

// wireList is a list on the wire: apiVersion/kind of the URL's version,
// the list's metadata and the items already encoded.
type wireList struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        metav1.ListMeta `json:"metadata"`
	Items           []scheme.Object `json:"items"`
}

// AppendJSON writes the list as json.Marshal would, without its second
// pass over every item's JSON: the list's own fields through encoding/json,
// then the items, each through appendItemJSON.
func (l *wireList) AppendJSON(dst []byte) ([]byte, error) {
	dst, err := appendListHead(dst, l.TypeMeta, l.Metadata, len(l.Items))
	if err != nil {
		return dst, err
	}
	if l.Items == nil {
		return append(dst, `null}`...), nil
	}
	dst = append(dst, '[')
	for i, it := range l.Items {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = appendItemJSON(dst, it); err != nil {
			return dst, err
		}
	}
	return append(dst, "]}"...), nil
}

// appendListHead appends a list's JSON up to its items' value:
// {"kind":…,"apiVersion":…,"metadata":{…},"items": — for n items, it sizes
// a new dst at about a KiB an item.
func appendListHead(dst []byte, tm metav1.TypeMeta, lm metav1.ListMeta, n int) ([]byte, error) {
	head, err := json.Marshal(struct {
		metav1.TypeMeta `json:",inline"`
		Metadata        metav1.ListMeta `json:"metadata"`
	}{tm, lm})
	if err != nil {
		return dst, err
	}
	if dst == nil {
		dst = make([]byte, 0, len(head)+n*1024)
	}
	dst = append(dst, head[:len(head)-1]...) // without its closing brace
	return append(dst, `,"items":`...), nil
}

// appendItemJSON appends an item's JSON: through its own AppendJSON when it
// has one (custom resources do), else encoding/json.
func appendItemJSON(dst []byte, it scheme.Object) ([]byte, error) {
	if a, ok := it.(responsewriters.JSONAppender); ok {
		return a.AppendJSON(dst)
	}
	b, err := json.Marshal(it)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}

// listChunk is how much of a streamed list is gathered before a write.
const listChunk = 64 << 10

// streamList writes a list as JSON one item at a time: each item is
// encoded (through the scope's AppendJSON where it can, as a CRD's answers
// are; else converted to the URL's version, if needed) into a buffer that
// goes to the client every listChunk bytes and is then reused, so a list
// costs the server a chunk, not its whole answer — which a hundred-MB list
// used to cost four times over (the growing body, the body with its
// newline, and the timeout filter's copy). The bytes are exactly what
// AppendJSON writes, then a newline.
//
// Errors: before the first write (any list under listChunk) the client
// gets the error's Status; after it, the status line is sent, so the
// answer is cut instead (http.ErrAbortHandler: the connection is closed),
// which a client reads as a failed list, never as a shorter one. So is an
// answer whose request's context ends (its timeout) while it streams.
//
// Mirrors streamEncodeCollections in
// k8s.io/apimachinery/pkg/runtime/serializer/json/collections.go, which
// the crdHandler's JSON serializer turns on (StreamingCollectionsEncoding
// in customresource_handler.go).
func streamList(ctx context.Context, w http.ResponseWriter, s *RequestScope, opts negotiation.Options, code int, list scheme.Object, shared bool) {
	var (
		n          int
		appendItem func(dst []byte, i int) ([]byte, error)
		rest       func(context.Context, func(registry.StoredJSON) error) error
	)
	if el, ok := list.(*registry.EncodedList); ok {
		n, rest = len(el.Items), el.Rest
		appendItem = func(dst []byte, i int) ([]byte, error) { return s.EncodeStored(dst, el.Items[i]) }
	} else {
		items, err := listItems(list)
		if err != nil {
			responsewriters.WriteError(w, err)
			return
		}
		encode := s.encodeResult
		if shared {
			encode = func(obj scheme.Object) (scheme.Object, error) {
				out, _, err := s.EncodeShared(obj)
				return out, err
			}
		}
		n = len(items)
		appendItem = func(dst []byte, i int) ([]byte, error) {
			if s.AppendJSON != nil {
				if out, ok := s.AppendJSON(dst, items[i]); ok {
					return out, nil
				}
			}
			e, err := encode(items[i])
			if err != nil {
				return dst, err
			}
			return appendItemJSON(dst, e)
		}
	}
	buf := make([]byte, 0, listChunk+listChunk/4)
	buf, err := appendListHead(buf, metav1.TypeMeta{APIVersion: s.Kind.GroupVersion().String(), Kind: s.ListKind}, listMetaOf(list), n)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	buf = append(buf, '[')
	started := false
	send := func() error {
		if !started {
			started = true
			w.Header().Set("Content-Type", opts.ContentType())
			w.Header().Set("X-Content-Type-Options", "nosniff")
			w.WriteHeader(code)
		}
		_, err := w.Write(buf)
		buf = buf[:0]
		return err
	}
	// Each item is appended after a comma (but the first), then ended:
	// end sends the buffer once it holds listChunk bytes. After an error
	// the answer is over: the client has the error's Status, or its
	// connection cut.
	items := 0
	comma := func() {
		if items > 0 {
			buf = append(buf, ',')
		}
		items++
	}
	end := func(err error) error {
		if err != nil {
			if started {
				panic(http.ErrAbortHandler)
			}
			responsewriters.WriteError(w, err)
			return err
		}
		if len(buf) >= listChunk {
			if ctx.Err() != nil {
				// The request timed out, or its client is gone: the
				// timeout filter cuts what went out.
				panic(http.ErrAbortHandler)
			}
			if err := send(); err != nil {
				return err // the client is gone
			}
		}
		return nil
	}
	for i := range n {
		comma()
		var err error
		buf, err = appendItem(buf, i)
		if end(err) != nil {
			return
		}
	}
	// The items storage reads as they are written (registry.EncodedList.Rest):
	// each is appended before the next is read.
	if rest != nil {
		var endErr error
		err := rest(ctx, func(o registry.StoredJSON) error {
			comma()
			var err error
			buf, err = s.EncodeStored(buf, o)
			endErr = end(err)
			return endErr
		})
		if endErr != nil {
			return // end answered
		}
		if end(err) != nil {
			return
		}
	}
	buf = append(buf, "]}\n"...)
	_ = send()
}

// encodeResult encodes an object a registry call returned, which the
// handler owns: in place when the scope can, else through a copy.
func (s *RequestScope) encodeResult(obj scheme.Object) (scheme.Object, error) {
	if s.EncodeOwned != nil {
		return s.EncodeOwned(obj)
	}
	return s.Encode(obj)
}

// encodeList turns a list from storage into the list on the wire. With
// shared, its items are storage's shared objects (registry.WithReadOnlyItems)
// and are encoded without being changed.
func (s *RequestScope) encodeList(list scheme.Object, shared bool) (*wireList, []scheme.Object, error) {
	items, err := listItems(list)
	if err != nil {
		return nil, nil, err
	}
	out := s.newWireList(list, make([]scheme.Object, 0, len(items)))
	encode := s.encodeResult
	if shared {
		encode = func(obj scheme.Object) (scheme.Object, error) {
			out, _, err := s.EncodeShared(obj)
			return out, err
		}
	}
	for _, it := range items {
		e, err := encode(it)
		if err != nil {
			return nil, nil, err
		}
		out.Items = append(out.Items, e)
	}
	return out, out.Items, nil
}

// newWireList is the answer to list, in the scope's version, with items.
func (s *RequestScope) newWireList(list scheme.Object, items []scheme.Object) *wireList {
	return &wireList{
		TypeMeta: metav1.TypeMeta{APIVersion: s.Kind.GroupVersion().String(), Kind: s.ListKind},
		Metadata: listMetaOf(list),
		Items:    items,
	}
}

// listAsStored is encodeList without Encode: the list's items as storage
// gave them (for a metadata-only answer, MetadataAsStored), or — from
// storage's bytes (an *registry.EncodedList, metadataFromStored) — their
// metadata alone.
func (s *RequestScope) listAsStored(list scheme.Object) (*wireList, []scheme.Object, error) {
	var (
		items []scheme.Object
		err   error
	)
	if el, ok := list.(*registry.EncodedList); ok {
		items, err = s.metadataOfStored(el.Items)
	} else {
		items, err = listItems(list)
	}
	if err != nil {
		return nil, nil, err
	}
	return s.newWireList(list, items), items, nil
}

// metadataFromStored says a metadata-only list in opts may take storage's
// bytes (DecodeStored).
func (s *RequestScope) metadataFromStored(opts negotiation.Options) bool {
	return s.MetadataAsStored && s.DecodeStored != nil && opts.Convert != nil && *opts.Convert == negotiation.PartialObjectMetadataList
}

// metadataOfStored reads each stored object's metadata out of its bytes
// (registry.MetadataOf; storage cuts it out already when it can, under
// registry.WithEncodedMetadata): the JSON of its ObjectMeta, which the
// objects of a MetadataAsStored scope share with their wire form; an
// object whose metadata cannot be cut out is decoded whole (DecodeStored). The
// garbage collector's metadata list of 2,000 real-size CRDs decoded each
// one whole: about half of the CPU of a restart on them (docs/crd-memory.md,
// "Session 23").
func (s *RequestScope) metadataOfStored(stored []registry.StoredJSON) ([]scheme.Object, error) {
	items := make([]scheme.Object, 0, len(stored))
	for _, o := range stored {
		if meta, ok := registry.MetadataOf(o); ok {
			m := &metav1.PartialObjectMetadata{}
			err := json.Unmarshal(meta, &m.ObjectMeta)
			if err == nil {
				m.ResourceVersion = strconv.FormatInt(o.Rev, 10)
				items = append(items, m)
				continue
			}
			if o.Metadata { // the rest of the object is not at hand
				return nil, fmt.Errorf("reading the metadata stored at revision %d: %w", o.Rev, err)
			}
		}
		obj, err := s.DecodeStored(o)
		if err != nil {
			return nil, err
		}
		items = append(items, obj)
	}
	return items, nil
}

// marshalObject is json.Marshal for the objects of this package.
func marshalObject(obj any) ([]byte, error) { return json.Marshal(obj) }

// validateDryRun answers 400 unless every dryRun value is All.
func validateDryRun(dryRun []string) error {
	for _, d := range dryRun {
		if d != metav1.DryRunAll {
			return apierrors.NewBadRequest(fmt.Sprintf("Invalid dryRun value %q: supported values: %q", d, metav1.DryRunAll))
		}
	}
	return nil
}

// validateFieldValidation checks the fieldValidation parameter.
func validateFieldValidation(v string) error {
	switch v {
	case "", metav1.FieldValidationIgnore, metav1.FieldValidationWarn, metav1.FieldValidationStrict:
		return nil
	}
	return apierrors.NewBadRequest(fmt.Sprintf("invalid fieldValidation directive %q: supported values: %s",
		v, strings.Join([]string{metav1.FieldValidationIgnore, metav1.FieldValidationWarn, metav1.FieldValidationStrict}, ", ")))
}

// applyFieldValidation answers what strict decoding found as the
// fieldValidation directive says: Strict → 400 BadRequest naming every
// field, Warn (the default) → one Warning header per field, Ignore →
// nothing.
//
// Mirrors the field validation of k8s.io/apiserver/pkg/endpoints/handlers
// (create.go, update.go, patch.go) with upstream's messages.
func applyFieldValidation(w http.ResponseWriter, directive string, strictErr *scheme.StrictDecodingError) error {
	if strictErr == nil || directive == metav1.FieldValidationIgnore {
		return nil
	}
	if directive == metav1.FieldValidationStrict {
		return apierrors.NewBadRequest(strictErr.Error())
	}
	for _, m := range strictErr.Messages() {
		addWarning(w, m)
	}
	return nil
}

// addWarning adds an RFC 7234 warning header, as upstream's
// warning.AddWarning does: `299 - "message"`.
func addWarning(w http.ResponseWriter, msg string) {
	w.Header().Add("Warning", fmt.Sprintf("299 - %q", msg))
}
