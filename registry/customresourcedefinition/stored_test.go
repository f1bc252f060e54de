package customresourcedefinition

import (
	"bytes"
	"context"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/install"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
)

// storedCRDs are CRDs whose v1 JSON has what a real one may: the
// defaults a decode fills in (conversion strategy, a webhook service's
// port, storedVersions), escapes, subresources, columns, several
// versions.
var storedCRDs = []string{
	`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.lab.example.com","labels":{"tier":"a.b_c-d"},"annotations":{"note":"é \"quoted\" \u2028 line"}},
"spec":{"group":"lab.example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget","shortNames":["wd"],"categories":["all"]},
"versions":[{"name":"v1","served":true,"storage":true,
 "subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas"}},
 "additionalPrinterColumns":[{"name":"Size","type":"integer","jsonPath":".spec.size"}],
 "schema":{"openAPIV3Schema":{"type":"object","description":"a <b>widget</b> & more","properties":{
  "spec":{"type":"object","properties":{"size":{"type":"integer","default":3},"replicas":{"type":"integer"}}},
  "status":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}}}]}}`,
	`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gadgets.lab.example.com"},
"spec":{"group":"lab.example.com","scope":"Cluster","names":{"plural":"gadgets","kind":"Gadget"},
"conversion":{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1"],"clientConfig":{"service":{"namespace":"ns","name":"conv"}}}},
"versions":[
 {"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
 {"name":"v1beta1","served":true,"storage":false,"deprecated":true,"deprecationWarning":"use v1","schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`,
}

// storedEnv is a REST storage of CRDs on a bolt file opened with writer.
type storedEnv struct {
	db     *bolt.DB
	rest   *REST
	status *StatusREST
	s      *scheme.Scheme
}

func openStored(t *testing.T, path, writer string) *storedEnv {
	t.Helper()
	db, err := bolt.Open(path, bolt.Options{NoSync: true, Writer: writer})
	if err != nil {
		t.Fatal(err)
	}
	s := scheme.NewScheme()
	install.Install(s)
	rest, status := NewREST(db, s)
	return &storedEnv{db: db, rest: rest, status: status, s: s}
}

