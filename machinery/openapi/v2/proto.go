package v2

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// The media types of the protobuf document. Clients ask for either;
// the server answers with MediaTypeProtobuf, which mime.ParseMediaType
// (and so client-go, which parses every response's Content-Type) accepts:
// the '@' of the older name is not a token character.
//
// Mirrors subTypeProtobuf and subTypeProtobufDeprecated in
// k8s.io/kube-openapi/pkg/handler/handler.go.
const (
	MediaTypeProtobuf           = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"
	MediaTypeProtobufDeprecated = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"
)

// ToProto encodes d as the protobuf message openapi.v2.Document. Map keys
// are written in sorted order, so equal documents encode to equal bytes.
//
// Mirrors what kube-openapi's handler does with gnostic (ToProtoBinary):
// the JSON document read into openapi_v2.Document, then proto.Marshal.
// Field numbers are those of gnostic-models' OpenAPIv2.proto.
func ToProto(d *Document) ([]byte, error) {
	var e enc
	e.str(1, d.Swagger)
	e.msg(2, func(e *enc) { e.str(1, d.Info.Title); e.str(2, d.Info.Version) })
	e.msg(8, func(e *enc) { // Paths
		for _, path := range slices.Sorted(maps.Keys(d.Paths)) {
			e.msg(2, func(e *enc) { // NamedPathItem
				e.str(1, path)
				e.msg(2, func(e *enc) { e.pathItem(d.Paths[path]) })
			})
		}
	})
	e.msg(9, func(e *enc) { // Definitions
		for _, name := range slices.Sorted(maps.Keys(d.Definitions)) {
			e.msg(1, func(e *enc) { e.str(1, name); e.msg(2, func(e *enc) { e.schema(d.Definitions[name]) }) })
		}
	})
	return e.b, e.err
}

// enc appends protobuf fields to b; the first error sticks.
type enc struct {
	b   []byte
	err error
}

func (e *enc) tag(field, wire int) { e.b = binary.AppendUvarint(e.b, uint64(field<<3|wire)) }

func (e *enc) str(field int, s string) {
	if s == "" {
		return
	}
	e.tag(field, 2)
	e.b = binary.AppendUvarint(e.b, uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *enc) boolean(field int, v bool) {
	if v {
		e.tag(field, 0)
		e.b = append(e.b, 1)
	}
}

func (e *enc) int64(field int, v int64) {
	if v != 0 {
		e.tag(field, 0)
		e.b = binary.AppendUvarint(e.b, uint64(v))
	}
}

func (e *enc) double(field int, v float64) {
	if v != 0 {
		e.tag(field, 1)
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v))
	}
}

// msg writes an embedded message built by fill (written even if empty:
// an empty message is still present, as for a oneof).
func (e *enc) msg(field int, fill func(e *enc)) {
	var inner enc
	fill(&inner)
	if inner.err != nil && e.err == nil {
		e.err = inner.err
	}
	e.tag(field, 2)
	e.b = binary.AppendUvarint(e.b, uint64(len(inner.b)))
	e.b = append(e.b, inner.b...)
}

// anyYAML writes an Any holding v as YAML (JSON is YAML).
func (e *enc) anyYAML(field int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		e.err = err
		return
	}
	e.msg(field, func(e *enc) { e.str(2, string(b)) })
}

// extensions writes the x-* keys of m as NamedAny.
func (e *enc) extensions(field int, m map[string]any) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if strings.HasPrefix(k, "x-") {
			e.msg(field, func(e *enc) { e.str(1, k); e.anyYAML(2, m[k]) })
		}
	}
}

func (e *enc) strings(field int, v any) {
	switch l := v.(type) {
	case []string:
		for _, s := range l {
			e.str(field, s)
		}
	case []any:
		for _, s := range l {
			if str, ok := s.(string); ok {
				e.str(field, str)
			}
		}
	}
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }
func flag(m map[string]any, k string) bool  { b, _ := m[k].(bool); return b }

func num(m map[string]any, k string) float64 {
	switch n := m[k].(type) {
	case float64:
		return n
	case json.Number:
		f, _ := n.Float64()
		return f
	case int:
		return float64(n)
	case int64:
		return float64(n)
	}
	return 0
}

