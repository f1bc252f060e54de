package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// echoServer answers a PUT with the CRD it got, written again as a server
// writes it (decoded into the v1 type, a resourceVersion set, encoded),
// and a watch with one event per CRD it was given, in the same way. It
// keeps every body it got and every answer. sortedSpec makes it write the
// spec with its keys sorted: a server whose JSON is not what the client's
// writer writes.
type echoServer struct {
	sortedSpec bool

	mu      sync.Mutex // guards bodies, answers and rv
	bodies  [][]byte
	answers [][]byte
	rv      int
	events  []*apiextensionsv1.CustomResourceDefinition
}

func (s *echoServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Query().Get("watch") != "" {
		for _, crd := range s.events {
			fmt.Fprintf(w, `{"type":"MODIFIED","object":%s}`+"\n", s.write(crd))
		}
		return
	}
	body, _ := io.ReadAll(r.Body)
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := json.Unmarshal(body, crd); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bodies = append(s.bodies, body)
	s.rv++
	crd.ResourceVersion = fmt.Sprint(s.rv)
	answer := s.write(crd)
	s.answers = append(s.answers, answer)
	_, _ = w.Write(answer)
}

func (s *echoServer) write(crd *apiextensionsv1.CustomResourceDefinition) []byte {
	b, err := scheme.MarshalJSON(crd)
	if err != nil || !s.sortedSpec {
		return b
	}
	start, end, _ := apiextensionsv1.SpecSpan(b)
	var spec any
	_ = json.Unmarshal(b[start:end], &spec)
	sorted, _ := json.Marshal(spec)
	return append(append(append([]byte(nil), b[:start]...), sorted...), b[end:]...)
}

// exchange returns the body and the answer of request i.
func (s *echoServer) exchange(i int) (body, answer []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies[i], s.answers[i]
}

// withSpecOf returns b, a CRD's JSON, with its spec's JSON replaced by
// from's.
func withSpecOf(b, from []byte) []byte {
	start, end, _ := apiextensionsv1.SpecSpan(b)
	fs, fe, _ := apiextensionsv1.SpecSpan(from)
	return append(append(append([]byte(nil), b[:start]...), from[fs:fe]...), b[end:]...)
}

// realCRD is a real-size CRD (120 KiB, 2 versions) as a client holds it.
func realCRD(t testing.TB) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := json.Unmarshal(crdgen.CRD(1, crdgen.Options{Bytes: 120 << 10, Versions: 2, Seed: 1}), crd); err != nil {
		t.Fatal(err)
	}
	crd.TypeMeta = metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"}
	crd.Status.StoredVersions = []string{crd.Spec.Versions[len(crd.Spec.Versions)-1].Name}
	return crd
}

