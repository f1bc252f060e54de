package scheme_test

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

// A toy group with a hub and two versions: v1 names the field Size, v2 names
// it Replicas and defaults it to 1.

type Toy struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Count int
}

type ToyV1 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Size              int `json:"size"`
}

type ToyV2 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Replicas          *int `json:"replicas,omitempty"`
}

func (t *Toy) DeepCopyObject() scheme.Object   { return deepcopy.Copy(t) }
func (t *ToyV1) DeepCopyObject() scheme.Object { return deepcopy.Copy(t) }
func (t *ToyV2) DeepCopyObject() scheme.Object { return deepcopy.Copy(t) }

var (
	hubGV = scheme.GroupVersion{Group: "toys.example.com", Version: scheme.APIVersionInternal}
	v1GV  = scheme.GroupVersion{Group: "toys.example.com", Version: "v1"}
	v2GV  = scheme.GroupVersion{Group: "toys.example.com", Version: "v2"}
)

func newToyScheme(t testing.TB) *scheme.Scheme {
	t.Helper()
	s := scheme.NewScheme()
	s.AddKnownTypeWithName(hubGV.WithKind("Toy"), &Toy{})
	s.AddKnownTypeWithName(v1GV.WithKind("Toy"), &ToyV1{})
	s.AddKnownTypeWithName(v2GV.WithKind("Toy"), &ToyV2{})
	s.AddConversionFunc(&ToyV1{}, &Toy{}, func(in, out scheme.Object) error {
		i, o := in.(*ToyV1), out.(*Toy)
		o.ObjectMeta, o.Count = i.ObjectMeta, i.Size
		return nil
	})
	s.AddConversionFunc(&Toy{}, &ToyV1{}, func(in, out scheme.Object) error {
		i, o := in.(*Toy), out.(*ToyV1)
		o.ObjectMeta, o.Size = i.ObjectMeta, i.Count
		return nil
	})
	s.AddConversionFunc(&ToyV2{}, &Toy{}, func(in, out scheme.Object) error {
		i, o := in.(*ToyV2), out.(*Toy)
		o.ObjectMeta = i.ObjectMeta
		if i.Replicas != nil {
			o.Count = *i.Replicas
		}
		return nil
	})
	s.AddConversionFunc(&Toy{}, &ToyV2{}, func(in, out scheme.Object) error {
		i, o := in.(*Toy), out.(*ToyV2)
		n := i.Count
		o.ObjectMeta, o.Replicas = i.ObjectMeta, &n
		return nil
	})
	s.AddTypeDefaultingFunc(&ToyV2{}, func(obj scheme.Object) {
		if t := obj.(*ToyV2); t.Replicas == nil {
			one := 1
			t.Replicas = &one
		}
	})
	if err := s.SetVersionPriority(v2GV, v1GV); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestScheme_Registration(t *testing.T) {
	s := newToyScheme(t)
	if !s.Recognizes(v1GV.WithKind("Toy")) || s.Recognizes(v1GV.WithKind("Other")) {
		t.Error("Recognizes")
	}
	if !s.IsGroupRegistered("toys.example.com") || s.IsGroupRegistered("apps") {
		t.Error("IsGroupRegistered")
	}
	if !s.IsVersionRegistered(v2GV) || s.IsVersionRegistered(scheme.GroupVersion{Group: "toys.example.com", Version: "v3"}) {
		t.Error("IsVersionRegistered")
	}
	if got := s.PrioritizedVersionsForGroup("toys.example.com"); !reflect.DeepEqual(got, []scheme.GroupVersion{v2GV, v1GV}) {
		t.Errorf("PrioritizedVersionsForGroup = %v", got)
	}
	kinds, err := s.ObjectKinds(&ToyV1{})
	if err != nil || len(kinds) != 1 || kinds[0] != v1GV.WithKind("Toy") {
		t.Errorf("ObjectKinds = %v, %v", kinds, err)
	}
	if got := s.KnownTypes(v1GV); got["Toy"] != reflect.TypeOf(ToyV1{}) {
		t.Errorf("KnownTypes = %v", got)
	}
	obj, err := s.New(v2GV.WithKind("Toy"))
	if _, ok := obj.(*ToyV2); !ok || err != nil {
		t.Errorf("New = %T, %v", obj, err)
	}
}

func TestScheme_ErrNotRegistered(t *testing.T) {
	s := newToyScheme(t)
	_, err := s.New(v1GV.WithKind("Robot"))
	var nre *scheme.NotRegisteredError
	if !errors.As(err, &nre) || err.Error() != `no kind "Robot" is registered for version "toys.example.com/v1" in scheme` {
		t.Errorf("New: %v", err)
	}
	if _, err := s.ObjectKinds(&metav1.Status{}); !errors.As(err, &nre) {
		t.Errorf("ObjectKinds of an unregistered type: %v", err)
	}
	if _, err := s.ConvertToVersion(&ToyV1{}, scheme.GroupVersion{Group: "toys.example.com", Version: "v9"}); !errors.As(err, &nre) {
		t.Errorf("ConvertToVersion to an unknown version: %v", err)
	}
	if _, err := s.ConvertToVersion(&ToyV1{}, scheme.GroupVersion{Group: "apps", Version: "v1"}); err == nil {
		t.Error("ConvertToVersion across groups should fail")
	}
	var cnr *scheme.ConversionNotRegisteredError
	if err := s.Convert(&ToyV1{}, &ToyV2{}); !errors.As(err, &cnr) {
		t.Errorf("Convert without a direct function: %v", err)
	}
}

func TestScheme_PanicsOnDoubleRegistration(t *testing.T) {
	s := newToyScheme(t)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "double registration") {
			t.Errorf("recover() = %v", r)
		}
	}()
	s.AddKnownTypeWithName(v1GV.WithKind("Toy"), &ToyV2{})
}

