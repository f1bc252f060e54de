package jsonpath_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/machinery/jsonpath"
)

// crontab is a custom resource as the server holds it: whole numbers are
// int64.
func crontab(t *testing.T) map[string]any {
	t.Helper()
	return map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata": map[string]any{
			"name": "my-cron",
			"labels": map[string]any{
				"app":                    "cron",
				"app.kubernetes.io/name": "crontab",
			},
			"annotations": map[string]any{"example.com/x": "yes"},
		},
		"spec": map[string]any{
			"cronSpec": "* * * * */5",
			"replicas": int64(3),
			"nothing":  nil,
			"items": []any{
				map[string]any{"name": "a", "port": int64(80)},
				map[string]any{"name": "b", "port": int64(443)},
				map[string]any{"name": "c"},
			},
		},
		"status": map[string]any{
			"conditions": []any{
				map[string]any{"type": "Ready", "status": "True"},
				map[string]any{"type": "Synced", "status": "False"},
			},
		},
	}
}

func TestExecute(t *testing.T) {
	tests := []struct {
		expr string
		want []any
	}{
		{".spec.replicas", []any{int64(3)}},
		{"{.spec.replicas}", []any{int64(3)}},
		{" { .spec.replicas } ", []any{int64(3)}},
		{"$.spec.replicas", []any{int64(3)}},
		{"{$.spec.replicas}", []any{int64(3)}},
		{".spec.cronSpec", []any{"* * * * */5"}},
		{".metadata.labels.app", []any{"cron"}},
		{`.metadata.annotations.example\.com/x`, []any{"yes"}},
		{`.metadata.annotations['example.com/x']`, []any{"yes"}},
		{`.metadata.annotations['example\.com/x']`, []any{"yes"}},
		{`.metadata.annotations["example.com/x"]`, []any{"yes"}},
		{`.metadata.labels['app.kubernetes.io/name']`, []any{"crontab"}},
		{`['metadata']['name']`, []any{"my-cron"}},
		{".status.conditions[0].type", []any{"Ready"}},
		{".status.conditions[-1].type", []any{"Synced"}},
		{".status.conditions[5].type", nil},
		{".spec.items[*].name", []any{"a", "b", "c"}},
		{".spec.items[*].port", []any{int64(80), int64(443)}},
		{".spec.items.*.name", []any{"a", "b", "c"}},
		{".spec.items[0:2].name", []any{"a", "b"}},
		{".spec.items[1:].name", []any{"b", "c"}},
		{".spec.items[:-1].name", []any{"a", "b"}},
		{".spec.items[::2].name", []any{"a", "c"}},
		{".metadata.labels.*", []any{"cron", "crontab"}},
		{".metadata.labels[*]", []any{"cron", "crontab"}},
		{`.status.conditions[?(@.type=="Ready")].status`, []any{"True"}},
		{`.status.conditions[?(@.type=='Ready')].status`, []any{"True"}},
		{`.status.conditions[?(@.type != "Ready")].type`, []any{"Synced"}},
		{`.spec.items[?(@.port>80)].name`, []any{"b"}},
		{`.spec.items[?(@.port<=443)].name`, []any{"a", "b"}},
		{`.spec.items[?(@.port==80.0)].name`, []any{"a"}},
		{`.spec.items[?(@.port)].name`, []any{"a", "b"}},
		{`.spec.items[?(@.name<"b")].name`, []any{"a"}},
		{`..name`, []any{"my-cron", "a", "b", "c"}},
		{`.spec..port`, []any{int64(80), int64(443)}},
		{`..conditions[1].type`, []any{"Synced"}},
		{".spec.missing", nil},
		{".spec.missing.deeper[0]", nil},
		{".spec.nothing", []any{nil}},
		{".spec.nothing.deeper", nil},
		{".metadata.name.deeper", nil},
		{".spec.items.name", nil},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			p, err := jsonpath.Parse(tt.expr)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got, err := p.Execute(crontab(t))
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestExecute_Root(t *testing.T) {
	for _, expr := range []string{".", "{.}", "$", "{$}"} {
		t.Run(expr, func(t *testing.T) {
			p, err := jsonpath.Parse(expr)
			if err != nil {
				t.Fatal(err)
			}
			obj := map[string]any{"a": int64(1)}
			got, err := p.Execute(obj)
			if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], obj) {
				t.Errorf("got %v, %v", got, err)
			}
			if p.String() != "." {
				t.Errorf("String() = %q", p.String())
			}
		})
	}
}

