package registry_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage/bolt"
)

const holdFinalizer = "test.example.com/hold"

func TestStore_Create(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		in := widget("", "a", 1)
		in.Object["status"] = map[string]any{"ready": true}
		in.SetUID("client-chosen")
		out := mustCreate(t, s, "default", in)
		if ok, _ := regexp.MatchString(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, string(out.GetUID())); !ok {
			t.Errorf("uid = %q, want a fresh UUIDv4", out.GetUID())
		}
		if ct := out.GetCreationTimestamp(); !ct.Time.Equal(testClock) {
			t.Errorf("creationTimestamp = %v, want %v", ct, testClock)
		}
		if out.GetGeneration() != 1 || out.GetResourceVersion() == "" || out.GetNamespace() != "default" {
			t.Errorf("generation=%d rv=%q namespace=%q", out.GetGeneration(), out.GetResourceVersion(), out.GetNamespace())
		}
		if _, ok := out.Object["status"]; ok {
			t.Error("status was kept; the strategy drops it")
		}
		if got := mustGet(t, s, "default", "a"); got.GetResourceVersion() != out.GetResourceVersion() {
			t.Errorf("stored rv %s, returned %s", got.GetResourceVersion(), out.GetResourceVersion())
		}
	})
	t.Run("ErrAlreadyExists", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		mustCreate(t, s, "default", widget("", "a", 1))
		_, err := s.Create(nsCtx("default"), widget("", "a", 1), nil, nil)
		se := wantReason(t, err, metav1.StatusReasonAlreadyExists, 409)
		if se.ErrStatus.Message != `widgets.test.example.com "a" already exists` {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
	})
	t.Run("ErrBeingDeleted", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		w := widget("", "a", 1)
		w.SetFinalizers([]string{holdFinalizer})
		mustCreate(t, s, "default", w)
		if _, _, err := s.Delete(nsCtx("default"), "a", nil, nil); err != nil {
			t.Fatal(err)
		}
		_, err := s.Create(nsCtx("default"), widget("", "a", 1), nil, nil)
		se := wantReason(t, err, metav1.StatusReasonAlreadyExists, 409)
		if !strings.HasPrefix(se.ErrStatus.Message, "object is being deleted: ") {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
	})
	t.Run("ErrResourceVersionSet", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		w := widget("", "a", 1)
		w.SetResourceVersion("42")
		_, err := s.Create(nsCtx("default"), w, nil, nil)
		se := wantReason(t, err, metav1.StatusReasonBadRequest, 400)
		if se.ErrStatus.Message != "resourceVersion should not be set on objects to be created" {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		_, err := s.Create(nsCtx("default"), widget("", "a", -1), nil, nil)
		se := wantReason(t, err, metav1.StatusReasonInvalid, 422)
		d := se.ErrStatus.Details
		if d.Kind != "Widget" || d.Group != "test.example.com" || d.Name != "a" || len(d.Causes) != 1 || d.Causes[0].Field != "spec.size" {
			t.Errorf("details %+v", d)
		}
		if want := `Widget.test.example.com "a" is invalid: spec.size: Invalid value: -1: must be greater than or equal to 0`; se.ErrStatus.Message != want {
			t.Errorf("message %q, want %q", se.ErrStatus.Message, want)
		}
		if _, err := s.Get(nsCtx("default"), "a", nil); err == nil {
			t.Error("an invalid object was stored")
		}
	})
	t.Run("ErrNameRequired", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		_, err := s.Create(nsCtx("default"), widget("", "", 1), nil, nil)
		se := wantReason(t, err, metav1.StatusReasonInvalid, 422)
		if !strings.Contains(se.ErrStatus.Message, "metadata.name: Required value: name or generateName is required") {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
	})
	t.Run("ErrNameInvalid", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		_, err := s.Create(nsCtx("default"), widget("", "a%b", 1), nil, nil)
		se := wantReason(t, err, metav1.StatusReasonInvalid, 422)
		if !strings.Contains(se.ErrStatus.Message, "may not contain '%'") {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
	})
	t.Run("ErrNamespaceMismatch", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		_, err := s.Create(nsCtx("default"), widget("other", "a", 1), nil, nil)
		se := wantReason(t, err, metav1.StatusReasonBadRequest, 400)
		if se.ErrStatus.Message != "the namespace of the provided object does not match the namespace sent on the request" {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
	})
	t.Run("ErrNamespaceRequired", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		_, err := s.Create(context.Background(), widget("", "a", 1), nil, nil)
		wantReason(t, err, metav1.StatusReasonInvalid, 422)
	})
	t.Run("GenerateName", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		w := widget("", "", 1)
		w.SetGenerateName("w-")
		out := mustCreate(t, s, "default", w)
		if ok, _ := regexp.MatchString(`^w-[bcdfghjklmnpqrstvwxz2456789]{5}$`, out.GetName()); !ok {
			t.Errorf("name %q", out.GetName())
		}
	})
	t.Run("ErrGenerateNameConflict", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		st := fixedNameStrategy{s.CreateStrategy, new(int)}
		s.CreateStrategy = st
		w := widget("", "", 1)
		w.SetGenerateName("w-")
		mustCreate(t, s, "default", w)
		_, err := s.Create(nsCtx("default"), w, nil, nil)
		se := wantReason(t, err, metav1.StatusReasonAlreadyExists, 409)
		if !strings.Contains(se.ErrStatus.Message, "the server was not able to generate a unique name for the object") {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
		if *st.calls != 1+8 {
			t.Errorf("%d names generated, want 9 (one, then eight attempts)", *st.calls)
		}
	})
	t.Run("DryRun", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		out, err := s.Create(nsCtx("default"), widget("", "a", 1), nil, &metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			t.Fatal(err)
		}
		if m := out.(*unstructured.Unstructured); m.GetUID() == "" || m.GetGeneration() != 1 {
			t.Errorf("dry-run result %v", m.Object)
		}
		_, err = s.Get(nsCtx("default"), "a", nil)
		wantReason(t, err, metav1.StatusReasonNotFound, 404)

		mustCreate(t, s, "default", widget("", "a", 1))
		_, err = s.Create(nsCtx("default"), widget("", "a", 1), nil, &metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		wantReason(t, err, metav1.StatusReasonAlreadyExists, 409)
	})
	t.Run("ErrDryRunValue", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		_, err := s.Create(nsCtx("default"), widget("", "a", 1), nil, &metav1.CreateOptions{DryRun: []string{"Maybe"}})
		se := wantReason(t, err, metav1.StatusReasonInvalid, 422)
		if se.ErrStatus.Details.Kind != "CreateOptions" {
			t.Errorf("details %+v", se.ErrStatus.Details)
		}
	})
	t.Run("CreateValidation", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		deny := errors.New("denied by admission")
		var seen scheme.Object
		_, err := s.Create(nsCtx("default"), widget("", "a", 1), func(_ context.Context, obj scheme.Object) error {
			seen = obj
			return deny
		}, nil)
		if se := wantReason(t, err, metav1.StatusReasonInternalError, 500); !strings.Contains(se.ErrStatus.Message, deny.Error()) {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
		if seen.(*unstructured.Unstructured).GetUID() == "" {
			t.Error("validation saw an object without system fields")
		}
		_, err = s.Get(nsCtx("default"), "a", nil)
		wantReason(t, err, metav1.StatusReasonNotFound, 404)
	})
	t.Run("Warnings", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		rec := &warnings{}
		ctx := registry.WithWarningRecorder(nsCtx("default"), rec)
		if _, err := s.Create(ctx, widget("", "a", 1), nil, nil); err != nil {
			t.Fatal(err)
		}
		if len(rec.got) != 1 || rec.got[0] != "widgets are fun" {
			t.Errorf("warnings %q", rec.got)
		}
	})
}