func TestScheme_ConvertToVersion(t *testing.T) {
	s := newToyScheme(t)
	in := &ToyV1{ObjectMeta: metav1.ObjectMeta{Name: "a"}, Size: 3}
	out, err := s.ConvertToVersion(in, v2GV)
	if err != nil {
		t.Fatal(err)
	}
	v2 := out.(*ToyV2)
	if *v2.Replicas != 3 || v2.Name != "a" || v2.APIVersion != "toys.example.com/v2" || v2.Kind != "Toy" {
		t.Errorf("got %+v", v2)
	}
	if in.APIVersion != "" || in.Size != 3 {
		t.Errorf("input modified: %+v", in)
	}
	t.Run("ToHub", func(t *testing.T) {
		hub, err := s.ConvertToVersion(&ToyV1{TypeMeta: metav1.TypeMeta{APIVersion: "toys.example.com/v1", Kind: "Toy"}, Size: 2}, hubGV)
		if err != nil {
			t.Fatal(err)
		}
		if h := hub.(*Toy); h.Count != 2 || h.APIVersion != "" || h.Kind != "" {
			t.Errorf("hub = %+v (hub objects carry no apiVersion/kind)", h)
		}
	})
	t.Run("SameVersionCopies", func(t *testing.T) {
		out, _ := s.ConvertToVersion(in, v1GV)
		out.(*ToyV1).Size = 99
		if in.Size != 3 {
			t.Error("same-version conversion must copy")
		}
	})
}

