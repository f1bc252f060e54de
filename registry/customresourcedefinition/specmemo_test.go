package customresourcedefinition

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/install"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage/bolt"
)

// memoEnv is a CRD REST over a real bbolt file, with a real-size CRD.
type memoEnv struct {
	rest   *REST
	status *StatusREST
	codec  Codec
	// plain is the codec without a memo: what a full decode and encode give.
	plain Codec
	name  string
	crd   *apiextensions.CustomResourceDefinition
}

func newMemoEnv(t *testing.T) *memoEnv {
	t.Helper()
	db, err := bolt.Open(filepath.Join(t.TempDir(), "test.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := scheme.NewScheme()
	install.Install(s)
	rest, status := NewREST(db, s)
	o := crdgen.Options{Bytes: 200 << 10, Versions: 2, Seed: 1}
	obj, err := scheme.NewCodecFactory(s).DecodeToVersion(crdgen.CRD(0, o), apiextensions.SchemeGroupVersion, scheme.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	codec := rest.codec
	return &memoEnv{rest: rest, status: status, codec: codec, plain: Codec{codecs: codec.codecs},
		name: crdgen.NamesOf(0, o).Name, crd: obj.(*apiextensions.CustomResourceDefinition)}
}

// checkShared fails t if a remembered spec no longer writes as the JSON it
// was remembered with: something changed a shared spec in place.
func (e *memoEnv) checkShared(t *testing.T) {
	t.Helper()
	n, changed, err := e.changedSpecs()
	switch {
	case err != nil:
		t.Fatal(err)
	case n == 0:
		t.Fatal("nothing remembered")
	case changed > 0:
		t.Errorf("%d of %d remembered specs were changed in place: they no longer write as they were read", changed, n)
	}
}

// changedSpecs counts the remembered specs and those that no longer write
// as the JSON they were remembered with.
func (e *memoEnv) changedSpecs() (n, changed int, err error) {
	entries := e.codec.memo.Entries()
	for _, en := range entries {
		b, err := e.plain.Encode(&apiextensions.CustomResourceDefinition{Spec: en.Spec,
			Status: apiextensions.CustomResourceDefinitionStatus{StoredVersions: []string{"x"}}})
		if err != nil {
			return 0, 0, err
		}
		start, end, ok := apiextensionsv1.SpecSpan(b)
		if !ok || !bytes.Equal(b[start:end], en.JSON) {
			changed++
		}
	}
	return len(entries), changed, nil
}

func (e *memoEnv) statusUpdate(t *testing.T, cond apiextensions.CustomResourceDefinitionConditionType) {
	t.Helper()
	_, _, err := e.status.Update(context.Background(), e.name, statusWrite(cond), nil, nil, false, nil)
	if err != nil {
		t.Fatal(err)
	}
}

// statusWrite adds a condition, as a controller's /status write.
func statusWrite(cond apiextensions.CustomResourceDefinitionConditionType) registry.UpdatedObjectInfo {
	return registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
		crd := old.DeepCopyObject().(*apiextensions.CustomResourceDefinition)
		crd.Status.Conditions = append(crd.Status.Conditions, apiextensions.CustomResourceDefinitionCondition{Type: cond, Status: apiextensions.ConditionTrue, Reason: "Test"})
		return crd, nil
	})
}

// removeFinalizers removes every finalizer, as the finalizer controller's
// /status write.
func removeFinalizers() registry.UpdatedObjectInfo {
	return registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
		crd := old.DeepCopyObject().(*apiextensions.CustomResourceDefinition)
		crd.Finalizers = nil
		return crd, nil
	})
}

