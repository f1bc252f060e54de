package apitest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

// Server is the in-memory API server. Its methods are safe for concurrent use.
type Server struct {
	// URL is the base URL of the server, "http://127.0.0.1:port".
	URL string

	// mu guards every field below.
	mu sync.Mutex
	// rv is the revision of the last change: the resourceVersion source.
	rv int64
	// objects holds the current objects.
	objects map[objectKey]map[string]any
	// events holds every change in revision order; events[i].rv == i+1.
	events []event
	// compacted is the oldest revision a watch may start from.
	compacted int64
	// changed is closed, and replaced, on each change: watch handlers wait on it.
	changed chan struct{}
	// requests records "METHOD /path?query" of every request, in order.
	requests []string
	// done is closed when the test ends; watch handlers then return.
	done chan struct{}
}

type objectKey struct{ group, resource, namespace, name string }

type event struct {
	rv  int64
	typ string
	key objectKey
	obj map[string]any
}

// NewServer starts a Server that stops when the test ends.
func NewServer(t testing.TB) *Server {
	s := &Server{
		objects: map[objectKey]map[string]any{},
		changed: make(chan struct{}),
		done:    make(chan struct{}),
	}
	ts := httptest.NewServer(s)
	s.URL = ts.URL
	t.Cleanup(func() {
		close(s.done)
		ts.Close()
	})
	return s
}

// Requests returns "METHOD /path?query" of every request so far.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Compact forgets history: a watch from an older resourceVersion gets an
// ERROR event with a 410 Expired Status, as from crdlab's server.
func (s *Server) Compact() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.compacted = s.rv
}

// request is what the URL names.
type request struct {
	group, version, namespace, resource, name, subresource string
}

func (r request) gr() scheme.GroupResource {
	return scheme.GroupResource{Group: r.group, Resource: r.resource}
}

func (r request) key(name string) objectKey {
	return objectKey{r.group, r.resource, r.namespace, name}
}

func parsePath(p string) (request, bool) {
	segs := strings.Split(strings.Trim(p, "/"), "/")
	var r request
	switch {
	case len(segs) >= 3 && segs[0] == "api":
		r.version, segs = segs[1], segs[2:]
	case len(segs) >= 4 && segs[0] == "apis":
		r.group, r.version, segs = segs[1], segs[2], segs[3:]
	default:
		return r, false
	}
	if len(segs) >= 3 && segs[0] == "namespaces" {
		r.namespace, segs = segs[1], segs[2:]
	}
	if len(segs) > 3 {
		return r, false
	}
	r.resource = segs[0]
	if len(segs) > 1 {
		r.name = segs[1]
	}
	if len(segs) > 2 {
		r.subresource = segs[2]
	}
	return r, true
}

// ServeHTTP routes by method and by what the path names.
func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, req.Method+" "+req.URL.RequestURI())
	s.mu.Unlock()

	r, ok := parsePath(req.URL.Path)
	if !ok {
		http.NotFound(w, req) // plain text, as a mux answers an unknown path
		return
	}
	q := req.URL.Query()
	switch {
	case req.Method == http.MethodGet && r.name == "" && isTrue(q.Get("watch")):
		s.watch(w, req, r)
	case req.Method == http.MethodGet && r.name == "":
		s.list(w, r, q)
	case req.Method == http.MethodGet:
		s.get(w, r)
	case req.Method == http.MethodPost && r.name == "":
		s.create(w, req, r)
	case req.Method == http.MethodPut && r.name != "":
		s.update(w, req, r)
	case req.Method == http.MethodPatch && r.name != "":
		s.patch(w, req, r)
	case req.Method == http.MethodDelete && r.name != "":
		s.delete(w, req, r)
	case req.Method == http.MethodDelete:
		s.deleteCollection(w, r, q)
	default:
		writeError(w, apierrors.NewMethodNotSupported(r.gr(), strings.ToLower(req.Method)))
	}
}

func isTrue(s string) bool { return s == "true" || s == "1" }

func writeJSON(w http.ResponseWriter, code int, obj any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(obj)
}

func writeError(w http.ResponseWriter, err *apierrors.StatusError) {
	writeJSON(w, int(err.ErrStatus.Code), err.ErrStatus)
}