func TestCodecFactory_DecodeEncode(t *testing.T) {
	codecs := scheme.NewCodecFactory(newToyScheme(t))
	t.Run("YAMLDefaultsInItsOwnVersion", func(t *testing.T) {
		obj, gvk, err := codecs.Decode([]byte("apiVersion: toys.example.com/v2\nkind: Toy\nmetadata:\n  name: a\n"), scheme.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if gvk != v2GV.WithKind("Toy") || *obj.(*ToyV2).Replicas != 1 {
			t.Errorf("gvk %v, obj %+v", gvk, obj)
		}
		b, err := codecs.Encode(obj, v1GV)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != `{"kind":"Toy","apiVersion":"toys.example.com/v1","metadata":{"name":"a","creationTimestamp":null},"size":1}` {
			t.Errorf("Encode = %s", b)
		}
	})
	t.Run("JSONToVersion", func(t *testing.T) {
		obj, err := codecs.DecodeToVersion([]byte(`{"apiVersion":"toys.example.com/v1","kind":"Toy","size":4}`), v2GV, scheme.DecodeOptions{})
		if err != nil || *obj.(*ToyV2).Replicas != 4 {
			t.Errorf("%+v %v", obj, err)
		}
	})
	t.Run("ErrStrict", func(t *testing.T) {
		_, _, err := codecs.Decode([]byte(`{"apiVersion":"toys.example.com/v1","kind":"Toy","sise":4}`), scheme.DecodeOptions{Strict: true})
		var sde *scheme.StrictDecodingError
		if !errors.As(err, &sde) || !strings.Contains(err.Error(), `unknown field "sise"`) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("ErrMissingKind", func(t *testing.T) {
		_, _, err := codecs.Decode([]byte(`{"apiVersion":"toys.example.com/v1"}`), scheme.DecodeOptions{})
		if !errors.Is(err, scheme.ErrMissingKind) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("ErrInternalVersionOnTheWire", func(t *testing.T) {
		if _, _, err := codecs.Decode([]byte(`{"apiVersion":"toys.example.com/__internal","kind":"Toy"}`), scheme.DecodeOptions{}); err == nil {
			t.Error("the internal version must not be decoded")
		}
	})
	t.Run("ErrEncodeInternal", func(t *testing.T) {
		if _, err := codecs.Encode(&ToyV1{}, hubGV); err == nil {
			t.Error("encoding to the internal version must fail")
		}
	})
	t.Run("YAMLOut", func(t *testing.T) {
		y, err := codecs.EncodeYAML(&ToyV2{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, v1GV)
		if err != nil || string(y) != "apiVersion: toys.example.com/v1\nkind: Toy\nmetadata:\n  creationTimestamp: null\n  name: a\nsize: 0\n" {
			t.Errorf("%q %v", y, err)
		}
	})
}

func TestSplitYAMLDocuments(t *testing.T) {
	docs := scheme.SplitYAMLDocuments([]byte("a: 1\n---\n# only a comment\n---\nb: 2\n--- \n\n"))
	if len(docs) != 2 || string(docs[0]) != "a: 1\n" || string(docs[1]) != "b: 2\n" {
		t.Errorf("got %q", docs)
	}
}

func TestParseGroupVersion(t *testing.T) {
	for in, want := range map[string]scheme.GroupVersion{
		"v1":                      {Version: "v1"},
		"apps/v1":                 {Group: "apps", Version: "v1"},
		"":                        {},
		"apiextensions.k8s.io/v1": {Group: "apiextensions.k8s.io", Version: "v1"},
	} {
		if got, err := scheme.ParseGroupVersion(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"a/b/c", "/v1", "apps/"} {
		if _, err := scheme.ParseGroupVersion(bad); err == nil {
			t.Errorf("%q should not parse", bad)
		}
	}
}

// TestScheme_ConcurrentUse reads a fully registered scheme from many
// goroutines: it is safe for concurrent use after registration (-race).
func TestScheme_ConcurrentUse(t *testing.T) {
	s := newToyScheme(t)
	codecs := scheme.NewCodecFactory(s)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				obj, err := codecs.DecodeToVersion([]byte(`{"apiVersion":"toys.example.com/v1","kind":"Toy","size":2}`), v2GV, scheme.DecodeOptions{})
				if err != nil || *obj.(*ToyV2).Replicas != 2 {
					t.Errorf("goroutine %d: %v %v", i, obj, err)
					return
				}
				_ = s.PrioritizedVersionsForGroup("toys.example.com")
			}
		}(i)
	}
	wg.Wait()
}
