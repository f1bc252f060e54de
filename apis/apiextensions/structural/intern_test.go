package structural

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"runtime"
	"sync"
	"testing"
	"time"
	"unsafe"
)

// params is a provider-shaped block of parameters, repeated below.
const params = `{"type":"object","description":"the parameters","properties":{
	"name":{"type":"string","description":"a name","maxLength":63,"pattern":"^[a-z]+$"},
	"size":{"type":"integer","default":3,"minimum":1},
	"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}`

func mustFromJSON(t *testing.T, s string) *Structural {
	t.Helper()
	x, err := FromJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestInterner_SharesEqualSubtrees checks that equal subtrees become one
// node — within a schema, across versions, across Intern calls — and that
// different ones stay apart.
func TestInterner_SharesEqualSubtrees(t *testing.T) {
	in := NewInterner()
	v1 := in.Intern(mustFromJSON(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"forProvider":`+params+`,"initProvider":`+params+`}}}}`))
	spec := v1.Properties["spec"]
	if spec.Properties["forProvider"] != spec.Properties["initProvider"] {
		t.Error("forProvider and initProvider are equal but not shared")
	}
	// Another version adds a field to initProvider.
	v2 := in.Intern(mustFromJSON(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"forProvider":`+params+`,"initProvider":{"type":"object","description":"the parameters","properties":{
		"name":{"type":"string","description":"a name","maxLength":63,"pattern":"^[a-z]+$"},
		"size":{"type":"integer","default":3,"minimum":1},
		"zone":{"type":"string"},
		"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}}}}}`))
	spec2 := v2.Properties["spec"]
	if spec2 == spec {
		t.Fatal("different specs are shared")
	}
	if spec2.Properties["forProvider"] != spec.Properties["forProvider"] {
		t.Error("the second version's forProvider is not the first's")
	}
	if spec2.Properties["initProvider"] == spec.Properties["initProvider"] {
		t.Error("initProvider with a field more is shared with the one without")
	}
	if spec2.Properties["initProvider"].Properties["name"] != spec.Properties["initProvider"].Properties["name"] {
		t.Error("equal leaves of different parents are not shared")
	}
	// A default of another Go type is another default.
	a := in.Intern(mustFromJSON(t, `{"type":"number","default":1}`))
	b := in.Intern(mustFromJSON(t, `{"type":"number","default":1.5}`))
	c := &Structural{Type: "number", Default: float64(1)}
	if a == b || in.Intern(c) == a {
		t.Errorf("defaults 1 (int64), 1.5 and float64 1 must not share: %p %p %p", a, b, c)
	}
}

// TestInterner_SameBehaviour checks that an interned schema without
// documentation prunes, defaults and validates as the schema it came from.
func TestInterner_SameBehaviour(t *testing.T) {
	schema := `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":` + params + `,"b":` + params + `}}}}`
	plain := mustFromJSON(t, schema)
	shared := NewInterner().Intern(WithoutDocs(mustFromJSON(t, schema)))
	obj := func() map[string]any {
		return map[string]any{"spec": map[string]any{
			"a": map[string]any{"name": "Bad", "tags": []any{"x", "x"}, "other": true},
			"b": map[string]any{"name": "good"},
		}}
	}
	o1, o2 := obj(), obj()
	p1, p2 := Prune(plain, o1, false), Prune(shared, o2, false)
	Default(plain, o1)
	Default(shared, o2)
	if !reflect.DeepEqual(o1, o2) || !reflect.DeepEqual(p1, p2) {
		t.Errorf("pruned and defaulted differently:\n%v %v\n%v %v", o1, p1, o2, p2)
	}
	e1, e2 := Validate(plain, o1), Validate(shared, o2)
	if len(e1) == 0 || fmt.Sprint(e1) != fmt.Sprint(e2) {
		t.Errorf("validated differently:\n%v\n%v", e1, e2)
	}
	if shared.Properties["spec"].Properties["a"].Description != "" {
		t.Error("WithoutDocs left a description")
	}
}