func (s *Server) get(w http.ResponseWriter, r request) {
	s.mu.Lock()
	obj, ok := s.objects[r.key(r.name)]
	s.mu.Unlock()
	if !ok {
		writeError(w, apierrors.NewNotFound(r.gr(), r.name))
		return
	}
	writeJSON(w, http.StatusOK, obj)
}

// matches reports whether the object at k is in the collection r, filtered
// by the selectors of q.
func matches(k objectKey, obj map[string]any, r request, labelSelector, fieldSelector string) bool {
	if k.group != r.group || k.resource != r.resource || (r.namespace != "" && k.namespace != r.namespace) {
		return false
	}
	u := unstructured.Unstructured{Object: obj}
	labels := u.GetLabels()
	for _, req := range splitSelector(labelSelector) {
		name, want, hasValue := strings.Cut(req, "=")
		got, ok := labels[name]
		if !ok || (hasValue && got != want) {
			return false
		}
	}
	for _, req := range splitSelector(fieldSelector) {
		field, want, _ := strings.Cut(req, "=")
		switch field {
		case "metadata.name":
			if u.GetName() != want {
				return false
			}
		case "metadata.namespace":
			if u.GetNamespace() != want {
				return false
			}
		}
	}
	return true
}

func splitSelector(sel string) []string {
	if sel == "" {
		return nil
	}
	return strings.Split(sel, ",")
}

// sortedKeys returns the keys of the collection r, by namespace then name.
func (s *Server) sortedKeysLocked(r request, labelSelector, fieldSelector string) []objectKey {
	var keys []objectKey
	for k, obj := range s.objects {
		if matches(k, obj, r, labelSelector, fieldSelector) {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b objectKey) int {
		return strings.Compare(a.namespace+"/"+a.name, b.namespace+"/"+b.name)
	})
	return keys
}

func (s *Server) list(w http.ResponseWriter, r request, q map[string][]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	items := []any{}
	kind := ""
	for _, k := range s.sortedKeysLocked(r, first(q["labelSelector"]), first(q["fieldSelector"])) {
		obj := s.objects[k]
		items = append(items, obj)
		kind, _ = obj["kind"].(string)
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"apiVersion": scheme.GroupVersion{Group: r.group, Version: r.version}.String(),
		"kind":       kind + "List",
		"metadata":   map[string]any{"resourceVersion": strconv.FormatInt(s.rv, 10)},
		"items":      items,
	})
}

func first(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

// readObject decodes the request body as a JSON object.
func readObject(req *http.Request) (map[string]any, *apierrors.StatusError) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	obj, err := unstructured.DecodeJSONObject(body)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the body of the request could not be decoded: %v", err))
	}
	return obj, nil
}