func TestExecute_Errors(t *testing.T) {
	tests := []struct{ expr, msg string }{
		{".metadata[0]", "map[string]interface {} is not array or slice"},
		{".metadata.name[0:1]", "string is not array or slice"},
		{".metadata[?(@.x)]", "map[string]interface {} is not array or slice and cannot be filtered"},
		{".status.conditions[?(@.*=='x')]", "can only compare one element at a time"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			p, err := jsonpath.Parse(tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Execute(crontab(t)); err == nil || err.Error() != tt.msg {
				t.Errorf("err = %v, want %s", err, tt.msg)
			}
		})
	}
}

func TestParse_Errors(t *testing.T) {
	tests := []struct{ expr, msg string }{
		{"", `error parsing "" at 0: empty expression`},
		{"{}", `error parsing "{}" at 2: empty expression`},
		{"spec", `error parsing "spec" at 0: unrecognized character in action: 's'`},
		{"{.spec", `error parsing "{.spec" at 6: unclosed action`},
		{".spec}", `error parsing ".spec}" at 5: unrecognized character in action: '}'`},
		{".spec[", `error parsing ".spec[" at 6: invalid array index `},
		{".spec[0", `error parsing ".spec[0" at 7: unterminated array`},
		{".spec[x]", `error parsing ".spec[x]" at 6: invalid array index x`},
		{".spec[1:2:3:4]", `error parsing ".spec[1:2:3:4]" at 6: invalid array index 1:2:3:4`},
		{".spec[::0]", `error parsing ".spec[::0]" at 6: step must be > 0`},
		{".spec['x]", `error parsing ".spec['x]" at 9: unterminated quoted string`},
		{".spec[?(@.x==", `error parsing ".spec[?(@.x==" at 13: unterminated filter`},
		{".spec[?(@.x=='a']", `error parsing ".spec[?(@.x=='a']" at 16: unrecognized character in filter: ']'`},
		{".spec[?@.x]", `error parsing ".spec[?@.x]" at 7: unrecognized character in filter: '@', expected '('`},
		{".spec[?(@.x==-)]", `error parsing ".spec[?(@.x==-)]" at 13: invalid number "-"`},
		{".spec[?(x)]", `error parsing ".spec[?(x)]" at 8: unrecognized character in filter: 'x'`},
		{".a..", `error parsing ".a.." at 4: missing field name`},
		{".a b", `error parsing ".a b" at 3: unrecognized character in action: 'b'`},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			p, err := jsonpath.Parse(tt.expr)
			if err == nil {
				t.Fatalf("Parse = %v, want an error", p)
			}
			if err.Error() != tt.msg {
				t.Errorf("error\n got: %s\nwant: %s", err, tt.msg)
			}
			if !errors.Is(err, jsonpath.ErrInvalidExpression) {
				t.Error("errors.Is(err, ErrInvalidExpression) = false")
			}
		})
	}
}

func TestJSONPath_String(t *testing.T) {
	tests := []struct{ in, want string }{
		{".spec.replicas", ".spec.replicas"},
		{"{.spec.replicas}", ".spec.replicas"},
		{"$.a", ".a"},
		{`.metadata.annotations.example\.com/x`, `.metadata.annotations['example.com/x']`},
		{`['it\'s']`, `['it\'s']`},
		{`.a[*].b`, `.a[*].b`},
		{`.a.*`, `.a[*]`},
		{`.a[-1]`, `.a[-1]`},
		{`.a[1:]`, `.a[1:]`},
		{`.a[:2:1]`, `.a[:2:1]`},
		{`..name`, `..name`},
		{`..['a b']`, `..['a b']`},
		{`..[0]`, `..[0]`},
		{`.a[?(@.type == "Ready")].status`, `.a[?(@.type=='Ready')].status`},
		{`.a[?(@.n >= 1.5)]`, `.a[?(@.n>=1.5)]`},
		{`.a[?(@.ok==true)]`, `.a[?(@.ok==true)]`},
		{`.a[?(@.x)]`, `.a[?(@.x)]`},
		{`.a[?(@==@.b)]`, `.a[?(@==@.b)]`},
		{`.[0]`, `[0]`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, err := jsonpath.Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			again, err := jsonpath.Parse(p.String())
			if err != nil || again.String() != p.String() {
				t.Errorf("round trip of %q: %v, %v", p.String(), again, err)
			}
		})
	}
}

func TestExecuteValue_DecodedJSON(t *testing.T) {
	var v any
	if err := json.Unmarshal([]byte(`{"a":[{"n":1},{"n":2.5}]}`), &v); err != nil {
		t.Fatal(err)
	}
	p, _ := jsonpath.Parse(`.a[?(@.n>1)].n`)
	got, err := p.ExecuteValue(v)
	if err != nil || !reflect.DeepEqual(got, []any{2.5}) {
		t.Errorf("got %v, %v", got, err)
	}
}