// TestSpecMemo_SharedSpecsUnchanged runs every kind of CRD write through
// the REST storage — create, status writes, a spec change, a dry run, the
// delete with its finalizer and the finalizer's removal — with watchers
// and readers alongside, and checks after each that no remembered (shared)
// spec was changed in place, and that what the codec reads and writes
// with the memo is what it reads and writes without.
func TestSpecMemo_SharedSpecsUnchanged(t *testing.T) {
	e := newMemoEnv(t)
	ctx := context.Background()
	w, err := e.rest.Watch(ctx, &metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	var readers sync.WaitGroup
	readers.Go(func() { // a watcher reading every event's spec
		for ev := range w.ResultChan() {
			if crd, ok := ev.Object.(*apiextensions.CustomResourceDefinition); ok {
				_ = apiextensions.IsStoredVersion(crd, "x")
				_, _ = e.plain.Encode(crd)
			}
		}
	})

	if _, err := e.rest.Create(ctx, e.crd, nil, nil); err != nil {
		t.Fatal(err)
	}
	e.checkShared(t)
	e.statusUpdate(t, apiextensions.NamesAccepted)
	e.statusUpdate(t, apiextensions.Established)
	e.checkShared(t)
	if e.codec.memo.Stats().Hits == 0 {
		t.Errorf("status writes found no remembered spec")
	}

	// The stored value, read with and without the memo.
	got, err := e.rest.Get(ctx, e.name, nil)
	if err != nil {
		t.Fatal(err)
	}
	gotCRD := got.(*apiextensions.CustomResourceDefinition)
	data, err := e.plain.Encode(gotCRD)
	if err != nil {
		t.Fatal(err)
	}
	withMemo, err := e.codec.Encode(gotCRD)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, withMemo) {
		t.Errorf("Encode with a remembered spec wrote other bytes than without")
	}
	var full, memo apiextensions.CustomResourceDefinition
	if err := e.plain.Decode(data, &full); err != nil {
		t.Fatal(err)
	}
	hits := e.codec.memo.Stats().Hits
	if err := e.codec.Decode(data, &memo); err != nil {
		t.Fatal(err)
	}
	if e.codec.memo.Stats().Hits == hits {
		t.Errorf("Decode of a stored value did not use the remembered spec")
	}
	if !reflect.DeepEqual(full, memo) {
		t.Errorf("Decode with a remembered spec gave another object than without")
	}

	// A spec change (on a copy, as the strategies and patches do), a dry
	// run, then delete: the finalizer is added, then removed through
	// /status.
	if _, _, err := e.rest.Update(ctx, e.name, registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
		crd := old.DeepCopyObject().(*apiextensions.CustomResourceDefinition)
		crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Description = "changed"
		return crd, nil
	}), nil, nil, false, &metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}}); err != nil {
		t.Fatal(err)
	}
	e.checkShared(t)
	out, _, err := e.rest.Update(ctx, e.name, registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
		crd := old.DeepCopyObject().(*apiextensions.CustomResourceDefinition)
		crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Description = "changed"
		return crd, nil
	}), nil, nil, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := out.(*apiextensions.CustomResourceDefinition).Spec.Versions[0].Schema.OpenAPIV3Schema.Description; d != "changed" {
		t.Errorf("spec change not stored: description %q", d)
	}
	e.checkShared(t)
	if _, _, err := e.rest.Delete(ctx, e.name, nil, nil); err != nil {
		t.Fatal(err)
	}
	e.checkShared(t)
	if _, _, err := e.status.Update(ctx, e.name, registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
		crd := old.DeepCopyObject().(*apiextensions.CustomResourceDefinition)
		crd.Finalizers = nil
		return crd, nil
	}), nil, nil, false, nil); err != nil {
		t.Fatal(err)
	}
	e.checkShared(t)
	w.Stop()
	readers.Wait()
}

// TestSpecMemo_CheckFindsAChange: the check above fails when a shared
// spec is changed in place (what the rule forbids).
func TestSpecMemo_CheckFindsAChange(t *testing.T) {
	e := newMemoEnv(t)
	ctx := context.Background()
	if _, err := e.rest.Create(ctx, e.crd, nil, nil); err != nil {
		t.Fatal(err)
	}
	got, err := e.rest.Get(ctx, e.name, nil)
	if err != nil {
		t.Fatal(err)
	}
	got.(*apiextensions.CustomResourceDefinition).Spec.Versions[0].Schema.OpenAPIV3Schema.Description = "changed in place"
	n, changed, err := e.changedSpecs()
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 || changed != 1 {
		t.Errorf("a spec changed in place: %d of %d remembered specs found changed, want 1", changed, n)
	}
}