// recordLocked stores obj (nil: deletes) at k as revision rv+1 and wakes
// the watchers.
func (s *Server) recordLocked(typ string, k objectKey, obj map[string]any) {
	s.rv++
	rv := strconv.FormatInt(s.rv, 10)
	_ = unstructured.SetNestedField(obj, rv, "metadata", "resourceVersion")
	if typ == "DELETED" {
		delete(s.objects, k)
	} else {
		s.objects[k] = obj
	}
	s.events = append(s.events, event{rv: s.rv, typ: typ, key: k, obj: deepcopy.CopyJSON(obj).(map[string]any)})
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Server) create(w http.ResponseWriter, req *http.Request, r request) {
	obj, serr := readObject(req)
	if serr != nil {
		writeError(w, serr)
		return
	}
	u := &unstructured.Unstructured{Object: obj}
	if ns := u.GetNamespace(); ns != "" && ns != r.namespace {
		writeError(w, apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request"))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if u.GetName() == "" && u.GetGenerateName() != "" {
		u.SetName(u.GetGenerateName() + strconv.FormatInt(s.rv+1, 36))
	}
	if u.GetName() == "" {
		writeError(w, apierrors.NewInvalid(u.GroupVersionKind().GroupKind(), "",
			[]metav1.StatusCause{{Type: metav1.CauseTypeFieldValueRequired, Field: "metadata.name", Message: "Required value: name or generateName is required"}}))
		return
	}
	k := r.key(u.GetName())
	if _, exists := s.objects[k]; exists {
		writeError(w, apierrors.NewAlreadyExists(r.gr(), u.GetName()))
		return
	}
	if r.namespace != "" {
		u.SetNamespace(r.namespace)
	}
	u.SetUID(metav1.UID(fmt.Sprintf("uid-%d", s.rv+1)))
	u.SetGeneration(1)
	u.SetCreationTimestamp(metav1.Time{Time: time.Now().UTC()})
	s.recordLocked("ADDED", k, obj)
	writeJSON(w, http.StatusCreated, obj)
}

// checkUpdate returns the current object at k, or the error for an update
// from obj: not found, or a stale resourceVersion.
func (s *Server) checkUpdateLocked(r request, obj map[string]any) (map[string]any, *apierrors.StatusError) {
	old, ok := s.objects[r.key(r.name)]
	if !ok {
		return nil, apierrors.NewNotFound(r.gr(), r.name)
	}
	u := unstructured.Unstructured{Object: obj}
	if rv := u.GetResourceVersion(); rv != "" && rv != (&unstructured.Unstructured{Object: old}).GetResourceVersion() {
		return nil, apierrors.NewConflict(r.gr(), r.name, fmt.Errorf("%s", apierrors.OptimisticLockErrorMsg))
	}
	return old, nil
}

// merge returns the object an update stores: with the status subresource,
// the main resource keeps the old status and /status keeps all but status.
func merge(old, updated map[string]any, subresource string) map[string]any {
	out := deepcopy.CopyJSON(old).(map[string]any)
	if subresource == "status" {
		if st, ok := updated["status"]; ok {
			out["status"] = st
		} else {
			delete(out, "status")
		}
		return out
	}
	meta, _ := out["metadata"].(map[string]any)
	newMeta, _ := updated["metadata"].(map[string]any)
	for _, f := range []string{"labels", "annotations", "finalizers", "ownerReferences"} {
		if v, ok := newMeta[f]; ok {
			meta[f] = v
		} else {
			delete(meta, f)
		}
	}
	for k, v := range updated {
		if k != "status" && k != "metadata" {
			out[k] = v
		}
	}
	for k := range out {
		if _, ok := updated[k]; !ok && k != "status" && k != "metadata" {
			delete(out, k)
		}
	}
	if !reflect.DeepEqual(old["spec"], out["spec"]) {
		u := unstructured.Unstructured{Object: out}
		u.SetGeneration(u.GetGeneration() + 1)
	}
	return out
}

func (s *Server) update(w http.ResponseWriter, req *http.Request, r request) {
	obj, serr := readObject(req)
	if serr != nil {
		writeError(w, serr)
		return
	}
	if name := (&unstructured.Unstructured{Object: obj}).GetName(); name != r.name {
		writeError(w, apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", name, r.name)))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, serr := s.checkUpdateLocked(r, obj)
	if serr != nil {
		writeError(w, serr)
		return
	}
	s.storeUpdateLocked(w, r, merge(old, obj, r.subresource))
}

// storeUpdateLocked stores an updated object; an object being deleted whose
// last finalizer went is deleted.
func (s *Server) storeUpdateLocked(w http.ResponseWriter, r request, obj map[string]any) {
	u := &unstructured.Unstructured{Object: obj}
	if u.GetDeletionTimestamp() != nil && len(u.GetFinalizers()) == 0 {
		s.recordLocked("DELETED", r.key(r.name), obj)
	} else {
		s.recordLocked("MODIFIED", r.key(r.name), obj)
	}
	writeJSON(w, http.StatusOK, obj)
}

func (s *Server) patch(w http.ResponseWriter, req *http.Request, r request) {
	if ct := req.Header.Get("Content-Type"); ct != "application/merge-patch+json" {
		writeError(w, apierrors.NewUnsupportedMediaType(ct, []string{"application/merge-patch+json"}))
		return
	}
	patch, serr := readObject(req)
	if serr != nil {
		writeError(w, serr)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.objects[r.key(r.name)]
	if !ok {
		writeError(w, apierrors.NewNotFound(r.gr(), r.name))
		return
	}
	patched := mergePatch(deepcopy.CopyJSON(old), patch).(map[string]any)
	s.storeUpdateLocked(w, r, merge(old, patched, r.subresource))
}

// mergePatch applies a JSON merge patch (RFC 7386) to target.
func mergePatch(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
		} else {
			t[k] = mergePatch(t[k], v)
		}
	}
	return t
}

func (s *Server) delete(w http.ResponseWriter, req *http.Request, r request) {
	var opts metav1.DeleteOptions
	if body, _ := io.ReadAll(req.Body); len(body) > 0 {
		if err := json.Unmarshal(body, &opts); err != nil {
			writeError(w, apierrors.NewBadRequest(err.Error()))
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := r.key(r.name)
	obj, ok := s.objects[k]
	if !ok {
		writeError(w, apierrors.NewNotFound(r.gr(), r.name))
		return
	}
	u := &unstructured.Unstructured{Object: deepcopy.CopyJSON(obj).(map[string]any)}
	if p := opts.Preconditions; p != nil && p.ResourceVersion != nil && *p.ResourceVersion != u.GetResourceVersion() {
		writeError(w, apierrors.NewConflict(r.gr(), r.name, fmt.Errorf(
			"the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified",
			*p.ResourceVersion, u.GetResourceVersion())))
		return
	}
	s.deleteLocked(k, u)
	writeJSON(w, http.StatusOK, u.Object)
}

// deleteLocked deletes the object at k, or marks it deleted while
// finalizers remain.
func (s *Server) deleteLocked(k objectKey, u *unstructured.Unstructured) {
	if len(u.GetFinalizers()) > 0 {
		if u.GetDeletionTimestamp() == nil {
			u.SetDeletionTimestamp(&metav1.Time{Time: time.Now().UTC()})
			s.recordLocked("MODIFIED", k, u.Object)
		}
		return
	}
	s.recordLocked("DELETED", k, u.Object)
}

func (s *Server) deleteCollection(w http.ResponseWriter, r request, q map[string][]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range s.sortedKeysLocked(r, first(q["labelSelector"]), first(q["fieldSelector"])) {
		s.deleteLocked(k, &unstructured.Unstructured{Object: deepcopy.CopyJSON(s.objects[k]).(map[string]any)})
	}
	writeJSON(w, http.StatusOK, metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusSuccess})
}

// watch streams the changes of the collection r: with no resourceVersion
// (or "0") first an ADDED event per current object, then every change; from
// resourceVersion N, the changes after N, or a 410 ERROR event if N was
// compacted. With allowWatchBookmarks, a BOOKMARK follows the initial events.
func (s *Server) watch(w http.ResponseWriter, req *http.Request, r request) {
	q := req.URL.Query()
	labelSelector, fieldSelector := q.Get("labelSelector"), q.Get("fieldSelector")
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	send := func(typ string, obj any) bool {
		if err := enc.Encode(map[string]any{"type": typ, "object": obj}); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}

	s.mu.Lock()
	var initial []map[string]any
	from, err := strconv.ParseInt(q.Get("resourceVersion"), 10, 64)
	switch {
	case err != nil || from == 0:
		from = s.rv
		for _, k := range s.sortedKeysLocked(r, labelSelector, fieldSelector) {
			initial = append(initial, deepcopy.CopyJSON(s.objects[k]).(map[string]any))
		}
	case from < s.compacted:
		status := apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", from, s.compacted)).ErrStatus
		s.mu.Unlock()
		send("ERROR", status)
		return
	}
	bookmarkRV := strconv.FormatInt(from, 10)
	s.mu.Unlock()

	// The client's Watch returns once it has the headers, so they go out
	// only after the watch has its starting point, as from crdlab's server
	// (its storage watch starts before serveWatch writes them): a write the
	// client makes after Watch returns is a change after the start, never
	// part of the initial state (which comes in key order, not revision
	// order).
	w.WriteHeader(http.StatusOK)
	if flusher != nil {
		flusher.Flush()
	}

	for _, obj := range initial {
		if !send("ADDED", obj) {
			return
		}
	}
	if isTrue(q.Get("allowWatchBookmarks")) {
		bookmark := map[string]any{"metadata": map[string]any{"resourceVersion": bookmarkRV}}
		if len(initial) > 0 {
			bookmark["apiVersion"], bookmark["kind"] = initial[0]["apiVersion"], initial[0]["kind"]
		}
		if !send("BOOKMARK", bookmark) {
			return
		}
	}
	for {
		s.mu.Lock()
		var pending []event
		for _, ev := range s.events[from:] {
			if matches(ev.key, ev.obj, r, labelSelector, fieldSelector) {
				pending = append(pending, ev)
			}
		}
		from = s.rv
		changed := s.changed
		s.mu.Unlock()
		for _, ev := range pending {
			if !send(ev.typ, ev.obj) {
				return
			}
		}
		select {
		case <-changed:
		case <-req.Context().Done():
			return
		case <-s.done:
			return
		}
	}
}