// copyForStatus shares crd's spec, as controller.CopyForStatus does.
func copyForStatus(crd *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinition {
	out := crd.DeepCopy()
	out.Spec = crd.Spec
	return out
}

func setCondition(crd *apiextensionsv1.CustomResourceDefinition, typ apiextensionsv1.CustomResourceDefinitionConditionType) {
	crd.Status.Conditions = append(crd.Status.Conditions, apiextensionsv1.CustomResourceDefinitionCondition{
		Type: typ, Status: apiextensionsv1.ConditionTrue, Reason: "Test"})
}

func sameVersions(a, b *apiextensionsv1.CustomResourceDefinition) bool {
	return unsafe.SliceData(a.Spec.Versions) == unsafe.SliceData(b.Spec.Versions)
}

func newSharingClient(t *testing.T, s *echoServer, prepare func(*apiextensionsv1.CustomResourceDefinitionSpec)) (sharing, plain client.CustomResourceDefinitionInterface) {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	cs, err := client.NewForConfig(&client.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	return client.CRDsSharingSpecs(cs.ApiextensionsV1().RESTClient(), client.NewSharedSpecs(prepare)),
		cs.ApiextensionsV1().CustomResourceDefinitions()
}

// TestCRDsSharingSpecs_UpdateStatus writes a real-size CRD's status three
// times, as the naming and establishing controllers do, each time from
// the last answer: every answer is what the plain client decodes, the
// answers after the first share its spec, the spec is prepared once, and
// every body is the plain client's with, once the spec is a shared one,
// the spec's JSON as the server last wrote it (the same bytes when the
// server writes as the client does).
func TestCRDsSharingSpecs_UpdateStatus(t *testing.T) {
	for _, sorted := range []bool{false, true} {
		t.Run(fmt.Sprintf("sortedSpec=%v", sorted), func(t *testing.T) {
			s := &echoServer{sortedSpec: sorted}
			var prepared atomic.Int32
			crds, plain := newSharingClient(t, s, func(*apiextensionsv1.CustomResourceDefinitionSpec) { prepared.Add(1) })
			ctx := context.Background()

			crd := realCRD(t)
			var first *apiextensionsv1.CustomResourceDefinition
			for i, typ := range []apiextensionsv1.CustomResourceDefinitionConditionType{"NamesAccepted", "Established", "Other"} {
				next := copyForStatus(crd)
				setCondition(next, typ)
				want, err := scheme.MarshalJSON(next)
				if err != nil {
					t.Fatal(err)
				}
				got, err := crds.UpdateStatus(ctx, next, metav1.UpdateOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if i > 0 {
					_, lastAnswer := s.exchange(2*i - 1)
					want = withSpecOf(want, lastAnswer)
				}
				if body, _ := s.exchange(2 * i); !bytes.Equal(body, want) {
					t.Errorf("write %d: the body is not the one expected (%d vs %d bytes)", i, len(body), len(want))
				}
				// The same write through the plain client: the answer decoded whole.
				wantObj, err := plain.UpdateStatus(ctx, next, metav1.UpdateOptions{})
				if err != nil {
					t.Fatal(err)
				}
				wantObj.ResourceVersion = got.ResourceVersion
				if !reflect.DeepEqual(got, wantObj) {
					t.Errorf("write %d: the answer differs from the plain client's", i)
				}
				if first == nil {
					first = got
				} else if !sameVersions(got, first) {
					t.Errorf("write %d: the answer's spec is not the first answer's", i)
				}
				crd = got
			}
			// The first body's spec is written whole and remembered: an
			// answer that writes it as the client does shares it and
			// decodes none (TestCRDsSharingSpecs_UpdateStatusRemembers);
			// the sorted one is decoded, and prepared, once.
			want := int32(0)
			if sorted {
				want = 1
			}
			if n := prepared.Load(); n != want {
				t.Errorf("prepared %d specs, want %d", n, want)
			}
		})
	}
}

// TestCRDsSharingSpecs_UpdateStatusRemembers writes the status of a CRD
// whose spec the client does not remember (the controllers' case once
// the memo's bound has dropped it: the informer's copy is all that is
// left of it), twice, then reads a watch event of it: the first body's
// spec is written whole and remembered, so no answer and no event is
// decoded whole (none is prepared), each shares the written spec, and
// each is what the plain client decodes.
func TestCRDsSharingSpecs_UpdateStatusRemembers(t *testing.T) {
	s := &echoServer{}
	var prepared atomic.Int32
	crds, plain := newSharingClient(t, s, func(*apiextensionsv1.CustomResourceDefinitionSpec) { prepared.Add(1) })
	ctx := context.Background()

	crd := realCRD(t)
	for i, typ := range []apiextensionsv1.CustomResourceDefinitionConditionType{"NamesAccepted", "Established"} {
		next := copyForStatus(crd)
		setCondition(next, typ)
		got, err := crds.UpdateStatus(ctx, next, metav1.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := plain.UpdateStatus(ctx, next, metav1.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want.ResourceVersion = got.ResourceVersion
		if !reflect.DeepEqual(got, want) {
			t.Errorf("write %d: the answer differs from the plain client's", i)
		}
		if !sameVersions(got, crd) {
			t.Errorf("write %d: the answer's spec is not the one written", i)
		}
		crd = got
	}
	s.events = []*apiextensionsv1.CustomResourceDefinition{copyForStatus(crd)}
	w, err := crds.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ev := <-w.ResultChan()
	if got, ok := ev.Object.(*apiextensionsv1.CustomResourceDefinition); !ok || !sameVersions(got, crd) {
		t.Errorf("the watch event (%s) does not share the written spec", ev.Type)
	}
	if n := prepared.Load(); n != 0 {
		t.Errorf("decoded %d specs whole, want 0", n)
	}
}

// TestCRDsSharingSpecs_Watch reads watch events of one CRD: each is what
// the plain client decodes, and all share one spec.
func TestCRDsSharingSpecs_Watch(t *testing.T) {
	crd := realCRD(t)
	s := &echoServer{}
	for i := range 3 {
		e := copyForStatus(crd)
		e.ResourceVersion = fmt.Sprint(i + 1)
		s.events = append(s.events, e)
	}
	crds, plain := newSharingClient(t, s, nil)
	events := func(c client.CustomResourceDefinitionInterface) []*apiextensionsv1.CustomResourceDefinition {
		w, err := c.Watch(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		var out []*apiextensionsv1.CustomResourceDefinition
		for ev := range w.ResultChan() {
			if ev.Type != watch.Modified {
				t.Fatalf("event %s: %v", ev.Type, ev.Object)
			}
			out = append(out, ev.Object.(*apiextensionsv1.CustomResourceDefinition))
		}
		return out
	}
	got, want := events(crds), events(plain)
	if len(got) != 3 || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %d events, want the plain client's %d, equal", len(got), len(want))
	}
	if !sameVersions(got[1], got[0]) || !sameVersions(got[2], got[0]) {
		t.Error("the events do not share one spec")
	}
	if sameVersions(want[1], want[0]) {
		t.Error("the plain client's events share a spec")
	}
}

// TestCRDsSharingSpecs_PreparedBeforeShared writes the status of one CRD
// from many goroutines at once; prepare changes the spec in place, so the
// race detector fails the test if it ever runs on a spec already shared.
func TestCRDsSharingSpecs_PreparedBeforeShared(t *testing.T) {
	s := &echoServer{}
	crds, _ := newSharingClient(t, s, func(spec *apiextensionsv1.CustomResourceDefinitionSpec) {
		root := spec.Versions[0].Schema.OpenAPIV3Schema
		root.Properties = maps.Clone(root.Properties)
	})
	crd := realCRD(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			cur := crd
			for range 5 {
				got, err := crds.UpdateStatus(context.Background(), copyForStatus(cur), metav1.UpdateOptions{})
				if err != nil {
					t.Error(err)
					return
				}
				_ = len(got.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties) // a reader
				cur = got
			}
		})
	}
	wg.Wait()
}

// listServer answers a list with the CRDs it holds, written as a server
// writes them.
type listServer struct{ body []byte }

func (s listServer) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(s.body)
}

func realCRDList(t testing.TB, n, kib int) []byte {
	t.Helper()
	list := &apiextensionsv1.CustomResourceDefinitionList{TypeMeta: metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinitionList"}}
	list.ResourceVersion = "42"
	for i := range n {
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := json.Unmarshal(crdgen.CRD(i, crdgen.Options{Bytes: kib << 10, Versions: 2, Seed: 1}), crd); err != nil {
			t.Fatal(err)
		}
		list.Items = append(list.Items, *crd)
	}
	b, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCRDsSharingSpecs_List decodes a list item by item: the plain
// client's list, each spec prepared once; a spec remembered from a watch
// event or an answer is shared.
func TestCRDsSharingSpecs_List(t *testing.T) {
	body := realCRDList(t, 3, 60)
	srv := httptest.NewServer(listServer{body})
	t.Cleanup(srv.Close)
	cs, err := client.NewForConfig(&client.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	var prepared atomic.Int32
	crds := client.CRDsSharingSpecs(cs.ApiextensionsV1().RESTClient(), client.NewSharedSpecs(func(*apiextensionsv1.CustomResourceDefinitionSpec) { prepared.Add(1) }))
	got, err := crds.List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := cs.ApiextensionsV1().CustomResourceDefinitions().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || len(got.Items) != 3 || got.ResourceVersion != "42" || got.Kind != "CustomResourceDefinitionList" {
		t.Fatalf("the list differs from the plain client's (%d items, resourceVersion %q)", len(got.Items), got.ResourceVersion)
	}
	if n := prepared.Load(); n != 3 {
		t.Errorf("prepared %d specs, want 3", n)
	}
	// Not remembered: a second list prepares them again.
	if _, err := crds.List(context.Background(), metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := prepared.Load(); n != 6 {
		t.Errorf("prepared %d specs after two lists, want 6", n)
	}
}

// BenchmarkCRDList decodes a list of 8 real-size CRDs (265 KiB, 2
// versions), as an informer's relist does, through the plain client and
// the one sharing specs.
func BenchmarkCRDList(b *testing.B) {
	srv := httptest.NewServer(listServer{realCRDList(b, 8, 265)})
	b.Cleanup(srv.Close)
	cs, err := client.NewForConfig(&client.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		crds client.CustomResourceDefinitionInterface
	}{
		{"plain", cs.ApiextensionsV1().CustomResourceDefinitions()},
		{"sharing", client.CRDsSharingSpecs(cs.ApiextensionsV1().RESTClient(), client.NewSharedSpecs(nil))},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.crds.List(context.Background(), metav1.ListOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