// TestInterner_EveryFieldCounts checks that two nodes differing in any one
// field of Structural are never shared: a field added to Structural but
// not to writeFields fails here.
func TestInterner_EveryFieldCounts(t *testing.T) {
	// reSrc is Pattern again (set with re by FromJSON).
	derived := map[string]bool{"reSrc": true}
	typ := reflect.TypeFor[Structural]()
	in := NewInterner()
	base := in.Intern(&Structural{Type: "object"})
	for i := range typ.NumField() {
		f := typ.Field(i)
		if derived[f.Name] {
			continue
		}
		s := &Structural{Type: "object"}
		v := reflect.NewAt(f.Type, unsafe.Add(unsafe.Pointer(s), f.Offset)).Elem()
		if f.Name == "Type" {
			v.SetString("string")
		} else if !setNonZero(v) {
			t.Fatalf("field %s (%s): the test cannot set it; teach setNonZero", f.Name, f.Type)
		}
		if got := in.Intern(s); got == base {
			t.Errorf("a node with %s set is shared with one without: writeFields misses it", f.Name)
		}
	}
}

// setNonZero sets v to a non-zero value of its type.
func setNonZero(v reflect.Value) bool {
	switch v.Type() {
	case reflect.TypeFor[string]():
		v.SetString("x")
	case reflect.TypeFor[bool]():
		v.SetBool(true)
	case reflect.TypeFor[any]():
		v.Set(reflect.ValueOf(any("x")))
	case reflect.TypeFor[error]():
		v.Set(reflect.ValueOf(errors.New("x")))
	case reflect.TypeFor[map[string]any]():
		v.Set(reflect.ValueOf(map[string]any{"url": "x"}))
	case reflect.TypeFor[map[string]*Structural]():
		v.Set(reflect.ValueOf(map[string]*Structural{"x": {Type: "string"}}))
	case reflect.TypeFor[*Structural]():
		v.Set(reflect.ValueOf(&Structural{Type: "string"}))
	case reflect.TypeFor[[]*Structural]():
		v.Set(reflect.ValueOf([]*Structural{{Type: "string"}}))
	case reflect.TypeFor[*bool]():
		b := false
		v.Set(reflect.ValueOf(&b))
	case reflect.TypeFor[[]string]():
		v.Set(reflect.ValueOf([]string{}))
	case reflect.TypeFor[[]any]():
		v.Set(reflect.ValueOf([]any{"x"}))
	case reflect.TypeFor[*float64]():
		f := 0.0
		v.Set(reflect.ValueOf(&f))
	case reflect.TypeFor[*int64]():
		n := int64(0)
		v.Set(reflect.ValueOf(&n))
	case reflect.TypeFor[*string]():
		s := ""
		v.Set(reflect.ValueOf(&s))
	case reflect.TypeFor[*regexp.Regexp]():
		v.Set(reflect.ValueOf(regexp.MustCompile("x")))
	default:
		return false
	}
	return true
}

// TestInterner_Concurrent interns the same schemas from several goroutines
// while others use what was interned (run with -race).
func TestInterner_Concurrent(t *testing.T) {
	in := NewInterner()
	schema := `{"type":"object","properties":{"a":` + params + `,"b":` + params + `}}`
	first := in.Intern(mustFromJSON(t, schema))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 20 {
				s := in.Intern(mustFromJSON(t, schema))
				if s != first {
					t.Error("an equal schema interned concurrently is not the first one")
					return
				}
				obj := map[string]any{"a": map[string]any{"name": "x", "extra": 1}}
				Prune(s, obj, false)
				Default(s, obj)
				Validate(s, obj)
			}
		})
	}
	wg.Wait()
}

// TestInterner_Forgets checks that the Interner does not keep alive what
// nobody else uses.
func TestInterner_Forgets(t *testing.T) {
	in := NewInterner()
	s := in.Intern(mustFromJSON(t, `{"type":"object","properties":{"a":`+params+`}}`))
	if in.Len() == 0 {
		t.Fatal("nothing interned")
	}
	runtime.KeepAlive(s)
	s = nil
	// Cleanups run after a collection, on their own goroutine: poll.
	for deadline := time.Now().Add(10 * time.Second); in.Len() > 0 || in.entries() > 0; {
		if time.Now().After(deadline) {
			t.Fatalf("%d subtrees alive, %d entries, after the schema was dropped", in.Len(), in.entries())
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

func (in *Interner) entries() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.nodes)
}