type warnings struct{ got []string }

func (w *warnings) AddWarning(_, text string) { w.got = append(w.got, text) }

// fixedNameStrategy always generates the same name, and counts calls.
type fixedNameStrategy struct {
	registry.CreateStrategy
	calls *int
}

func (f fixedNameStrategy) GenerateName(base string) string {
	*f.calls++
	return base + "fixed"
}

func TestStore_Get(t *testing.T) {
	s := newWidgetStore(t, openDB(t), widgetStrategy{})
	created := mustCreate(t, s, "default", widget("", "a", 1))
	t.Run("OK", func(t *testing.T) {
		got := mustGet(t, s, "default", "a")
		if got.GetUID() != created.GetUID() {
			t.Errorf("uid %s, want %s", got.GetUID(), created.GetUID())
		}
	})
	t.Run("ResourceVersion", func(t *testing.T) {
		got, err := s.Get(nsCtx("default"), "a", &metav1.GetOptions{ResourceVersion: "0"})
		if err != nil || got.(*unstructured.Unstructured).GetName() != "a" {
			t.Fatalf("got %v, %v", got, err)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		_, err := s.Get(nsCtx("default"), "nope", nil)
		se := wantReason(t, err, metav1.StatusReasonNotFound, 404)
		if se.ErrStatus.Message != `widgets.test.example.com "nope" not found` || se.ErrStatus.Details.Kind != "widgets" {
			t.Errorf("status %+v", se.ErrStatus)
		}
	})
	t.Run("ErrOtherNamespace", func(t *testing.T) {
		_, err := s.Get(nsCtx("other"), "a", nil)
		wantReason(t, err, metav1.StatusReasonNotFound, 404)
	})
	t.Run("ErrNamespaceRequired", func(t *testing.T) {
		_, err := s.Get(context.Background(), "a", nil)
		se := wantReason(t, err, metav1.StatusReasonBadRequest, 400)
		if se.ErrStatus.Message != "Namespace parameter required." {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
	})
	t.Run("ErrNameInvalid", func(t *testing.T) {
		_, err := s.Get(nsCtx("default"), "..", nil)
		se := wantReason(t, err, metav1.StatusReasonBadRequest, 400)
		if se.ErrStatus.Message != `Name parameter invalid: "..": may not be '..'` {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
	})
	t.Run("ErrTooLargeResourceVersion", func(t *testing.T) {
		_, err := s.Get(nsCtx("default"), "a", &metav1.GetOptions{ResourceVersion: "999999"})
		if err == nil {
			t.Skip("storage serves a future resourceVersion on get")
		}
		se := wantReason(t, err, metav1.StatusReasonTimeout, 504)
		if c := se.ErrStatus.Details.Causes; len(c) != 1 || c[0].Type != metav1.CauseTypeResourceVersionTooLarge {
			t.Errorf("causes %+v", c)
		}
	})
}

func TestStore_Update(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		created := mustCreate(t, s, "default", widget("", "a", 1))
		in := created.DeepCopy()
		unstructured.SetNestedField(in.Object, int64(2), "spec", "size")
		in.SetCreationTimestamp(metav1.NewTime(testClock.Add(time.Hour))) // ignored
		in.SetUID("")                                                     // filled from the stored object
		out, created2, err := s.Update(nsCtx("default"), "a", put(in), nil, nil, false, nil)
		if err != nil || created2 {
			t.Fatalf("update: %v created=%v", err, created2)
		}
		u := out.(*unstructured.Unstructured)
		if u.GetGeneration() != 2 {
			t.Errorf("generation %d, want 2", u.GetGeneration())
		}
		if u.GetResourceVersion() == created.GetResourceVersion() {
			t.Error("resourceVersion did not change")
		}
		if u.GetUID() != created.GetUID() || !u.GetCreationTimestamp().Time.Equal(testClock) {
			t.Errorf("uid %s creationTimestamp %v changed", u.GetUID(), u.GetCreationTimestamp())
		}
	})
	t.Run("MetadataOnlyKeepsGeneration", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		mustCreate(t, s, "default", widget("", "a", 1))
		out, _, err := s.Update(nsCtx("default"), "a", mutate(func(u *unstructured.Unstructured) {
			u.SetLabels(map[string]string{"color": "red"})
			u.SetGeneration(7) // clients cannot set it
		}), nil, nil, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if g := out.(*unstructured.Unstructured).GetGeneration(); g != 1 {
			t.Errorf("generation %d, want 1", g)
		}
	})
	t.Run("NoOp", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		created := mustCreate(t, s, "default", widget("", "a", 1))
		out, _, err := s.Update(nsCtx("default"), "a", put(created), nil, nil, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if out.(*unstructured.Unstructured).GetResourceVersion() != created.GetResourceVersion() {
			t.Error("an update that changes nothing wrote a new revision")
		}
	})
	t.Run("ErrConflict", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		created := mustCreate(t, s, "default", widget("", "a", 1))
		if _, _, err := s.Update(nsCtx("default"), "a", mutate(func(u *unstructured.Unstructured) { u.SetLabels(map[string]string{"x": "y"}) }), nil, nil, false, nil); err != nil {
			t.Fatal(err)
		}
		stale := created.DeepCopy()
		unstructured.SetNestedField(stale.Object, int64(5), "spec", "size")
		_, _, err := s.Update(nsCtx("default"), "a", put(stale), nil, nil, false, nil)
		se := wantReason(t, err, metav1.StatusReasonConflict, 409)
		want := `Operation cannot be fulfilled on widgets.test.example.com "a": the object has been modified; please apply your changes to the latest version and try again`
		if se.ErrStatus.Message != want {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
	})
	t.Run("ErrResourceVersionRequired", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		mustCreate(t, s, "default", widget("", "a", 1))
		_, _, err := s.Update(nsCtx("default"), "a", put(widget("default", "a", 2)), nil, nil, false, nil)
		se := wantReason(t, err, metav1.StatusReasonInvalid, 422)
		want := `widgets.test.example.com "a" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`
		if se.ErrStatus.Message != want {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
	})
	t.Run("Unconditional", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{unconditional: true})
		mustCreate(t, s, "default", widget("", "a", 1))
		out, _, err := s.Update(nsCtx("default"), "a", put(widget("default", "a", 2)), nil, nil, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if size, _, _ := unstructured.NestedInt64(out.(*unstructured.Unstructured).Object, "spec", "size"); size != 2 {
			t.Errorf("size %d", size)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		_, _, err := s.Update(nsCtx("default"), "a", put(widget("default", "a", 2)), nil, nil, false, nil)
		wantReason(t, err, metav1.StatusReasonNotFound, 404)
	})
	t.Run("CreateOnUpdate", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{createOnUpdate: true})
		out, created, err := s.Update(nsCtx("default"), "a", put(widget("default", "a", 2)), nil, nil, false, nil)
		if err != nil || !created {
			t.Fatalf("err %v created %v", err, created)
		}
		if u := out.(*unstructured.Unstructured); u.GetUID() == "" || u.GetGeneration() != 1 {
			t.Errorf("created %v", u.Object)
		}
	})
	t.Run("ForceAllowCreate", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		_, created, err := s.Update(nsCtx("default"), "a", put(widget("default", "a", 2)), nil, nil, true, nil)
		if err != nil || !created {
			t.Fatalf("err %v created %v", err, created)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		mustCreate(t, s, "default", widget("", "a", 1))
		_, _, err := s.Update(nsCtx("default"), "a", mutate(func(u *unstructured.Unstructured) {
			unstructured.SetNestedField(u.Object, int64(-3), "spec", "size")
		}), nil, nil, false, nil)
		wantReason(t, err, metav1.StatusReasonInvalid, 422)
	})
	t.Run("ErrImmutableName", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		mustCreate(t, s, "default", widget("", "a", 1))
		_, _, err := s.Update(nsCtx("default"), "a", mutate(func(u *unstructured.Unstructured) { u.SetName("b") }), nil, nil, false, nil)
		se := wantReason(t, err, metav1.StatusReasonInvalid, 422)
		if !strings.Contains(se.ErrStatus.Message, "metadata.name: Invalid value: \"b\": field is immutable") {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
	})
	t.Run("ErrUIDPrecondition", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		created := mustCreate(t, s, "default", widget("", "a", 1))
		in := created.DeepCopy()
		in.SetUID("not-the-uid")
		_, _, err := s.Update(nsCtx("default"), "a", registry.DefaultUpdatedObjectInfo(in), nil, nil, false, nil)
		wantReason(t, err, metav1.StatusReasonConflict, 409)
	})
	t.Run("UpdateValidation", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		created := mustCreate(t, s, "default", widget("", "a", 1))
		deny := errors.New("denied")
		_, _, err := s.Update(nsCtx("default"), "a", put(created), nil, func(context.Context, scheme.Object, scheme.Object) error { return deny }, false, nil)
		// Errors that are not API errors are answered as 500s.
		se := wantReason(t, err, metav1.StatusReasonInternalError, 500)
		if !strings.Contains(se.ErrStatus.Message, "denied") {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
	})
	t.Run("DryRun", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		created := mustCreate(t, s, "default", widget("", "a", 1))
		out, _, err := s.Update(nsCtx("default"), "a", mutate(func(u *unstructured.Unstructured) {
			unstructured.SetNestedField(u.Object, int64(9), "spec", "size")
		}), nil, nil, false, &metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			t.Fatal(err)
		}
		if size, _, _ := unstructured.NestedInt64(out.(*unstructured.Unstructured).Object, "spec", "size"); size != 9 {
			t.Errorf("dry-run result size %d", size)
		}
		got := mustGet(t, s, "default", "a")
		if got.GetResourceVersion() != created.GetResourceVersion() {
			t.Error("dry-run update wrote")
		}
	})
	t.Run("StatusKept", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		mustCreate(t, s, "default", widget("", "a", 1))
		out, _, err := s.Update(nsCtx("default"), "a", mutate(func(u *unstructured.Unstructured) {
			u.Object["status"] = map[string]any{"ready": true}
		}), nil, nil, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := out.(*unstructured.Unstructured).Object["status"]; ok {
			t.Error("the strategy keeps the stored status, but status was written")
		}
	})
}