// create stores the CRD of v1 JSON doc, and marks it Established.
func (e *storedEnv) create(t *testing.T, doc []byte) {
	t.Helper()
	obj, err := scheme.NewCodecFactory(e.s).DecodeToVersion(doc, apiextensions.SchemeGroupVersion, scheme.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created, err := e.rest.Create(context.Background(), obj, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	name := created.(*apiextensions.CustomResourceDefinition).Name
	if _, _, err := e.status.Update(context.Background(), name, statusWrite(apiextensions.Established), nil, nil, false, nil); err != nil {
		t.Fatal(err)
	}
}

// stored lists the CRDs as storage holds them.
func (e *storedEnv) stored(t *testing.T) []storage.ObjectJSON {
	t.Helper()
	l, err := e.rest.List(registry.WithEncodedItems(context.Background()), &metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	el, ok := l.(*registry.EncodedList)
	if !ok {
		t.Fatalf("the list is a %T, not storage's bytes", l)
	}
	return el.Items
}

// usual is what the handler writes for a stored CRD without AppendStored:
// the object decoded, converted to v1 and written.
func (e *storedEnv) usual(t *testing.T, o storage.ObjectJSON) []byte {
	t.Helper()
	obj, err := e.rest.DecodeStored(o)
	if err != nil {
		t.Fatal(err)
	}
	return v1JSON(t, e.s, obj)
}

// v1JSON is what the handler writes for an internal CRD without the
// codec's shortcuts: obj converted to v1 and written.
func v1JSON(t *testing.T, s *scheme.Scheme, obj scheme.Object) []byte {
	t.Helper()
	wire, err := s.ConvertToVersion(obj, apiextensionsv1.SchemeGroupVersion)
	if err != nil {
		t.Fatal(err)
	}
	b, err := scheme.MarshalJSON(wire)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestREST_AppendStored: every CRD this build stored — real-size ones of
// one to three versions, and ones with defaults, escapes and webhooks —
// goes out of a list byte for byte as decoding, converting and writing it
// would write it; records from before another writer opened the file do
// not (they are decoded), nor do any when the backend keeps no writer.
func TestREST_AppendStored(t *testing.T) {
	path := filepath.Join(t.TempDir(), "test.db")
	e := openStored(t, path, CodecVersion)
	if !e.rest.ReadsAsStored(apiextensionsv1.SchemeGroupVersion) {
		t.Fatal("a file this writer opened does not read as stored")
	}
	if e.rest.ReadsAsStored(scheme.GroupVersion{Group: apiextensions.GroupName, Version: "v1beta1"}) {
		t.Error("v1beta1 reads as stored")
	}
	for i, o := range []crdgen.Options{{Bytes: 265 << 10, Versions: 2, Seed: 1}, {Bytes: 40 << 10, Versions: 1, Seed: 2}, {Bytes: 120 << 10, Versions: 3, Seed: 3}} {
		e.create(t, crdgen.CRD(i, o))
	}
	for _, doc := range storedCRDs {
		e.create(t, []byte(doc))
	}
	check := func(e *storedEnv, wantStored int) {
		t.Helper()
		n := 0
		for _, o := range e.stored(t) {
			want := e.usual(t, o)
			head := []byte(`{"items":[`)
			got, ok := e.rest.AppendStored(head, o, apiextensionsv1.SchemeGroupVersion)
			if !ok {
				if !bytes.Equal(got, head) {
					t.Errorf("revision %d: AppendStored declined but changed dst", o.Rev)
				}
				continue
			}
			n++
			if !bytes.Equal(got[:len(head)], head) || !bytes.Equal(got[len(head):], want) {
				t.Errorf("revision %d: AppendStored wrote\n%.400s\nthe usual path\n%.400s", o.Rev, got[len(head):], want)
			}
			if _, ok := e.rest.AppendStored(nil, o, scheme.GroupVersion{Group: apiextensions.GroupName, Version: "v1beta1"}); ok {
				t.Errorf("revision %d: AppendStored wrote v1beta1", o.Rev)
			}
		}
		if n != wantStored {
			t.Errorf("%d CRDs went out as stored, want %d", n, wantStored)
		}
	}
	all := len(storedCRDs) + 3
	check(e, all)
	e.db.Close()

	// Another writer: every record so far is someone else's, until it
	// writes one of its own.
	e = openStored(t, path, "another codec")
	check(e, 0)
	e.create(t, crdgen.CRD(10, crdgen.Options{Bytes: 30 << 10, Versions: 1, Seed: 4}))
	check(e, 1)
	e.db.Close()

	// Back to this build: the other's record too is decoded.
	e = openStored(t, path, CodecVersion)
	check(e, 0)
	e.db.Close()
	e = openStored(t, path, CodecVersion) // a restart keeps the marker
	check(e, 0)
	e.create(t, crdgen.CRD(11, crdgen.Options{Bytes: 30 << 10, Versions: 1, Seed: 5}))
	check(e, 1)
	if e.db.WrittenSince() == math.MaxInt64 {
		t.Error("WrittenSince is unknown with a writer")
	}
	e.db.Close()

	e = openStored(t, path, "")
	if e.rest.ReadsAsStored(apiextensionsv1.SchemeGroupVersion) {
		t.Error("a file opened with no writer reads as stored")
	}
	check(e, 0)
	e.db.Close()

	// Bytes that do not begin as the codec writes them.
	o := storage.ObjectJSON{Data: []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"x","uid":"u"}}`), Rev: math.MaxInt64 - 1}
	if _, ok := (&REST{}).AppendStored(nil, o, apiextensionsv1.SchemeGroupVersion); ok {
		t.Error("AppendStored took bytes in another key order")
	}
}

// TestREST_ListEncodedMetadata: a list for metadata alone gets each
// CRD's metadata object cut out of its stored bytes by storage, and
// nothing more of them.
func TestREST_ListEncodedMetadata(t *testing.T) {
	e := openStored(t, filepath.Join(t.TempDir(), "test.db"), CodecVersion)
	defer e.db.Close()
	for i := range 3 {
		e.create(t, crdgen.CRD(i, crdgen.Options{Bytes: 60 << 10, Versions: 2, Seed: uint64(i)}))
	}
	whole := e.stored(t)
	l, err := e.rest.List(registry.WithEncodedMetadata(context.Background()), &metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	el, ok := l.(*registry.EncodedList)
	if !ok || len(el.Items) != len(whole) {
		t.Fatalf("the list is a %T of %d items, want storage's bytes of %d", l, len(el.Items), len(whole))
	}
	for i, o := range el.Items {
		start, end, ok := storage.MetadataSpan(whole[i].Data)
		if !ok {
			t.Fatalf("item %d: no metadata in the stored bytes", i)
		}
		if !o.Metadata || o.Rev != whole[i].Rev || !bytes.Equal(o.Data, whole[i].Data[start:end]) {
			t.Errorf("item %d: Metadata %v, revision %d (want %d), %d bytes: %.100s; want the %d bytes of its metadata",
				i, o.Metadata, o.Rev, whole[i].Rev, len(o.Data), o.Data, end-start)
		}
	}
}

var updateGolden = flag.Bool("update", false, "rewrite testdata/codec.golden (refused unless CodecVersion changed with the bytes)")

// TestCodecVersion pins the bytes Codec writes for storedCRDs under
// CodecVersion (testdata/codec.golden: the version, then one CRD a line).
// Lists hand out bytes written under the same CodecVersion as they are
// (stored.go): if a change makes Codec write other bytes, CodecVersion
// must change with it, and -update refuses to rewrite the file until it
// has.
func TestCodecVersion(t *testing.T) {
	s := scheme.NewScheme()
	install.Install(s)
	codec := NewCodec(s)
	var b strings.Builder
	b.WriteString(CodecVersion + "\n")
	for _, doc := range storedCRDs {
		obj, err := scheme.NewCodecFactory(s).DecodeToVersion([]byte(doc), apiextensions.SchemeGroupVersion, scheme.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		data, err := codec.Encode(obj.(storage.Object))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteString("\n")
	}
	const golden = "testdata/codec.golden"
	old, err := os.ReadFile(golden)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if string(old) == b.String() {
		return
	}
	oldVersion, _, _ := strings.Cut(string(old), "\n")
	if *updateGolden {
		if old != nil && oldVersion == CodecVersion {
			t.Fatalf("Codec writes other bytes than %s holds for %q: change CodecVersion first", golden, CodecVersion)
		}
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if oldVersion == CodecVersion {
		t.Fatalf("Codec writes other bytes than %s holds for %q: change CodecVersion, then run go test -run TestCodecVersion -update", golden, CodecVersion)
	}
	t.Fatalf("CodecVersion is %q, %s holds %q: run go test -run TestCodecVersion -update", CodecVersion, golden, oldVersion)
}
