package managedfields_test

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/managedfields"
	"github.com/crdlab/crdlab/machinery/openapi"
	"github.com/crdlab/crdlab/scheme"
)

// The merge semantics of server-side apply, as upstream documents them
// (kubernetes.io/docs/reference/using-api/server-side-apply, "Merge
// strategy" and "Conflicts"):
//
//   - x-kubernetes-list-type atomic (the default for a CRD's lists): "the
//     entire list is replaced during merge. At any point in time, a single
//     manager owns the list."
//   - set and map: "different managers can manage entries separately";
//     a set holds unique scalars, a map holds objects told apart by the
//     values of x-kubernetes-list-map-keys.
//   - x-kubernetes-map-type atomic: "the map can only be entirely replaced
//     by a single manager"; granular (the default): "separate managers
//     updating individual fields".
//   - a conflict is an apply that would change a field another manager
//     owns; applying the same value makes both managers own it; force
//     takes the field over.
//   - "If you remove a field from a manifest and apply that manifest,
//     Server-Side Apply checks if there are any other field managers that
//     also own the field. If the field is not owned by any other field
//     managers, it is either deleted from the live object or reset to its
//     default value."
//
// Each case below is a sequence of applies to one object and what the
// object's spec (or the conflict) must be after each.

// widgetSpec is the spec schema every case starts from: one property of
// each kind the table exercises.
const widgetSpec = `{
  "type": "object",
  "properties": {
    "atomic":  {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "atomic"},
    "plain":   {"type": "array", "items": {"type": "string"}},
    "set":     {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
    "ports":   {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}},
    "labels":  {"type": "object", "additionalProperties": {"type": "string"}},
    "granular":{"type": "object", "additionalProperties": {"type": "string"}, "x-kubernetes-map-type": "granular"},
    "amap":    {"type": "object", "additionalProperties": {"type": "string"}, "x-kubernetes-map-type": "atomic"},
    "astruct": {"type": "object", "x-kubernetes-map-type": "atomic", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}},
    "free":    {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
    "replicas":{"type": "integer"},
    "image":   {"type": "string"}
  }
}`

var widgetKind = scheme.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}

// widgetResource is a CRD version with widgetSpec.
func widgetResource(version string) openapi.Resource {
	return openapi.Resource{
		Group: "example.com", Version: version, Kind: "Widget", Plural: "widgets",
		SchemaJSON: []byte(`{"type":"object","properties":{"spec":` + widgetSpec + `,"status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}`),
	}
}

// newWidgetManager returns a FieldManager of Widgets in v1 with a clock
// that ticks a second per write.
func newWidgetManager(t *testing.T) *managedfields.FieldManager {
	t.Helper()
	models, err := openapi.Models([]openapi.Resource{widgetResource("v1")})
	if err != nil {
		t.Fatal(err)
	}
	tc, err := managedfields.NewTypeConverter(models, false)
	if err != nil {
		t.Fatal(err)
	}
	return newManagerWith(t, tc, widgetKind, "")
}

func newManagerWith(t *testing.T, tc managedfields.TypeConverter, gvk scheme.GroupVersionKind, sub string) *managedfields.FieldManager {
	t.Helper()
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	fm, err := managedfields.New(managedfields.Config{
		TypeConverter: tc, Kind: gvk, Subresource: sub,
		Now: func() time.Time { clock = clock.Add(time.Second); return clock },
	})
	if err != nil {
		t.Fatal(err)
	}
	return fm
}

// widget is a Widget named w with the given spec (YAML).
func widget(t *testing.T, spec string) *unstructured.Unstructured {
	t.Helper()
	return object(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: ns\nspec:\n"+indent(spec))
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

func object(t *testing.T, y string) *unstructured.Unstructured {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		t.Fatalf("%v in\n%s", err, y)
	}
	m, err := unstructured.DecodeJSONObject(j)
	if err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: m}
}

// specOf returns obj's spec as a comparable value (decoded from YAML the
// same way as widget's).
func specOf(t *testing.T, y string) any {
	t.Helper()
	if strings.TrimSpace(y) == "" {
		return nil
	}
	return object(t, "spec:\n"+indent(y)).Object["spec"]
}

type step struct {
	manager string
	apply   string // the applied spec (YAML)
	force   bool
	// want is the spec after the step; conflicts, if set, are the
	// conflicting fields the step must fail with ("field by manager"),
	// and the object stays as it was.
	want      string
	conflicts []string
}