func TestStore_Delete(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		created := mustCreate(t, s, "default", widget("", "a", 1))
		out, deleted, err := s.Delete(nsCtx("default"), "a", nil, nil)
		if err != nil || !deleted {
			t.Fatalf("err %v deleted %v", err, deleted)
		}
		if out.(*unstructured.Unstructured).GetUID() != created.GetUID() {
			t.Error("delete did not return the deleted object")
		}
		_, err = s.Get(nsCtx("default"), "a", nil)
		wantReason(t, err, metav1.StatusReasonNotFound, 404)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		_, _, err := s.Delete(nsCtx("default"), "a", nil, nil)
		wantReason(t, err, metav1.StatusReasonNotFound, 404)
	})
	t.Run("ErrUIDPrecondition", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		mustCreate(t, s, "default", widget("", "a", 1))
		uid := metav1.UID("other")
		_, _, err := s.Delete(nsCtx("default"), "a", nil, &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
		se := wantReason(t, err, metav1.StatusReasonConflict, 409)
		if !strings.Contains(se.ErrStatus.Message, "the UID in the precondition (other) does not match the UID in record") {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
		mustGet(t, s, "default", "a")
	})
	t.Run("ErrResourceVersionPrecondition", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		mustCreate(t, s, "default", widget("", "a", 1))
		rv := "999"
		_, _, err := s.Delete(nsCtx("default"), "a", nil, &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &rv}})
		wantReason(t, err, metav1.StatusReasonConflict, 409)
	})
	t.Run("ResourceVersionPrecondition", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		created := mustCreate(t, s, "default", widget("", "a", 1))
		rv := created.GetResourceVersion()
		if _, deleted, err := s.Delete(nsCtx("default"), "a", nil, &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &rv}}); err != nil || !deleted {
			t.Fatalf("err %v deleted %v", err, deleted)
		}
	})
	t.Run("DeleteValidation", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		mustCreate(t, s, "default", widget("", "a", 1))
		deny := errors.New("denied")
		_, _, err := s.Delete(nsCtx("default"), "a", func(context.Context, scheme.Object) error { return deny }, nil)
		se := wantReason(t, err, metav1.StatusReasonInternalError, 500)
		if !strings.Contains(se.ErrStatus.Message, "denied") {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
		mustGet(t, s, "default", "a")
	})
	t.Run("ErrPropagationPolicy", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		mustCreate(t, s, "default", widget("", "a", 1))
		p := metav1.DeletionPropagation("Sideways")
		_, _, err := s.Delete(nsCtx("default"), "a", nil, &metav1.DeleteOptions{PropagationPolicy: &p})
		se := wantReason(t, err, metav1.StatusReasonInvalid, 422)
		if se.ErrStatus.Details.Kind != "DeleteOptions" {
			t.Errorf("details %+v", se.ErrStatus.Details)
		}
	})
	t.Run("PropagationPolicyIgnored", func(t *testing.T) {
		for _, p := range []metav1.DeletionPropagation{metav1.DeletePropagationOrphan, metav1.DeletePropagationBackground, metav1.DeletePropagationForeground} {
			s := newWidgetStore(t, openDB(t), widgetStrategy{})
			mustCreate(t, s, "default", widget("", "a", 1))
			out, deleted, err := s.Delete(nsCtx("default"), "a", nil, &metav1.DeleteOptions{PropagationPolicy: &p})
			if err != nil || !deleted {
				t.Fatalf("%s: err %v deleted %v", p, err, deleted)
			}
			if f := out.(*unstructured.Unstructured).GetFinalizers(); len(f) != 0 {
				t.Errorf("%s: finalizers %v added", p, f)
			}
		}
	})
	t.Run("Finalizers", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		w := widget("", "a", 1)
		w.SetFinalizers([]string{holdFinalizer})
		mustCreate(t, s, "default", w)

		out, deleted, err := s.Delete(nsCtx("default"), "a", nil, nil)
		if err != nil || deleted {
			t.Fatalf("first delete: err %v deleted %v", err, deleted)
		}
		u := out.(*unstructured.Unstructured)
		if dt := u.GetDeletionTimestamp(); dt == nil || !dt.Time.Equal(testClock) {
			t.Errorf("deletionTimestamp %v", dt)
		}
		if g := u.GetDeletionGracePeriodSeconds(); g == nil || *g != 0 {
			t.Errorf("deletionGracePeriodSeconds %v", g)
		}
		if u.GetGeneration() != 2 {
			t.Errorf("generation %d, want 2 (bumped when deletion starts)", u.GetGeneration())
		}

		// Deleting again changes nothing.
		s.Clock = func() time.Time { return testClock.Add(time.Hour) }
		out2, deleted, err := s.Delete(nsCtx("default"), "a", nil, nil)
		if err != nil || deleted {
			t.Fatalf("second delete: err %v deleted %v", err, deleted)
		}
		if u2 := out2.(*unstructured.Unstructured); u2.GetResourceVersion() != u.GetResourceVersion() || !u2.GetDeletionTimestamp().Equal(u.GetDeletionTimestamp()) {
			t.Errorf("second delete rewrote the object: %v", u2.Object)
		}

		// No new finalizer while being deleted.
		_, _, err = s.Update(nsCtx("default"), "a", mutate(func(u *unstructured.Unstructured) {
			u.SetFinalizers([]string{holdFinalizer, "test.example.com/more"})
		}), nil, nil, false, nil)
		wantReason(t, err, metav1.StatusReasonInvalid, 422)

		// Deletion timestamp cannot be removed by an update.
		out3, _, err := s.Update(nsCtx("default"), "a", mutate(func(u *unstructured.Unstructured) {
			u.SetDeletionTimestamp(nil)
			u.SetLabels(map[string]string{"a": "b"})
		}), nil, nil, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if out3.(*unstructured.Unstructured).GetDeletionTimestamp() == nil {
			t.Error("an update removed deletionTimestamp")
		}

		// The update that removes the last finalizer deletes the object.
		if _, _, err := s.Update(nsCtx("default"), "a", mutate(func(u *unstructured.Unstructured) { u.SetFinalizers(nil) }), nil, nil, false, nil); err != nil {
			t.Fatal(err)
		}
		_, err = s.Get(nsCtx("default"), "a", nil)
		wantReason(t, err, metav1.StatusReasonNotFound, 404)
	})
	t.Run("DryRun", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		created := mustCreate(t, s, "default", widget("", "a", 1))
		dry := &metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}}
		if _, deleted, err := s.Delete(nsCtx("default"), "a", nil, dry); err != nil || !deleted {
			t.Fatalf("err %v deleted %v", err, deleted)
		}
		if got := mustGet(t, s, "default", "a"); got.GetResourceVersion() != created.GetResourceVersion() {
			t.Error("dry-run delete wrote")
		}

		w := widget("", "b", 1)
		w.SetFinalizers([]string{holdFinalizer})
		mustCreate(t, s, "default", w)
		out, deleted, err := s.Delete(nsCtx("default"), "b", nil, dry)
		if err != nil || deleted {
			t.Fatalf("err %v deleted %v", err, deleted)
		}
		if out.(*unstructured.Unstructured).GetDeletionTimestamp() == nil {
			t.Error("dry-run delete result has no deletionTimestamp")
		}
		if mustGet(t, s, "default", "b").GetDeletionTimestamp() != nil {
			t.Error("dry-run delete marked the stored object")
		}
	})
}