// schema writes openapi.v2.Schema.
func (e *enc) schema(s any) {
	m, ok := s.(map[string]any)
	if !ok {
		e.err = fmt.Errorf("openapi v2: a schema is a %T, not an object", s)
		return
	}
	e.str(1, str(m, "$ref"))
	e.str(2, str(m, "format"))
	e.str(3, str(m, "title"))
	e.str(4, str(m, "description"))
	if d, ok := m["default"]; ok {
		e.anyYAML(5, d)
	}
	e.double(6, num(m, "multipleOf"))
	e.double(7, num(m, "maximum"))
	e.boolean(8, flag(m, "exclusiveMaximum"))
	e.double(9, num(m, "minimum"))
	e.boolean(10, flag(m, "exclusiveMinimum"))
	e.int64(11, int64(num(m, "maxLength")))
	e.int64(12, int64(num(m, "minLength")))
	e.str(13, str(m, "pattern"))
	e.int64(14, int64(num(m, "maxItems")))
	e.int64(15, int64(num(m, "minItems")))
	e.boolean(16, flag(m, "uniqueItems"))
	e.int64(17, int64(num(m, "maxProperties")))
	e.int64(18, int64(num(m, "minProperties")))
	e.strings(19, m["required"])
	if enum, ok := m["enum"].([]any); ok {
		for _, v := range enum {
			e.anyYAML(20, v)
		}
	}
	switch ap := m["additionalProperties"].(type) {
	case map[string]any:
		e.msg(21, func(e *enc) { e.msg(1, func(e *enc) { e.schema(ap) }) })
	case bool:
		// A oneof's bool is written even when false.
		e.msg(21, func(e *enc) {
			e.tag(2, 0)
			if ap {
				e.b = append(e.b, 1)
			} else {
				e.b = append(e.b, 0)
			}
		})
	}
	if t, ok := m["type"]; ok {
		e.msg(22, func(e *enc) {
			if s, ok := t.(string); ok {
				e.str(1, s)
			} else {
				e.strings(1, t)
			}
		})
	}
	if items, ok := m["items"]; ok && items != nil {
		e.msg(23, func(e *enc) {
			if list, ok := items.([]any); ok {
				for _, it := range list {
					e.msg(1, func(e *enc) { e.schema(it) })
				}
				return
			}
			e.msg(1, func(e *enc) { e.schema(items) })
		})
	}
	if props, ok := m["properties"].(map[string]any); ok {
		e.msg(25, func(e *enc) {
			for _, name := range slices.Sorted(maps.Keys(props)) {
				e.msg(1, func(e *enc) { e.str(1, name); e.msg(2, func(e *enc) { e.schema(props[name]) }) })
			}
		})
	}
	e.boolean(27, flag(m, "readOnly"))
	if ex, ok := m["example"]; ok {
		e.anyYAML(30, ex)
	}
	e.extensions(31, m)
}

// pathItem writes openapi.v2.PathItem.
func (e *enc) pathItem(p map[string]any) {
	for field, method := range []string{2: "get", 3: "put", 4: "post", 5: "delete", 6: "options", 7: "head", 8: "patch"} {
		if op, ok := p[method].(map[string]any); ok {
			e.msg(field, func(e *enc) { e.operation(op) })
		}
	}
	e.parameters(9, p["parameters"])
	e.extensions(10, p)
}

// operation writes openapi.v2.Operation.
func (e *enc) operation(op map[string]any) {
	e.strings(1, op["tags"])
	e.str(2, str(op, "summary"))
	e.str(3, str(op, "description"))
	e.str(5, str(op, "operationId"))
	e.strings(6, op["produces"])
	e.strings(7, op["consumes"])
	e.parameters(8, op["parameters"])
	if rs, ok := op["responses"].(map[string]any); ok {
		e.msg(9, func(e *enc) { // Responses
			for _, code := range slices.Sorted(maps.Keys(rs)) {
				r, _ := rs[code].(map[string]any)
				e.msg(1, func(e *enc) { // NamedResponseValue
					e.str(1, code)
					e.msg(2, func(e *enc) { // ResponseValue
						e.msg(1, func(e *enc) { // Response
							e.str(1, str(r, "description"))
							if s, ok := r["schema"]; ok && s != nil {
								e.msg(2, func(e *enc) { e.msg(1, func(e *enc) { e.schema(s) }) })
							}
						})
					})
				})
			}
		})
	}
	e.strings(10, op["schemes"])
	e.boolean(11, flag(op, "deprecated"))
	e.extensions(13, op)
}

// parameters writes a list of ParametersItem: a body parameter, or a
// query or path one.
func (e *enc) parameters(field int, v any) {
	list, _ := v.([]any)
	for _, p := range list {
		m, ok := p.(map[string]any)
		if !ok {
			continue
		}
		e.msg(field, func(e *enc) { // ParametersItem
			e.msg(1, func(e *enc) { // Parameter
				if str(m, "in") == "body" {
					e.msg(1, func(e *enc) { // BodyParameter
						e.str(1, str(m, "description"))
						e.str(2, str(m, "name"))
						e.str(3, "body")
						e.boolean(4, flag(m, "required"))
						e.msg(5, func(e *enc) { e.schema(m["schema"]) })
					})
					return
				}
				e.msg(2, func(e *enc) { // NonBodyParameter
					sub := 3 // QueryParameterSubSchema
					if str(m, "in") == "path" {
						sub = 4 // PathParameterSubSchema
					}
					e.msg(sub, func(e *enc) {
						e.boolean(1, flag(m, "required"))
						e.str(2, str(m, "in"))
						e.str(3, str(m, "description"))
						e.str(4, str(m, "name"))
						if sub == 3 {
							e.str(6, str(m, "type"))
							e.boolean(20, flag(m, "uniqueItems"))
						} else {
							e.str(5, str(m, "type"))
							e.boolean(19, flag(m, "uniqueItems"))
						}
					})
				})
			})
		})
	}
}