// TestCodec_DecodeBody: a request body whose spec the codec stored
// decodes, without reading its spec, to what the scope's full decode
// gives — strict errors included — and any other body is left to it.
func TestCodec_DecodeBody(t *testing.T) {
	e := newMemoEnv(t)
	ctx := context.Background()
	if _, err := e.rest.Create(ctx, e.crd, nil, nil); err != nil {
		t.Fatal(err)
	}
	got, err := e.rest.Get(ctx, e.name, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, err := e.plain.Encode(got.(*apiextensions.CustomResourceDefinition))
	if err != nil {
		t.Fatal(err)
	}
	full := func(body []byte) (scheme.Object, error) {
		wire, _, err := e.codec.codecs.Decode(body, scheme.DecodeOptions{Strict: true})
		var strictErr *scheme.StrictDecodingError
		if errors.As(err, &strictErr) {
			err = strictErr
		}
		if wire == nil {
			return nil, err
		}
		internal, cerr := e.codec.codecs.Scheme().ConvertToVersion(wire, apiextensions.SchemeGroupVersion)
		if cerr != nil {
			t.Fatal(cerr)
		}
		return internal, err
	}
	for _, tc := range []struct {
		name string
		body []byte
		hit  bool
	}{
		{"stored", body, true},
		{"unknown metadata field", bytes.Replace(body, []byte(`"metadata":{`), []byte(`"metadata":{"bogus":1,`), 1), true},
		{"status changed", replaceLast(body, `"status":{`, `"status":{"conditions":[{"type":"Established","status":"True","lastTransitionTime":null}],`), true},
		{"spec changed", bytes.Replace(body, []byte(`"spec":{`), []byte(`"spec":{"preserveUnknownFields":false,`), 1), false},
		{"no storedVersions", bytes.Replace(body, []byte(`"storedVersions":[`), []byte(`"x":[`), 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj, strictErr, ok := e.codec.DecodeBody(tc.body, true)
			if ok != tc.hit {
				t.Fatalf("DecodeBody ok = %v, want %v", ok, tc.hit)
			}
			if !ok {
				return
			}
			want, wantErr := full(tc.body)
			if !reflect.DeepEqual(obj, want) {
				t.Errorf("DecodeBody gave another object than the full decode")
			}
			if fmt.Sprint(strictErr) != fmt.Sprint(wantErr) {
				t.Errorf("strict errors %v, the full decode's %v", strictErr, wantErr)
			}
		})
	}
}

// replaceLast replaces the last old in b by new.
func replaceLast(b []byte, old, new string) []byte {
	i := bytes.LastIndex(b, []byte(old))
	return append(append(append([]byte(nil), b[:i]...), new...), b[i+len(old):]...)
}

// TestStatusStrategy_CopyForUpdate: a /status write's copy equals the
// CRD, shares its spec (no schema copied) and nothing else: changing the
// copy's metadata or status leaves the original alone. A field added to
// the CRD type must be thought about here.
func TestStatusStrategy_CopyForUpdate(t *testing.T) {
	e := newMemoEnv(t)
	crd := e.crd.DeepCopy()
	crd.Labels = map[string]string{"a": "b"}
	crd.Finalizers = []string{"f"}
	crd.Status.Conditions = []apiextensions.CustomResourceDefinitionCondition{{Type: apiextensions.Established, Status: apiextensions.ConditionTrue}}
	crd.Status.StoredVersions = []string{"v1"}
	if n := reflect.TypeOf(*crd).NumField(); n != 4 {
		t.Fatalf("the CRD type has %d fields, CopyForUpdate knows 4", n)
	}
	cp := statusStrategy{}.CopyForUpdate(crd).(*apiextensions.CustomResourceDefinition)
	if !reflect.DeepEqual(cp, crd) {
		t.Fatal("the copy differs from the CRD")
	}
	if &cp.Spec.Versions[0] != &crd.Spec.Versions[0] {
		t.Error("the spec was copied, not shared")
	}
	cp.Labels["a"] = "changed"
	cp.Finalizers[0] = "changed"
	cp.Status.Conditions[0].Reason = "changed"
	cp.Status.StoredVersions[0] = "changed"
	if crd.Labels["a"] != "b" || crd.Finalizers[0] != "f" || crd.Status.Conditions[0].Reason != "" || crd.Status.StoredVersions[0] != "v1" {
		t.Error("changing the copy's metadata or status changed the CRD")
	}
}

// TestStatusWrite_CopiesNoSpec: a /status write through the REST storage
// hands its steps the body with its spec shared, not deep-copied, and
// the remembered specs are unchanged after.
func TestStatusWrite_CopiesNoSpec(t *testing.T) {
	e := newMemoEnv(t)
	ctx := context.Background()
	if _, err := e.rest.Create(ctx, e.crd, nil, nil); err != nil {
		t.Fatal(err)
	}
	e.statusUpdate(t, apiextensions.NamesAccepted) // the spec is remembered
	got, err := e.status.Get(ctx, e.name, nil)
	if err != nil {
		t.Fatal(err)
	}
	body := got.(*apiextensions.CustomResourceDefinition)
	var shared int
	info := registry.DefaultUpdatedObjectInfo(body, func(_ context.Context, obj, old scheme.Object) (scheme.Object, error) {
		if &obj.(*apiextensions.CustomResourceDefinition).Spec.Versions[0] == &body.Spec.Versions[0] {
			shared++
		}
		return obj, nil
	})
	if _, _, err := e.status.Update(ctx, e.name, info, nil, nil, false, nil); err != nil {
		t.Fatal(err)
	}
	if shared == 0 {
		t.Error("the body's spec was deep-copied for the /status write")
	}
	e.checkShared(t)
}

// storedBytes returns e.crd as stored: v1 JSON with storedVersions, read
// back by nothing yet.
func (e *memoEnv) storedBytes(t *testing.T) []byte {
	t.Helper()
	crd := e.crd.DeepCopy()
	crd.Status.StoredVersions = []string{"v1"}
	b, err := e.plain.Encode(crd)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCodec_DecodeWaitsForTheSameSpec checks that a decode of a spec
// another decode is reading whole waits for it and shares the spec it
// remembered, and decodes the rest of its own object.
func TestCodec_DecodeWaitsForTheSameSpec(t *testing.T) {
	e := newMemoEnv(t)
	data := e.storedBytes(t)
	start, end, ok := apiextensionsv1.SpecSpan(data)
	if !ok {
		t.Fatal("no spec")
	}
	specJSON := data[start:end]
	// This test is the first reader, in flight.
	wait, done := e.codec.decodes.start(specJSON)
	if wait != nil {
		t.Fatal("a decode of the spec is in flight already")
	}
	// The same spec in another object: a second reader.
	other := replaceLast(bytes.Clone(data), `"storedVersions":["v1"]`, `"storedVersions":["v1","v2"]`)
	got := make(chan *apiextensions.CustomResourceDefinition, 1)
	go func() {
		crd := &apiextensions.CustomResourceDefinition{}
		if err := e.codec.Decode(other, crd); err != nil {
			t.Error(err)
		}
		got <- crd
	}()
	select {
	case <-got:
		t.Fatal("the second reader decoded while the first was in flight")
	case <-time.After(200 * time.Millisecond):
	}
	first := &apiextensions.CustomResourceDefinition{}
	if err := e.plain.Decode(data, first); err != nil {
		t.Fatal(err)
	}
	if shared := e.codec.memo.Remember(specJSON, first.Spec); &shared.Versions[0] != &first.Spec.Versions[0] {
		t.Fatal("the spec was remembered before the first reader")
	}
	done()
	second := <-got
	if &second.Spec.Versions[0] != &first.Spec.Versions[0] {
		t.Error("the second reader does not share the first one's spec")
	}
	want := &apiextensions.CustomResourceDefinition{}
	if err := e.plain.Decode(other, want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(second, want) {
		t.Error("the second reader's object differs from a whole decode")
	}
	if wait, done := e.codec.decodes.start(specJSON); wait != nil {
		t.Error("the first reader's decode is still in flight after it ended")
	} else {
		done()
	}
}

// TestCodec_DecodeConcurrently decodes one new stored CRD from several
// goroutines at once, as a create's read-back and its watchers do: each
// gets what a whole decode gives.
func TestCodec_DecodeConcurrently(t *testing.T) {
	e := newMemoEnv(t)
	data := e.storedBytes(t)
	want := &apiextensions.CustomResourceDefinition{}
	if err := e.plain.Decode(data, want); err != nil {
		t.Fatal(err)
	}
	const readers = 6
	got := make([]*apiextensions.CustomResourceDefinition, readers)
	var wg sync.WaitGroup
	for i := range readers {
		wg.Go(func() {
			got[i] = &apiextensions.CustomResourceDefinition{}
			if err := e.codec.Decode(data, got[i]); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i, crd := range got {
		if !reflect.DeepEqual(crd, want) {
			t.Errorf("reader %d: the object differs from a whole decode", i)
		}
	}
}
