package customresourcedefinition

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/install"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage/bolt"
)

// TestCodec_EncodeWire: for real-size CRDs of one to three versions, the
// answers of their status writes and every watch event of their way to
// Established and their deletion are written by EncodeWire — and byte for
// byte as converting them to v1 and writing them (the handler's usual
// path) writes them.
func TestCodec_EncodeWire(t *testing.T) {
	for _, o := range []crdgen.Options{
		{Bytes: 265 << 10, Versions: 2, Seed: 1},
		{Bytes: 120 << 10, Versions: 1, Seed: 2},
		{Bytes: 300 << 10, Versions: 3, Seed: 3},
	} {
		db, err := bolt.Open(filepath.Join(t.TempDir(), "test.db"), bolt.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		s := scheme.NewScheme()
		install.Install(s)
		rest, status := NewREST(db, s)
		codecs := scheme.NewCodecFactory(s)
		obj, err := codecs.DecodeToVersion(crdgen.CRD(0, o), apiextensions.SchemeGroupVersion, scheme.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		name := crdgen.NamesOf(0, o).Name
		ctx := context.Background()
		w, err := rest.Watch(ctx, &metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// want is what the handler writes without EncodeWire.
		want := func(obj scheme.Object) []byte {
			t.Helper()
			return v1JSON(t, s, obj)
		}
		check := func(what string, obj scheme.Object) {
			t.Helper()
			got, ok := status.EncodeWire(obj, apiextensionsv1.SchemeGroupVersion)
			if !ok {
				t.Errorf("%d versions: %s: not written by EncodeWire", o.Versions, what)
				return
			}
			if w := want(obj); !bytes.Equal(got, w) {
				t.Errorf("%d versions: %s: EncodeWire wrote %d bytes unlike the usual %d", o.Versions, what, len(got), len(w))
			}
			if _, ok := status.EncodeWire(obj, scheme.GroupVersion{Group: apiextensions.GroupName, Version: "v1beta1"}); ok {
				t.Errorf("%s: EncodeWire wrote another version than v1", what)
			}
			// AppendWire: the same bytes after dst's, in one buffer with
			// room for a watch line's last bytes.
			head := []byte(`{"type":"ADDED","object":`)
			line, ok := status.AppendWire(head, obj, apiextensionsv1.SchemeGroupVersion)
			switch {
			case !ok:
				t.Errorf("%s: not written by AppendWire", what)
			case !bytes.Equal(line[:len(head)], head) || !bytes.Equal(line[len(head):], got):
				t.Errorf("%s: AppendWire appended other bytes than EncodeWire writes", what)
			case cap(line)-len(line) < WireSlack:
				t.Errorf("%s: AppendWire left %d bytes of room, want %d", what, cap(line)-len(line), WireSlack)
			}
			if out, ok := status.AppendWire(head, obj, scheme.GroupVersion{Group: apiextensions.GroupName, Version: "v1beta1"}); ok || !bytes.Equal(out, head) {
				t.Errorf("%s: AppendWire wrote another version than v1 (ok %v) or changed dst", what, ok)
			}
		}

		created, err := rest.Create(ctx, obj, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The create's read-back (or the watchers' decode, whichever came
		// first) decoded to the spec it wrote: its JSON is known to be the
		// writer's before any answer is written (nothing has called
		// EncodeWire yet; the reader that compares may still be at it).
		known := false
		for deadline := time.Now().Add(10 * time.Second); !known && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			known = wireOf(rest.codec, created) == wireSame
		}
		if !known {
			t.Errorf("%d versions: the created spec's wire state is %d, want known (%d) without a whole write", o.Versions, wireOf(rest.codec, created), wireSame)
		}
		check("the answer of the create", created)
		for _, cond := range []apiextensions.CustomResourceDefinitionConditionType{apiextensions.NamesAccepted, apiextensions.Established} {
			out, _, err := status.Update(ctx, name, statusWrite(cond), nil, nil, false, nil)
			if err != nil {
				t.Fatal(err)
			}
			check("the answer of a status write", out)
		}
		if _, _, err := rest.Delete(ctx, name, nil, nil); err != nil {
			t.Fatal(err)
		}
		if _, _, err := status.Update(ctx, name, removeFinalizers(), nil, nil, false, nil); err != nil {
			t.Fatal(err)
		}
		// create, 2 status writes, the deletion's mark, and the delete
		// (the finalizer's removal).
		for i := range 5 {
			var ev watch.Event
			select {
			case ev = <-w.ResultChan():
			case <-time.After(time.Minute):
				t.Fatalf("%d versions: %d events, want 5", o.Versions, i)
			}
			if ev.Type == watch.Error {
				t.Fatalf("watch error %v", ev.Object)
			}
			check(fmt.Sprintf("%s event %d", ev.Type, i), ev.Object)
		}
		if n := (&memoEnv{codec: rest.codec}).splicing(); n == 0 {
			t.Errorf("%d versions: no remembered spec is copied into answers", o.Versions)
		}
		w.Stop()
		db.Close()
	}
}

// TestCodec_EncodeWireNotAsStored: a stored spec whose JSON is not what
// the writer writes (another key order, as an older build or another
// writer may have stored) is decoded and shared as usual, but not copied
// into answers: EncodeWire leaves it to the usual path.
func TestCodec_EncodeWireNotAsStored(t *testing.T) {
	e := newMemoEnv(t)
	stored, err := e.plain.Encode(e.crd)
	if err != nil {
		t.Fatal(err)
	}
	// "group" moved from the spec's first key to its last.
	start, end, ok := apiextensionsv1.SpecSpan(stored)
	if !ok {
		t.Fatal("no spec")
	}
	spec := stored[start:end]
	i := bytes.Index(spec, []byte(`"group":"`))
	j := i + bytes.IndexByte(spec[i+len(`"group":"`):], '"') + len(`"group":"`) + 1
	if i != 1 || spec[j] != ',' {
		t.Fatalf("the spec does not start with its group: %.40s", spec)
	}
	moved := append(append(append(append([]byte("{"), spec[j+1:len(spec)-1]...), ','), spec[1:j]...), '}')
	data := append(append(append([]byte(nil), stored[:start]...), moved...), stored[end:]...)
	var crd apiextensions.CustomResourceDefinition
	if err := e.codec.Decode(data, &crd); err != nil {
		t.Fatal(err)
	}
	if _, hit := e.codec.memo.Lookup(moved); !hit {
		t.Fatal("the reordered spec was not remembered")
	}
	want, err := e.plain.Encode(&crd)
	if err != nil {
		t.Fatal(err)
	}
	// The first object of a spec is written whole, and shows the spec's
	// JSON is not the writer's: the next is left to the usual path.
	if got, ok := e.codec.EncodeWire(&crd, apiextensionsv1.SchemeGroupVersion); ok && !bytes.Equal(got, want) {
		t.Errorf("EncodeWire wrote other bytes than the usual path")
	}
	if got, ok := e.codec.EncodeWire(&crd, apiextensionsv1.SchemeGroupVersion); ok {
		t.Errorf("EncodeWire wrote a spec whose JSON is not the writer's (the same as the usual path: %v)", bytes.Equal(got, want))
	}
	// The same spec stored as the writer writes it is copied.
	var asWritten apiextensions.CustomResourceDefinition
	if err := e.codec.Decode(stored, &asWritten); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		got, ok := e.codec.EncodeWire(&asWritten, apiextensionsv1.SchemeGroupVersion)
		if !ok || !bytes.Equal(got, stored) {
			t.Errorf("write %d: EncodeWire did not write the writer's own JSON (ok %v)", i, ok)
		}
	}
	if n := e.splicing(); n != 1 {
		t.Errorf("%d remembered specs are copied into answers, want 1", n)
	}
}

// splicing counts the remembered specs whose JSON EncodeWire copies.
func (e *memoEnv) splicing() int {
	n := 0
	for _, en := range e.codec.memo.Entries() {
		if en.State.Load() == wireSame {
			n++
		}
	}
	return n
}

// wireOf is the wire state of obj's remembered spec (0 if none).
func wireOf(c Codec, obj scheme.Object) int32 {
	crd := obj.(*apiextensions.CustomResourceDefinition)
	for _, e := range c.memo.Entries() {
		if &e.Spec.Versions[0] == &crd.Spec.Versions[0] {
			return e.State.Load()
		}
	}
	return 0
}

// TestCodec_ConfirmWrittenOnlyWhatWritesTheSame: a created spec whose
// read-back differs from what was written (an empty list, which the
// writer leaves out and the reader makes nil) is not taken as known: its
// first answer is written whole, and is what the usual writer writes.
func TestCodec_ConfirmWrittenOnlyWhatWritesTheSame(t *testing.T) {
	db, err := bolt.Open(filepath.Join(t.TempDir(), "test.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := scheme.NewScheme()
	install.Install(s)
	rest, _ := NewREST(db, s)
	o := crdgen.Options{Bytes: 60 << 10, Versions: 2, Seed: 4}
	body := bytes.Replace(crdgen.CRD(0, o), []byte(`"type":"object"`), []byte(`"required":[],"type":"object"`), 1)
	obj, err := scheme.NewCodecFactory(s).DecodeToVersion(body, apiextensions.SchemeGroupVersion, scheme.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created, err := rest.Create(context.Background(), obj, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st := wireOf(rest.codec, created); st != 0 {
		t.Fatalf("wire state %d after reading back a spec that differs from the one written, want unknown", st)
	}
	got, ok := rest.EncodeWire(created, apiextensionsv1.SchemeGroupVersion)
	wire, err := s.ConvertToVersion(created, apiextensionsv1.SchemeGroupVersion)
	if err != nil {
		t.Fatal(err)
	}
	want, err := scheme.MarshalJSON(wire)
	if err != nil {
		t.Fatal(err)
	}
	if !ok || !bytes.Equal(got, want) {
		t.Errorf("the create's answer: EncodeWire %v, %d bytes unlike the usual %d", ok, len(got), len(want))
	}
}

// TestCodec_NoteEncoded: a CRD's spec as the field manager wrote it (in
// v1, before storage) is what Encode copies into the stored value, which
// is then byte for byte what Encode writes without it; the create's
// read-back takes it as known (its answer is copied). A spec changed
// since, or JSON of another version, is not used.
func TestCodec_NoteEncoded(t *testing.T) {
	s := scheme.NewScheme()
	install.Install(s)
	codecs := scheme.NewCodecFactory(s)
	o := crdgen.Options{Bytes: 265 << 10, Versions: 2, Seed: 5}
	decode := func() *apiextensions.CustomResourceDefinition {
		t.Helper()
		obj, err := codecs.DecodeToVersion(crdgen.CRD(0, o), apiextensions.SchemeGroupVersion, scheme.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return obj.(*apiextensions.CustomResourceDefinition)
	}
	// wire is what the handler's field manager writes.
	wire := func(obj scheme.Object, gv scheme.GroupVersion) []byte {
		t.Helper()
		out, err := s.ConvertToVersion(obj, gv)
		if err != nil {
			t.Fatal(err)
		}
		b, err := scheme.MarshalJSON(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	encode := func(c Codec, obj *apiextensions.CustomResourceDefinition) []byte {
		t.Helper()
		b, err := c.Encode(obj)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	v1 := apiextensionsv1.SchemeGroupVersion
	// marked is obj's v1 JSON with a description changed: a stored value
	// that has it was copied from the noted JSON.
	marked := func(obj scheme.Object) []byte {
		b := wire(obj, v1)
		m := bytes.Replace(b, []byte(`"description":"`), []byte(`"description":"NOTED `), 1)
		if bytes.Equal(m, b) {
			t.Fatal("no description to mark")
		}
		return m
	}

	t.Run("OK", func(t *testing.T) {
		obj := decode()
		c := NewCodec(s)
		c.NoteEncoded(obj, v1, wire(obj, v1))
		if got, want := encode(c, obj), encode(NewCodec(s), obj); !bytes.Equal(got, want) {
			t.Errorf("Encode after NoteEncoded wrote %d bytes unlike the usual %d", len(got), len(want))
		}
	})
	t.Run("Copied", func(t *testing.T) {
		obj := decode()
		c := NewCodec(s)
		c.NoteEncoded(obj, v1, marked(obj))
		if !bytes.Contains(encode(c, obj), []byte(`"description":"NOTED `)) {
			t.Error("Encode did not copy the noted spec")
		}
	})
	t.Run("NotForAChangedSpec", func(t *testing.T) {
		obj := decode()
		c := NewCodec(s)
		c.NoteEncoded(obj, v1, marked(obj))
		obj.Spec.Versions = append([]apiextensions.CustomResourceDefinitionVersion(nil), obj.Spec.Versions...)
		if got, want := encode(c, obj), encode(NewCodec(s), obj); !bytes.Equal(got, want) {
			t.Error("Encode copied the JSON of a spec since replaced")
		}
		obj = decode()
		c.NoteEncoded(obj, v1, marked(obj))
		obj.Spec.Group = "other.example.io"
		if got, want := encode(c, obj), encode(NewCodec(s), obj); !bytes.Equal(got, want) {
			t.Error("Encode copied the JSON of a spec whose group changed since")
		}
	})
	t.Run("NotForV1beta1", func(t *testing.T) {
		obj := decode()
		c := NewCodec(s)
		c.NoteEncoded(obj, scheme.GroupVersion{Group: apiextensions.GroupName, Version: "v1beta1"}, marked(obj))
		if got, want := encode(c, obj), encode(NewCodec(s), obj); !bytes.Equal(got, want) {
			t.Error("Encode copied JSON noted for v1beta1")
		}
	})
	t.Run("CopiedByCreate", func(t *testing.T) {
		db, err := bolt.Open(filepath.Join(t.TempDir(), "test.db"), bolt.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		rest, _ := NewREST(db, s)
		obj := decode()
		rest.NoteEncoded(obj, v1, marked(obj))
		if _, err := rest.Create(context.Background(), obj, nil, nil); err != nil {
			t.Fatal(err)
		}
		// What was stored, read by a codec that remembers nothing (the
		// create's own read-back takes the spec written: decodeWritten).
		fresh, _ := NewREST(db, s)
		stored, err := fresh.Get(context.Background(), obj.Name, &metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(wire(stored, v1), []byte(`"description":"NOTED `)) {
			t.Error("the create stored a spec it wrote again, not the noted one")
		}
	})
	t.Run("ReadBackKnown", func(t *testing.T) {
		db, err := bolt.Open(filepath.Join(t.TempDir(), "test.db"), bolt.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		rest, _ := NewREST(db, s)
		obj := decode()
		rest.NoteEncoded(obj, v1, wire(obj, v1))
		created, err := rest.Create(context.Background(), obj, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st := wireOf(rest.codec, created); st != wireSame {
			t.Errorf("wire state %d after the create's read-back, want %d (known)", st, wireSame)
		}
		// The read-back took the spec written instead of decoding it
		// (decodeWritten): the created CRD has the very spec.
		if n := rest.codec.memo.Stats().TakenWritten; n != 1 {
			t.Errorf("specs taken as written: %d, want 1", n)
		}
		if &created.(*apiextensions.CustomResourceDefinition).Spec.Versions[0] != &obj.Spec.Versions[0] {
			t.Error("the create's read-back decoded the spec it had just written")
		}
		got, ok := rest.EncodeWire(created, v1)
		if want := wire(created, v1); !ok || !bytes.Equal(got, want) {
			t.Errorf("the create's answer: EncodeWire %v, %d bytes unlike the usual %d", ok, len(got), len(want))
		}
	})
}