func TestStore_DeleteCollection(t *testing.T) {
	s := newWidgetStore(t, openDB(t), widgetStrategy{})
	for i := range 3 {
		w := widget("", fmt.Sprintf("w%d", i), 1)
		if i == 0 {
			w.SetLabels(map[string]string{"doomed": "yes"})
		}
		mustCreate(t, s, "a", w)
	}
	mustCreate(t, s, "b", widget("", "w9", 1))

	out, err := s.DeleteCollection(nsCtx("a"), nil, nil, &metav1.ListOptions{LabelSelector: "doomed=yes"})
	if err != nil {
		t.Fatal(err)
	}
	if items := out.(*unstructured.UnstructuredList).Items; len(items) != 1 || items[0].GetName() != "w0" {
		t.Fatalf("deleted %v", items)
	}
	if _, err := s.Get(nsCtx("a"), "w0", nil); err == nil {
		t.Error("w0 survived")
	}
	mustGet(t, s, "a", "w1")

	// Across namespaces: each object is deleted in its own.
	out, err = s.DeleteCollection(context.Background(), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(out.(*unstructured.UnstructuredList).Items); n != 3 {
		t.Errorf("deleted %d, want 3", n)
	}
	list, _ := s.List(context.Background(), nil)
	if n := len(list.(*unstructured.UnstructuredList).Items); n != 0 {
		t.Errorf("%d left", n)
	}
}

func TestStore_List(t *testing.T) {
	db := openDB(t)
	s := newWidgetStore(t, db, widgetStrategy{})
	for i := range 5 {
		w := widget("", fmt.Sprintf("w%d", i), int64(i))
		w.SetLabels(map[string]string{"parity": []string{"even", "odd"}[i%2]})
		mustCreate(t, s, "a", w)
	}
	mustCreate(t, s, "b", widget("", "w0", 0))

	names := func(t *testing.T, obj scheme.Object) []string {
		t.Helper()
		var out []string
		for _, it := range obj.(*unstructured.UnstructuredList).Items {
			out = append(out, it.GetNamespace()+"/"+it.GetName())
		}
		return out
	}
	list := func(t *testing.T, ns string, opts *metav1.ListOptions) (*unstructured.UnstructuredList, error) {
		t.Helper()
		out, err := s.List(nsCtx(ns), opts)
		if err != nil {
			return nil, err
		}
		return out.(*unstructured.UnstructuredList), nil
	}

	t.Run("AllNamespaces", func(t *testing.T) {
		l, err := list(t, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := names(t, l); strings.Join(got, ",") != "a/w0,a/w1,a/w2,a/w3,a/w4,b/w0" {
			t.Errorf("names %v", got)
		}
		if l.GetResourceVersion() == "" || l.GroupVersionKind().Kind != "WidgetList" {
			t.Errorf("list meta %v", l.Object)
		}
	})
	t.Run("Namespace", func(t *testing.T) {
		l, _ := list(t, "b", nil)
		if got := names(t, l); strings.Join(got, ",") != "b/w0" {
			t.Errorf("names %v", got)
		}
	})
	t.Run("LabelSelector", func(t *testing.T) {
		l, err := list(t, "a", &metav1.ListOptions{LabelSelector: "parity=odd"})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(t, l); strings.Join(got, ",") != "a/w1,a/w3" {
			t.Errorf("names %v", got)
		}
	})
	t.Run("FieldSelectorName", func(t *testing.T) {
		l, err := list(t, "", &metav1.ListOptions{FieldSelector: "metadata.name=w0"})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(t, l); strings.Join(got, ",") != "a/w0,b/w0" {
			t.Errorf("names %v", got)
		}
		l, _ = list(t, "a", &metav1.ListOptions{FieldSelector: "metadata.name=w3"})
		if got := names(t, l); strings.Join(got, ",") != "a/w3" {
			t.Errorf("names %v", got)
		}
	})
	t.Run("FieldSelectorNamespace", func(t *testing.T) {
		l, err := list(t, "", &metav1.ListOptions{FieldSelector: "metadata.namespace=b"})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(t, l); strings.Join(got, ",") != "b/w0" {
			t.Errorf("names %v", got)
		}
	})
	t.Run("ErrLabelSelector", func(t *testing.T) {
		_, err := list(t, "a", &metav1.ListOptions{LabelSelector: "a in (b"})
		wantReason(t, err, metav1.StatusReasonBadRequest, 400)
	})
	t.Run("ErrFieldSelector", func(t *testing.T) {
		_, err := list(t, "a", &metav1.ListOptions{FieldSelector: "nonsense"})
		wantReason(t, err, metav1.StatusReasonBadRequest, 400)
	})
	t.Run("ErrFieldLabel", func(t *testing.T) {
		s2 := *s
		s2.CheckFieldLabel = func(label string) error {
			if label != "metadata.name" {
				return fmt.Errorf("field label not supported: %s", label)
			}
			return nil
		}
		_, err := s2.List(nsCtx("a"), &metav1.ListOptions{FieldSelector: "metadata.name=w1,spec.size=3"})
		se := wantReason(t, err, metav1.StatusReasonBadRequest, 400)
		if se.ErrStatus.Message != "field label not supported: spec.size" {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
	})
	t.Run("Paging", func(t *testing.T) {
		p1, err := list(t, "a", &metav1.ListOptions{Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(t, p1); strings.Join(got, ",") != "a/w0,a/w1" || p1.GetContinue() == "" {
			t.Fatalf("page 1 %v continue %q", got, p1.GetContinue())
		}
		if r := p1.GetRemainingItemCount(); r == nil || *r != 3 {
			t.Errorf("remainingItemCount %v", r)
		}
		// A write between pages does not show in later pages.
		mustCreate(t, s, "a", widget("", "w5", 5))
		p2, err := list(t, "a", &metav1.ListOptions{Limit: 10, Continue: p1.GetContinue()})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(t, p2); strings.Join(got, ",") != "a/w2,a/w3,a/w4" || p2.GetContinue() != "" {
			t.Errorf("page 2 %v continue %q", got, p2.GetContinue())
		}
		if p2.GetResourceVersion() != p1.GetResourceVersion() {
			t.Errorf("page 2 read at %s, page 1 at %s", p2.GetResourceVersion(), p1.GetResourceVersion())
		}
		if _, _, err := s.Delete(nsCtx("a"), "w5", nil, nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrContinueWithResourceVersion", func(t *testing.T) {
		p1, _ := list(t, "a", &metav1.ListOptions{Limit: 2})
		_, err := list(t, "a", &metav1.ListOptions{Limit: 2, Continue: p1.GetContinue(), ResourceVersion: "5"})
		wantReason(t, err, metav1.StatusReasonBadRequest, 400)
	})
	t.Run("ErrMalformedContinue", func(t *testing.T) {
		_, err := list(t, "a", &metav1.ListOptions{Limit: 2, Continue: "garbage"})
		wantReason(t, err, metav1.StatusReasonBadRequest, 400)
	})
	t.Run("ErrListOptions", func(t *testing.T) {
		_, err := list(t, "a", &metav1.ListOptions{ResourceVersionMatch: metav1.ResourceVersionMatchExact})
		se := wantReason(t, err, metav1.StatusReasonInvalid, 422)
		if se.ErrStatus.Details.Kind != "ListOptions" || !strings.Contains(se.ErrStatus.Message, "resourceVersionMatch is forbidden unless resourceVersion is provided") {
			t.Errorf("status %+v", se.ErrStatus)
		}
	})
	t.Run("ErrTooLargeResourceVersion", func(t *testing.T) {
		_, err := list(t, "a", &metav1.ListOptions{ResourceVersion: "999999", ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan})
		se := wantReason(t, err, metav1.StatusReasonTimeout, 504)
		if !strings.HasPrefix(se.ErrStatus.Message, "Timeout: Too large resource version: 999999") {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
		if se.ErrStatus.Details.RetryAfterSeconds != 1 {
			t.Errorf("retryAfterSeconds %d", se.ErrStatus.Details.RetryAfterSeconds)
		}
	})
	t.Run("ExactResourceVersion", func(t *testing.T) {
		before, _ := list(t, "a", nil)
		mustCreate(t, s, "a", widget("", "w6", 6))
		old, err := list(t, "a", &metav1.ListOptions{ResourceVersion: before.GetResourceVersion(), ResourceVersionMatch: metav1.ResourceVersionMatchExact})
		if err != nil {
			t.Fatal(err)
		}
		if len(old.Items) != len(before.Items) {
			t.Errorf("exact list has %d items, want %d", len(old.Items), len(before.Items))
		}
		if _, _, err := s.Delete(nsCtx("a"), "w6", nil, nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ItemsAreCopies", func(t *testing.T) {
		l, _ := list(t, "a", nil)
		l.Items[0].SetLabels(map[string]string{"mutated": "yes"})
		l2, _ := list(t, "a", nil)
		if l2.Items[0].GetLabels()["mutated"] == "yes" {
			t.Error("a change to a listed item reached the store")
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		p1, _ := list(t, "a", &metav1.ListOptions{Limit: 1})
		before := p1.GetResourceVersion()
		mustCreate(t, s, "a", widget("", "w7", 7))
		rev, _ := db.CurrentRevision(context.Background())
		if err := db.Compact(context.Background(), rev); err != nil {
			t.Fatal(err)
		}
		_, err := list(t, "a", &metav1.ListOptions{ResourceVersion: before, ResourceVersionMatch: metav1.ResourceVersionMatchExact})
		se := wantReason(t, err, metav1.StatusReasonExpired, 410)
		if se.ErrStatus.Message != "The resourceVersion for the provided list is too old." {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
		_, err = list(t, "a", &metav1.ListOptions{Limit: 1, Continue: p1.GetContinue()})
		se = wantReason(t, err, metav1.StatusReasonExpired, 410)
		if !strings.HasPrefix(se.ErrStatus.Message, "The provided continue parameter is too old to display a consistent list result.") {
			t.Errorf("message %q", se.ErrStatus.Message)
		}
	})
}

// nextEvent returns the next event of w within a bounded wait.
func nextEvent(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("watch closed")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no watch event within 10s")
	}
	return watch.Event{}
}

func TestStore_Watch(t *testing.T) {
	t.Run("FromResourceVersion", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		created := mustCreate(t, s, "a", widget("", "w", 1))
		mustCreate(t, s, "a", widget("", "other", 1))
		w, err := s.Watch(nsCtx("a"), &metav1.ListOptions{ResourceVersion: created.GetResourceVersion(), FieldSelector: "metadata.name=w"})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		if _, _, err := s.Update(nsCtx("a"), "w", mutate(func(u *unstructured.Unstructured) { u.SetLabels(map[string]string{"x": "y"}) }), nil, nil, false, nil); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Delete(nsCtx("a"), "w", nil, nil); err != nil {
			t.Fatal(err)
		}
		for _, want := range []watch.EventType{watch.Modified, watch.Deleted} {
			ev := nextEvent(t, w)
			if ev.Type != want || ev.Object.(*unstructured.Unstructured).GetName() != "w" {
				t.Fatalf("event %s %v, want %s of w", ev.Type, ev.Object, want)
			}
		}
	})
	t.Run("LabelSelector", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		w, err := s.Watch(context.Background(), &metav1.ListOptions{LabelSelector: "keep=yes"})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		mustCreate(t, s, "a", widget("", "skip", 1))
		k := widget("", "keep", 1)
		k.SetLabels(map[string]string{"keep": "yes"})
		mustCreate(t, s, "b", k)
		ev := nextEvent(t, w)
		if ev.Type != watch.Added || ev.Object.(*unstructured.Unstructured).GetName() != "keep" {
			t.Fatalf("event %s %v", ev.Type, ev.Object)
		}
	})
	t.Run("SendInitialEvents", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		mustCreate(t, s, "a", widget("", "w", 1))
		yes := true
		w, err := s.Watch(nsCtx("a"), &metav1.ListOptions{SendInitialEvents: &yes, ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan, AllowWatchBookmarks: true})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		if ev := nextEvent(t, w); ev.Type != watch.Added {
			t.Fatalf("first event %s", ev.Type)
		}
		ev := nextEvent(t, w)
		m, _ := metav1.Accessor(ev.Object)
		if ev.Type != watch.Bookmark || m.GetAnnotations()[metav1.InitialEventsAnnotationKey] != "true" {
			t.Fatalf("second event %s %v", ev.Type, ev.Object)
		}
	})
	t.Run("ErrOptions", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		_, err := s.Watch(nsCtx("a"), &metav1.ListOptions{ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan})
		wantReason(t, err, metav1.StatusReasonInvalid, 422)
		yes := true
		_, err = s.Watch(nsCtx("a"), &metav1.ListOptions{SendInitialEvents: &yes})
		wantReason(t, err, metav1.StatusReasonInvalid, 422)
	})
	t.Run("ErrExpired", func(t *testing.T) {
		db := openDB(t)
		s := newWidgetStore(t, db, widgetStrategy{})
		first := mustCreate(t, s, "a", widget("", "w", 1))
		mustCreate(t, s, "a", widget("", "w2", 1))
		rev, _ := db.CurrentRevision(context.Background())
		if err := db.Compact(context.Background(), rev); err != nil {
			t.Fatal(err)
		}
		w, err := s.Watch(nsCtx("a"), &metav1.ListOptions{ResourceVersion: first.GetResourceVersion()})
		if err != nil {
			se := wantReason(t, err, metav1.StatusReasonExpired, 410)
			if !strings.HasPrefix(se.ErrStatus.Message, "too old resource version: ") {
				t.Errorf("message %q", se.ErrStatus.Message)
			}
			return
		}
		defer w.Stop()
		ev := nextEvent(t, w)
		st, ok := ev.Object.(*metav1.Status)
		if ev.Type != watch.Error || !ok || st.Code != 410 {
			t.Fatalf("event %s %v", ev.Type, ev.Object)
		}
	})
	t.Run("StopsWithContext", func(t *testing.T) {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		ctx, cancel := context.WithCancel(nsCtx("a"))
		w, err := s.Watch(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		cancel()
		select {
		case _, ok := <-w.ResultChan():
			for ok {
				_, ok = <-w.ResultChan()
			}
		case <-time.After(10 * time.Second):
			t.Fatal("watch still open 10s after its context ended")
		}
	})
}

// TestStore_ConcurrentUpdates has many writers increment one counter
// through Update: GuaranteedUpdate retries, so no increment is lost.
func TestStore_ConcurrentUpdates(t *testing.T) {
	s := newWidgetStore(t, openDB(t), widgetStrategy{})
	mustCreate(t, s, "a", widget("", "w", 0))
	const writers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				_, _, err := s.Update(nsCtx("a"), "w", mutate(func(u *unstructured.Unstructured) {
					n, _, _ := unstructured.NestedInt64(u.Object, "spec", "size")
					unstructured.SetNestedField(u.Object, n+1, "spec", "size")
				}), nil, nil, false, nil)
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got := mustGet(t, s, "a", "w")
	if n, _, _ := unstructured.NestedInt64(got.Object, "spec", "size"); n != writers*each {
		t.Errorf("size %d, want %d", n, writers*each)
	}
	if got.GetGeneration() != 1+writers*each {
		t.Errorf("generation %d, want %d", got.GetGeneration(), 1+writers*each)
	}
}

// TestStore_DeleteCollection_Workers deletes more objects than there are
// workers, across namespaces, while other writers update some of them:
// every object goes, each exactly once.
func TestStore_DeleteCollection_Workers(t *testing.T) {
	s := newWidgetStore(t, openDB(t), widgetStrategy{})
	const n = 100
	for i := range n {
		mustCreate(t, s, fmt.Sprintf("ns%d", i%3), widget("", fmt.Sprintf("w%03d", i), 1))
	}
	out, err := s.DeleteCollection(context.Background(), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, it := range out.(*unstructured.UnstructuredList).Items {
		k := it.GetNamespace() + "/" + it.GetName()
		if seen[k] {
			t.Errorf("%s listed twice", k)
		}
		seen[k] = true
	}
	if len(seen) != n {
		t.Errorf("deleted %d, want %d", len(seen), n)
	}
	list, _ := s.List(context.Background(), nil)
	if left := len(list.(*unstructured.UnstructuredList).Items); left != 0 {
		t.Errorf("%d left", left)
	}
}

// BenchmarkStore_DeleteCollection deletes 500 objects per iteration, with
// fsync on: the path a CRD's deletion takes for its instances (the
// finalizer's DeleteCollection), where the worker pool lets group commit
// share fsyncs.
func BenchmarkStore_DeleteCollection(b *testing.B) {
	db, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), bolt.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	s := newWidgetStore(b, db, widgetStrategy{})
	for b.Loop() {
		b.StopTimer()
		for i := range 500 {
			mustCreate(b, s, "a", widget("", fmt.Sprintf("w%03d", i), 1))
		}
		b.StartTimer()
		if _, err := s.DeleteCollection(context.Background(), nil, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestStore_List_ReadOnlyItems checks that List hands out storage's shared
// objects only under WithReadOnlyItems, copies otherwise.
func TestStore_List_ReadOnlyItems(t *testing.T) {
	s := newWidgetStore(t, openDB(t), widgetStrategy{})
	mustCreate(t, s, "a", widget("", "w", 1))
	first := func(ctx context.Context) map[string]any {
		t.Helper()
		l, err := s.List(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		return l.(*unstructured.UnstructuredList).Items[0].Object
	}
	ro := registry.WithReadOnlyItems(context.Background())
	if a, b := first(ro), first(ro); reflect.ValueOf(a).UnsafePointer() != reflect.ValueOf(b).UnsafePointer() {
		t.Error("WithReadOnlyItems: two lists got different objects, want storage's shared one")
	}
	a, b := first(context.Background()), first(context.Background())
	if reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() {
		t.Error("without WithReadOnlyItems two lists share an object")
	}
	a["spec"] = "changed"
	if first(context.Background())["spec"] == "changed" {
		t.Error("changing a listed copy changed storage's object")
	}
}

// BenchmarkStore_List lists 5,000 objects with copies (what List always
// did) and with storage's shared objects (WithReadOnlyItems, what the
// handler asks for when it only encodes them).
func BenchmarkStore_List(b *testing.B) {
	s := newWidgetStore(b, openDB(b), widgetStrategy{})
	for i := range 5000 {
		mustCreate(b, s, "a", widget("", fmt.Sprintf("w%04d", i), int64(i)))
	}
	for name, ctx := range map[string]context.Context{
		"copies": context.Background(),
		"shared": registry.WithReadOnlyItems(context.Background()),
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.List(ctx, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