func TestMergeSemantics(t *testing.T) {
	cases := []struct {
		name  string
		steps []step
	}{
		{"atomic list: another manager's list conflicts on the whole list", []step{
			{manager: "a", apply: "atomic: [x, q]", want: "atomic: [x, q]"},
			{manager: "b", apply: "atomic: [r]", conflicts: []string{`.spec.atomic by "a"`}},
			{manager: "b", apply: "atomic: [r]", force: true, want: "atomic: [r]"},
			// a lost the list: leaving it out removes nothing now.
			{manager: "a", apply: "image: i", want: "atomic: [r]\nimage: i"},
		}},
		{"atomic list: the same list applied twice is owned by both", []step{
			{manager: "a", apply: "atomic: [x, q]", want: "atomic: [x, q]"},
			{manager: "b", apply: "atomic: [x, q]", want: "atomic: [x, q]"},
			{manager: "a", apply: "image: i", want: "atomic: [x, q]\nimage: i"},
			{manager: "b", apply: "image: i", want: "image: i"},
		}},
		{"a list without x-kubernetes-list-type is atomic", []step{
			{manager: "a", apply: "plain: [x]", want: "plain: [x]"},
			{manager: "b", apply: "plain: [x, q]", conflicts: []string{`.spec.plain by "a"`}},
		}},
		{"set list: each manager owns its values", []step{
			{manager: "a", apply: "set: [x, q]", want: "set: [x, q]"},
			{manager: "b", apply: "set: [r]", want: "set: [x, q, r]"},
			{manager: "a", apply: "set: [x]", want: "set: [x, r]"},
			// A value both apply is removed only when both drop it (the
			// last applier's order wins).
			{manager: "b", apply: "set: [r, x]", want: "set: [r, x]"},
			{manager: "a", apply: "image: i", want: "set: [r, x]\nimage: i"},
			{manager: "b", apply: "set: [r]", want: "set: [r]\nimage: i"},
		}},
		{"map list: entries by key, fields within an entry by owner", []step{
			{manager: "a", apply: "ports: [{name: http, port: 80}]", want: "ports: [{name: http, port: 80}]"},
			{manager: "b", apply: "ports: [{name: grpc, port: 90}]", want: "ports: [{name: http, port: 80}, {name: grpc, port: 90}]"},
			{manager: "b", apply: "ports: [{name: grpc, port: 90}, {name: http, port: 81}]",
				conflicts: []string{`.spec.ports[name="http"].port by "a"`}},
			{manager: "a", apply: "image: i", want: "ports: [{name: grpc, port: 90}]\nimage: i"},
		}},
		{"granular map: each key has its owner", []step{
			{manager: "a", apply: "labels: {x: '1'}", want: "labels: {x: '1'}"},
			{manager: "b", apply: "labels: {q: '2'}", want: "labels: {x: '1', q: '2'}"},
			{manager: "b", apply: "labels: {q: '2', x: '3'}", conflicts: []string{`.spec.labels.x by "a"`}},
			{manager: "a", apply: "image: i", want: "labels: {q: '2'}\nimage: i"},
		}},
		{"x-kubernetes-map-type granular is the default", []step{
			{manager: "a", apply: "granular: {x: '1'}", want: "granular: {x: '1'}"},
			{manager: "b", apply: "granular: {q: '2'}", want: "granular: {x: '1', q: '2'}"},
		}},
		{"atomic map: one owner for the whole map", []step{
			{manager: "a", apply: "amap: {x: '1'}", want: "amap: {x: '1'}"},
			{manager: "b", apply: "amap: {q: '2'}", conflicts: []string{`.spec.amap by "a"`}},
			{manager: "b", apply: "amap: {q: '2'}", force: true, want: "amap: {q: '2'}"},
		}},
		{"atomic struct: one owner for all its fields", []step{
			{manager: "a", apply: "astruct: {a: '1'}", want: "astruct: {a: '1'}"},
			{manager: "b", apply: "astruct: {b: '2'}", conflicts: []string{`.spec.astruct by "a"`}},
		}},
		{"x-kubernetes-preserve-unknown-fields: maps granular, lists atomic", []step{
			{manager: "a", apply: "free: {m: {x: 1}, l: [1, 2]}", want: "free: {m: {x: 1}, l: [1, 2]}"},
			{manager: "b", apply: "free: {m: {q: 2}}", want: "free: {m: {x: 1, q: 2}, l: [1, 2]}"},
			{manager: "b", apply: "free: {l: [3]}", conflicts: []string{`.spec.free.l by "a"`}},
		}},
		{"a field left out is removed unless another manager owns it", []step{
			{manager: "a", apply: "replicas: 3\nimage: i", want: "replicas: 3\nimage: i"},
			{manager: "b", apply: "image: i", want: "replicas: 3\nimage: i"},
			{manager: "a", apply: "atomic: [x]", want: "atomic: [x]\nimage: i"},
		}},
		{"several conflicts are reported together", []step{
			{manager: "a", apply: "replicas: 3\nimage: i", want: "replicas: 3\nimage: i"},
			{manager: "b", apply: "replicas: 4\nimage: j", conflicts: []string{`.spec.image by "a"`, `.spec.replicas by "a"`}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fm := newWidgetManager(t)
			live := fm.NewEmptyObject()
			for i, s := range tc.steps {
				out, err := fm.Apply(live, widget(t, s.apply), s.manager, s.force)
				if s.conflicts != nil {
					got := conflictsOf(t, err)
					if !reflect.DeepEqual(got, s.conflicts) {
						t.Fatalf("step %d (%s applies %q): conflicts %q, want %q", i, s.manager, s.apply, got, s.conflicts)
					}
					continue
				}
				if err != nil {
					t.Fatalf("step %d (%s applies %q): %v", i, s.manager, s.apply, err)
				}
				if got, want := out.Object["spec"], specOf(t, s.want); !reflect.DeepEqual(got, want) {
					t.Fatalf("step %d (%s applies %q): spec %v, want %v", i, s.manager, s.apply, jsonOf(got), jsonOf(want))
				}
				out.SetUID("uid-1") // stored
				live = out
			}
		})
	}
}

// conflictsOf returns the FieldManagerConflict causes of a 409, as
// "field by manager", sorted.
func conflictsOf(t *testing.T, err error) []string {
	t.Helper()
	if !apierrors.IsConflict(err) {
		t.Fatalf("got %v, want a 409 Conflict", err)
	}
	var out []string
	for _, c := range apierrors.ToStatus(err).Details.Causes {
		if c.Type != "FieldManagerConflict" {
			t.Errorf("cause %+v is not a FieldManagerConflict", c)
		}
		out = append(out, c.Field+" by "+strings.TrimPrefix(c.Message, "conflict with "))
	}
	sort.Strings(out)
	return out
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
