package customresourcedefinition_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/install"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/customresourcedefinition"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
)

const crontabCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              replicas: {type: integer, default: 1}
    subresources:
      status: {}
status:
  storedVersions: [v0]
  conditions:
  - type: Established
    status: "True"
    reason: Forged
`

type env struct {
	db     *bolt.DB
	scheme *scheme.Scheme
	rest   *customresourcedefinition.REST
	status *customresourcedefinition.StatusREST
}

var testClock = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

func newEnv(t *testing.T) *env {
	t.Helper()
	db, err := bolt.Open(filepath.Join(t.TempDir(), "test.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := scheme.NewScheme()
	install.Install(s)
	rest, status := customresourcedefinition.NewREST(db, s)
	rest.Clock = func() time.Time { return testClock }
	return &env{db: db, scheme: s, rest: rest, status: status}
}

// crd decodes a v1 CRD document into the internal type, as the handler does.
func (e *env) crd(t *testing.T, doc string) *apiextensions.CustomResourceDefinition {
	t.Helper()
	obj, err := scheme.NewCodecFactory(e.scheme).DecodeToVersion([]byte(doc), apiextensions.SchemeGroupVersion, scheme.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return obj.(*apiextensions.CustomResourceDefinition)
}

func (e *env) create(t *testing.T) *apiextensions.CustomResourceDefinition {
	t.Helper()
	out, err := e.rest.Create(context.Background(), e.crd(t, crontabCRD), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out.(*apiextensions.CustomResourceDefinition)
}

func (e *env) get(t *testing.T) *apiextensions.CustomResourceDefinition {
	t.Helper()
	out, err := e.rest.Get(context.Background(), "crontabs.stable.example.com", nil)
	if err != nil {
		t.Fatal(err)
	}
	return out.(*apiextensions.CustomResourceDefinition)
}

func change(fn func(crd *apiextensions.CustomResourceDefinition)) registry.UpdatedObjectInfo {
	return registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
		crd := old.DeepCopyObject().(*apiextensions.CustomResourceDefinition)
		fn(crd)
		return crd, nil
	})
}

func (e *env) update(t *testing.T, u registry.Updater, fn func(crd *apiextensions.CustomResourceDefinition)) (*apiextensions.CustomResourceDefinition, error) {
	t.Helper()
	out, _, err := u.Update(context.Background(), "crontabs.stable.example.com", change(fn), nil, nil, false, nil)
	if err != nil {
		return nil, err
	}
	return out.(*apiextensions.CustomResourceDefinition), nil
}

func condition(crd *apiextensions.CustomResourceDefinition, t apiextensions.CustomResourceDefinitionConditionType) *apiextensions.CustomResourceDefinitionCondition {
	for i := range crd.Status.Conditions {
		if crd.Status.Conditions[i].Type == t {
			return &crd.Status.Conditions[i]
		}
	}
	return nil
}

func TestREST_Create(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		e := newEnv(t)
		crd := e.create(t)
		if crd.Generation != 1 || crd.UID == "" || crd.ResourceVersion == "" {
			t.Errorf("meta %+v", crd.ObjectMeta)
		}
		if len(crd.Status.Conditions) != 0 {
			t.Errorf("client-set conditions kept: %+v", crd.Status.Conditions)
		}
		if got := strings.Join(crd.Status.StoredVersions, ","); got != "v1" {
			t.Errorf("storedVersions %q, want v1", got)
		}
		if len(crd.Finalizers) != 0 {
			t.Errorf("finalizers %v: upstream adds the cleanup finalizer on delete", crd.Finalizers)
		}
	})
	t.Run("StoredAsV1", func(t *testing.T) {
		e := newEnv(t)
		e.create(t)
		raw := e.db.ForResource(storage.ResourceConfig{
			Prefix:  customresourcedefinition.KeyPrefix,
			NewFunc: func() storage.Object { return &unstructured.Unstructured{} },
			Codec:   storage.JSONCodec{},
		})
		u := &unstructured.Unstructured{}
		if err := raw.Get(context.Background(), "/registry/apiextensions.k8s.io/customresourcedefinitions/crontabs.stable.example.com", storage.GetOptions{}, u); err != nil {
			t.Fatal(err)
		}
		if u.GetAPIVersion() != "apiextensions.k8s.io/v1" || u.GetKind() != "CustomResourceDefinition" {
			t.Errorf("stored as %s %s", u.GetAPIVersion(), u.GetKind())
		}
		if _, ok, _ := unstructured.NestedSlice(u.Object, "spec", "versions"); !ok {
			t.Errorf("stored object has no spec.versions: %v", u.Object)
		}
	})
	t.Run("ErrAlreadyExists", func(t *testing.T) {
		e := newEnv(t)
		e.create(t)
		_, err := e.rest.Create(context.Background(), e.crd(t, crontabCRD), nil, nil)
		if apierrors.ReasonForError(err) != metav1.StatusReasonAlreadyExists ||
			err.Error() != `customresourcedefinitions.apiextensions.k8s.io "crontabs.stable.example.com" already exists` {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrInvalidName", func(t *testing.T) {
		e := newEnv(t)
		_, err := e.rest.Create(context.Background(), e.crd(t, strings.Replace(crontabCRD, "name: crontabs.stable.example.com", "name: crons.stable.example.com", 1)), nil, nil)
		if apierrors.ReasonForError(err) != metav1.StatusReasonInvalid {
			t.Fatalf("err %v", err)
		}
		if !strings.HasPrefix(err.Error(), `CustomResourceDefinition.apiextensions.k8s.io "crons.stable.example.com" is invalid: metadata.name: Invalid value: "crons.stable.example.com": must be spec.names.plural+"."+spec.group`) {
			t.Errorf("message %q", err.Error())
		}
	})
}

// TestREST_InvalidDefaults checks that a schema default must fit its
// field: a wrong type or an unknown field is a 422, on create and on
// update (unless the stored CRD already had such a default: ratcheting).
func TestREST_InvalidDefaults(t *testing.T) {
	badType := strings.Replace(crontabCRD, "replicas: {type: integer, default: 1}", `replicas: {type: integer, default: "one"}`, 1)
	badFields := strings.Replace(crontabCRD, "cronSpec: {type: string}",
		"cronSpec: {type: string}\n              job: {type: object, properties: {image: {type: string}}, default: {image: x, extra: 1}}", 1)
	for name, c := range map[string]struct{ doc, field, detail string }{
		"WrongType":     {badType, "spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default", `Invalid value: "string":  in body must be of type integer: "string"`},
		"UnknownFields": {badFields, "spec.validation.openAPIV3Schema.properties[spec].properties[job].default", "must not have unknown fields"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			_, err := e.rest.Create(context.Background(), e.crd(t, c.doc), nil, nil)
			if apierrors.ReasonForError(err) != metav1.StatusReasonInvalid || !strings.Contains(err.Error(), c.field+": ") || !strings.Contains(err.Error(), c.detail) {
				t.Fatalf("create: %v", err)
			}
			e.create(t)
			bad := e.crd(t, c.doc)
			_, err = e.update(t, e.rest, func(crd *apiextensions.CustomResourceDefinition) { crd.Spec = bad.Spec })
			if apierrors.ReasonForError(err) != metav1.StatusReasonInvalid || !strings.Contains(err.Error(), c.field+": ") {
				t.Fatalf("update: %v", err)
			}
		})
	}
}

func TestREST_Update(t *testing.T) {
	t.Run("SpecBumpsGeneration", func(t *testing.T) {
		e := newEnv(t)
		e.create(t)
		crd, err := e.update(t, e.rest, func(crd *apiextensions.CustomResourceDefinition) {
			crd.Spec.Names.ShortNames = []string{"ct", "cts"}
		})
		if err != nil {
			t.Fatal(err)
		}
		if crd.Generation != 2 {
			t.Errorf("generation %d, want 2", crd.Generation)
		}
	})
	t.Run("LabelsKeepGeneration", func(t *testing.T) {
		e := newEnv(t)
		e.create(t)
		crd, err := e.update(t, e.rest, func(crd *apiextensions.CustomResourceDefinition) { crd.Labels = map[string]string{"a": "b"} })
		if err != nil {
			t.Fatal(err)
		}
		if crd.Generation != 1 {
			t.Errorf("generation %d, want 1", crd.Generation)
		}
	})
	t.Run("StatusKept", func(t *testing.T) {
		e := newEnv(t)
		e.create(t)
		crd, err := e.update(t, e.rest, func(crd *apiextensions.CustomResourceDefinition) {
			crd.Status.Conditions = []apiextensions.CustomResourceDefinitionCondition{{Type: apiextensions.Established, Status: apiextensions.ConditionTrue}}
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(crd.Status.Conditions) != 0 {
			t.Errorf("status written through the main endpoint: %+v", crd.Status)
		}
	})
	t.Run("NewStorageVersionIsStored", func(t *testing.T) {
		e := newEnv(t)
		e.create(t)
		crd, err := e.update(t, e.rest, func(crd *apiextensions.CustomResourceDefinition) {
			v2 := crd.Spec.Versions[0]
			v2.Name = "v2"
			crd.Spec.Versions[0].Storage = false
			crd.Spec.Versions = append(crd.Spec.Versions, v2)
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(crd.Status.StoredVersions, ","); got != "v1,v2" {
			t.Errorf("storedVersions %q, want v1,v2", got)
		}
	})
	t.Run("ErrConflict", func(t *testing.T) {
		e := newEnv(t)
		created := e.create(t)
		if _, err := e.update(t, e.rest, func(crd *apiextensions.CustomResourceDefinition) { crd.Labels = map[string]string{"a": "b"} }); err != nil {
			t.Fatal(err)
		}
		_, _, err := e.rest.Update(context.Background(), created.Name, registry.DefaultUpdatedObjectInfo(created), nil, nil, false, nil)
		if apierrors.ReasonForError(err) != metav1.StatusReasonConflict {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrImmutableGroup", func(t *testing.T) {
		e := newEnv(t)
		e.create(t)
		_, err := e.update(t, e.rest, func(crd *apiextensions.CustomResourceDefinition) { crd.Spec.Group = "other.example.com" })
		if apierrors.ReasonForError(err) != metav1.StatusReasonInvalid || !strings.Contains(err.Error(), "spec.group: Invalid value: \"other.example.com\": field is immutable") {
			t.Fatalf("err %v", err)
		}
	})
}

func TestStatusREST_Update(t *testing.T) {
	e := newEnv(t)
	e.create(t)
	crd, err := e.update(t, e.status, func(crd *apiextensions.CustomResourceDefinition) {
		crd.Status.Conditions = []apiextensions.CustomResourceDefinitionCondition{
			{Type: apiextensions.NamesAccepted, Status: apiextensions.ConditionTrue, Reason: "NoConflicts"},
			{Type: apiextensions.Established, Status: apiextensions.ConditionTrue, Reason: "InitialNamesAccepted"},
		}
		crd.Status.AcceptedNames = crd.Spec.Names
		crd.Spec.Names.ShortNames = []string{"changed"} // ignored
		crd.Labels = map[string]string{"ignored": "yes"}
	})
	if err != nil {
		t.Fatal(err)
	}
	if c := condition(crd, apiextensions.Established); c == nil || c.Status != apiextensions.ConditionTrue {
		t.Errorf("conditions %+v", crd.Status.Conditions)
	}
	if strings.Join(crd.Spec.Names.ShortNames, ",") != "ct" || len(crd.Labels) != 0 || crd.Generation != 1 {
		t.Errorf("/status changed more than status: %+v %+v", crd.Spec.Names, crd.ObjectMeta)
	}
	if got, err := e.status.Get(context.Background(), crd.Name, nil); err != nil || got.(*apiextensions.CustomResourceDefinition).Name != crd.Name {
		t.Errorf("status get: %v %v", got, err)
	}
}

func TestREST_Delete(t *testing.T) {
	t.Run("FinalizerFlow", func(t *testing.T) {
		e := newEnv(t)
		e.create(t)
		out, deleted, err := e.rest.Delete(context.Background(), "crontabs.stable.example.com", nil, nil)
		if err != nil || deleted {
			t.Fatalf("err %v deleted %v", err, deleted)
		}
		crd := out.(*apiextensions.CustomResourceDefinition)
		if crd.DeletionTimestamp == nil || !crd.DeletionTimestamp.Time.Equal(testClock) {
			t.Errorf("deletionTimestamp %v", crd.DeletionTimestamp)
		}
		if strings.Join(crd.Finalizers, ",") != apiextensions.CustomResourceCleanupFinalizer {
			t.Errorf("finalizers %v", crd.Finalizers)
		}
		if c := condition(crd, apiextensions.Terminating); c == nil || c.Status != apiextensions.ConditionTrue || c.Reason != "InstanceDeletionPending" {
			t.Errorf("Terminating condition %+v", c)
		}

		// Deleting again goes the generic way: still there, same
		// deletionTimestamp (upstream's markAsDeleting adds
		// deletionGracePeriodSeconds 0).
		e.rest.Clock = func() time.Time { return testClock.Add(time.Hour) }
		out, deleted, err = e.rest.Delete(context.Background(), "crontabs.stable.example.com", nil, nil)
		if err != nil || deleted {
			t.Fatalf("second delete: err %v deleted %v", err, deleted)
		}
		if again := out.(*apiextensions.CustomResourceDefinition); !again.DeletionTimestamp.Equal(crd.DeletionTimestamp) || len(again.Finalizers) != 1 {
			t.Errorf("second delete changed %+v", again.ObjectMeta)
		}

		// The finalizer controller removes the finalizer through /status:
		// the CRD goes.
		if _, err := e.update(t, e.status, func(crd *apiextensions.CustomResourceDefinition) { crd.Finalizers = nil }); err != nil {
			t.Fatal(err)
		}
		_, err = e.rest.Get(context.Background(), "crontabs.stable.example.com", nil)
		if apierrors.ReasonForError(err) != metav1.StatusReasonNotFound {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		e := newEnv(t)
		_, _, err := e.rest.Delete(context.Background(), "crontabs.stable.example.com", nil, nil)
		if apierrors.ReasonForError(err) != metav1.StatusReasonNotFound {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrUIDPrecondition", func(t *testing.T) {
		e := newEnv(t)
		e.create(t)
		uid := metav1.UID("other")
		_, _, err := e.rest.Delete(context.Background(), "crontabs.stable.example.com", nil, &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
		if apierrors.ReasonForError(err) != metav1.StatusReasonConflict || !strings.Contains(err.Error(), "Precondition failed: UID in precondition: other") {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("DryRun", func(t *testing.T) {
		e := newEnv(t)
		created := e.create(t)
		out, deleted, err := e.rest.Delete(context.Background(), "crontabs.stable.example.com", nil, &metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil || deleted || out.(*apiextensions.CustomResourceDefinition).DeletionTimestamp == nil {
			t.Fatalf("err %v deleted %v", err, deleted)
		}
		if got := e.get(t); got.ResourceVersion != created.ResourceVersion || got.DeletionTimestamp != nil {
			t.Error("dry-run delete wrote")
		}
	})
}

func TestREST_ListWatch(t *testing.T) {
	e := newEnv(t)
	w, err := e.rest.Watch(context.Background(), &metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	e.create(t)
	list, err := e.rest.List(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if l := list.(*apiextensions.CustomResourceDefinitionList); len(l.Items) != 1 || l.ResourceVersion == "" {
		t.Errorf("list %+v", l)
	}
	select {
	case ev := <-w.ResultChan():
		if ev.Type != watch.Added || ev.Object.(*apiextensions.CustomResourceDefinition).Name != "crontabs.stable.example.com" {
			t.Errorf("event %s %T", ev.Type, ev.Object)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no watch event")
	}
	if got := e.rest.ShortNames(); strings.Join(got, ",") != "crd,crds" {
		t.Errorf("short names %v", got)
	}
}
