package v1

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

// MarshalJSON writes s exactly as encoding/json writes the struct (fields
// in declaration order, omitempty, map keys sorted, <, > and & escaped),
// but in one pass over the whole tree.
//
// Without it every items, additionalProperties and dependencies value is
// marshalled by a nested json.Marshal whose output the enclosing encoder
// scans and compacts again, so a schema costs its size times its nesting
// depth: a provider CRD of 265 KB took ~25 ms to encode, and a CRD is
// encoded on every write, watch event and response.
// TestMarshalJSON_SameBytes compares the output with the plain struct's.
func (s JSONSchemaProps) MarshalJSON() ([]byte, error) {
	return s.AppendJSON(make([]byte, 0, 256))
}

// AppendJSON appends what MarshalJSON returns to dst: a caller writing
// many schemas (an OpenAPI document of a group's CRDs) grows one buffer
// instead of one per schema, and spares encoding/json's copy of each.
func (s *JSONSchemaProps) AppendJSON(dst []byte) ([]byte, error) {
	w := schemaWriter{out: dst}
	if err := w.props(s); err != nil {
		return dst, err
	}
	return w.out, nil
}

// MarshalsAsFields says MarshalJSON writes the struct's own fields (as
// encoding/json would), so the type's OpenAPI schema is its fields'
// (machinery/openapi).
func (JSONSchemaProps) MarshalsAsFields() {}

// minRoom is the spare room schemaWriter.object makes before each
// object: more than most objects' fields (descriptions included) take.
const minRoom = 4 << 10

// schemaWriter appends JSON to out; scratch is reused for raw values.
type schemaWriter struct {
	out     []byte
	scratch bytes.Buffer
	// comma is whether the object being written has a field already.
	comma bool
}

// key starts a field of the current object.
func (w *schemaWriter) key(name string) {
	if w.comma {
		w.out = append(w.out, ',')
	}
	w.comma = true
	w.out = unstructured.AppendString(w.out, name)
	w.out = append(w.out, ':')
}

func (w *schemaWriter) str(name, v string) {
	if v != "" {
		w.key(name)
		w.out = unstructured.AppendString(w.out, v)
	}
}

func (w *schemaWriter) strPtr(name string, v *string) {
	if v != nil {
		w.key(name)
		w.out = unstructured.AppendString(w.out, *v)
	}
}

func (w *schemaWriter) boolean(name string, v bool) {
	if v {
		w.key(name)
		w.out = append(w.out, "true"...)
	}
}

func (w *schemaWriter) boolPtr(name string, v *bool) {
	if v != nil {
		w.key(name)
		w.out = strconv.AppendBool(w.out, *v)
	}
}

func (w *schemaWriter) intPtr(name string, v *int64) {
	if v != nil {
		w.key(name)
		w.out = strconv.AppendInt(w.out, *v, 10)
	}
}

// floatPtr writes a float as encoding/json does (its own formatting and
// its error for NaN and infinities).
func (w *schemaWriter) floatPtr(name string, v *float64) error {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(*v)
	if err != nil {
		return err
	}
	w.key(name)
	w.out = append(w.out, b...)
	return nil
}

func (w *schemaWriter) strings(name string, v []string) {
	if len(v) == 0 {
		return
	}
	w.key(name)
	w.stringList(v)
}

func (w *schemaWriter) stringList(v []string) {
	if v == nil {
		w.out = append(w.out, "null"...)
		return
	}
	w.out = append(w.out, '[')
	for i, s := range v {
		if i > 0 {
			w.out = append(w.out, ',')
		}
		w.out = unstructured.AppendString(w.out, s)
	}
	w.out = append(w.out, ']')
}

// raw writes a JSON value as encoding/json writes a Marshaler's output:
// null when empty, else compacted with <, > and & escaped.
func (w *schemaWriter) raw(v JSON) error {
	if len(v.Raw) == 0 {
		w.out = append(w.out, "null"...)
		return nil
	}
	w.scratch.Reset()
	if err := json.Compact(&w.scratch, v.Raw); err != nil {
		return err
	}
	if bytes.ContainsAny(w.scratch.Bytes(), "<>&\u2028\u2029") {
		var esc bytes.Buffer
		json.HTMLEscape(&esc, w.scratch.Bytes())
		w.out = append(w.out, esc.Bytes()...)
		return nil
	}
	w.out = append(w.out, w.scratch.Bytes()...)
	return nil
}

// object writes a nested object: fields writes its fields.
func (w *schemaWriter) object(fields func() error) error {
	outer := w.comma
	w.comma = false
	if cap(w.out)-len(w.out) < minRoom {
		// Double, where append would grow a large buffer by a quarter
		// at a time: a provider's schema of 170 KB then allocated five
		// times its size on the way.
		w.out = slices.Grow(w.out, max(cap(w.out), minRoom))
	}
	w.out = append(w.out, '{')
	err := fields()
	w.out = append(w.out, '}')
	w.comma = outer
	return err
}

// schemaOrNull writes a schema, or null for a nil one.
func (w *schemaWriter) schemaOrNull(s *JSONSchemaProps) error {
	if s == nil {
		w.out = append(w.out, "null"...)
		return nil
	}
	return w.props(s)
}

func (w *schemaWriter) schemaList(v []JSONSchemaProps) error {
	if v == nil {
		w.out = append(w.out, "null"...)
		return nil
	}
	w.out = append(w.out, '[')
	for i := range v {
		if i > 0 {
			w.out = append(w.out, ',')
		}
		if err := w.props(&v[i]); err != nil {
			return err
		}
	}
	w.out = append(w.out, ']')
	return nil
}

func (w *schemaWriter) schemas(name string, v []JSONSchemaProps) error {
	if len(v) == 0 {
		return nil
	}
	w.key(name)
	return w.schemaList(v)
}

// inKeyOrder calls fn for m's entries in encoding/json's order (keys
// sorted).
func inKeyOrder[V any](m map[string]V, fn func(k string, v V) error) error {
	if len(m) == 1 {
		for k, v := range m {
			return fn(k, v)
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := fn(k, m[k]); err != nil {
			return err
		}
	}
	return nil
}

func (w *schemaWriter) schemaMap(name string, m map[string]JSONSchemaProps) error {
	if len(m) == 0 {
		return nil
	}
	w.key(name)
	return w.object(func() error {
		return inKeyOrder(m, func(k string, v JSONSchemaProps) error {
			w.key(k)
			return w.props(&v)
		})
	})
}

// orBool writes a JSONSchemaPropsOrBool as its MarshalJSON does.
func (w *schemaWriter) orBool(name string, v *JSONSchemaPropsOrBool) error {
	if v == nil {
		return nil
	}
	w.key(name)
	if v.Schema != nil {
		return w.props(v.Schema)
	}
	w.out = strconv.AppendBool(w.out, v.Allows)
	return nil
}

// props writes one schema's fields in the struct's order.
func (w *schemaWriter) props(s *JSONSchemaProps) error {
	return w.object(func() error {
		w.str("id", s.ID)
		w.str("$schema", string(s.Schema))
		w.strPtr("$ref", s.Ref)
		w.str("description", s.Description)
		w.str("type", s.Type)
		w.str("format", s.Format)
		w.str("title", s.Title)
		if s.Default != nil {
			w.key("default")
			if err := w.raw(*s.Default); err != nil {
				return err
			}
		}
		if err := w.floatPtr("maximum", s.Maximum); err != nil {
			return err
		}
		w.boolean("exclusiveMaximum", s.ExclusiveMaximum)
		if err := w.floatPtr("minimum", s.Minimum); err != nil {
			return err
		}
		w.boolean("exclusiveMinimum", s.ExclusiveMinimum)
		w.intPtr("maxLength", s.MaxLength)
		w.intPtr("minLength", s.MinLength)
		w.str("pattern", s.Pattern)
		w.intPtr("maxItems", s.MaxItems)
		w.intPtr("minItems", s.MinItems)
		w.boolean("uniqueItems", s.UniqueItems)
		if err := w.floatPtr("multipleOf", s.MultipleOf); err != nil {
			return err
		}
		if len(s.Enum) > 0 {
			w.key("enum")
			w.out = append(w.out, '[')
			for i, e := range s.Enum {
				if i > 0 {
					w.out = append(w.out, ',')
				}
				if err := w.raw(e); err != nil {
					return err
				}
			}
			w.out = append(w.out, ']')
		}
		w.intPtr("maxProperties", s.MaxProperties)
		w.intPtr("minProperties", s.MinProperties)
		w.strings("required", s.Required)
		if s.Items != nil {
			w.key("items")
			var err error
			if len(s.Items.JSONSchemas) > 0 {
				err = w.schemaList(s.Items.JSONSchemas)
			} else {
				err = w.schemaOrNull(s.Items.Schema)
			}
			if err != nil {
				return err
			}
		}
		if err := w.schemas("allOf", s.AllOf); err != nil {
			return err
		}
		if err := w.schemas("oneOf", s.OneOf); err != nil {
			return err
		}
		if err := w.schemas("anyOf", s.AnyOf); err != nil {
			return err
		}
		if s.Not != nil {
			w.key("not")
			if err := w.props(s.Not); err != nil {
				return err
			}
		}
		if err := w.schemaMap("properties", s.Properties); err != nil {
			return err
		}
		if err := w.orBool("additionalProperties", s.AdditionalProperties); err != nil {
			return err
		}
		if err := w.schemaMap("patternProperties", s.PatternProperties); err != nil {
			return err
		}
		if len(s.Dependencies) > 0 {
			w.key("dependencies")
			err := w.object(func() error {
				return inKeyOrder(s.Dependencies, func(k string, v JSONSchemaPropsOrStringArray) error {
					w.key(k)
					if len(v.Property) > 0 {
						w.stringList(v.Property)
						return nil
					}
					return w.schemaOrNull(v.Schema)
				})
			})
			if err != nil {
				return err
			}
		}
		if err := w.orBool("additionalItems", s.AdditionalItems); err != nil {
			return err
		}
		if err := w.schemaMap("definitions", s.Definitions); err != nil {
			return err
		}
		if s.ExternalDocs != nil {
			w.key("externalDocs")
			w.object(func() error { //nolint:errcheck // writes no error
				w.str("description", s.ExternalDocs.Description)
				w.str("url", s.ExternalDocs.URL)
				return nil
			})
		}
		if s.Example != nil {
			w.key("example")
			if err := w.raw(*s.Example); err != nil {
				return err
			}
		}
		w.boolean("nullable", s.Nullable)
		w.boolPtr("x-kubernetes-preserve-unknown-fields", s.XPreserveUnknownFields)
		w.boolean("x-kubernetes-embedded-resource", s.XEmbeddedResource)
		w.boolean("x-kubernetes-int-or-string", s.XIntOrString)
		w.strings("x-kubernetes-list-map-keys", s.XListMapKeys)
		w.strPtr("x-kubernetes-list-type", s.XListType)
		w.strPtr("x-kubernetes-map-type", s.XMapType)
		if len(s.XValidations) > 0 {
			w.key("x-kubernetes-validations")
			w.out = append(w.out, '[')
			for i := range s.XValidations {
				if i > 0 {
					w.out = append(w.out, ',')
				}
				r := &s.XValidations[i]
				w.object(func() error { //nolint:errcheck // writes no error
					w.key("rule")
					w.out = unstructured.AppendString(w.out, r.Rule)
					w.str("message", r.Message)
					w.str("messageExpression", r.MessageExpression)
					if r.Reason != nil {
						w.key("reason")
						w.out = unstructured.AppendString(w.out, string(*r.Reason))
					}
					w.str("fieldPath", r.FieldPath)
					w.boolPtr("optionalOldSelf", r.OptionalOldSelf)
					return nil
				})
			}
			w.out = append(w.out, ']')
		}
		return nil
	})
}

// placeholderNonce makes the placeholders AppendJSON puts where the
// schemas go unlike anything a CRD holds.
var placeholderNonce = strconv.FormatUint(rand.Uint64(), 36)

// AppendJSON appends what json.Marshal writes for crd. The schemas are
// written by JSONSchemaProps' writer straight into the output: through
// json.Marshal, encoding/json would scan and compact each schema's
// MarshalJSON output once more (a tenth of the CPU a CRD's writes and
// watch events cost). Servers and codecs prefer it to json.Marshal
// (responsewriters.JSONAppender, scheme.CodecFactory.Encode).
// TestAppendJSON_SameBytes compares the two.
func (crd *CustomResourceDefinition) AppendJSON(dst []byte) ([]byte, error) {
	// plain has the fields and none of the methods, so encoding/json
	// writes it field by field.
	type plain CustomResourceDefinition
	cp := plain(*crd)
	cp.Spec.Versions = slices.Clone(crd.Spec.Versions)
	var schemas []*JSONSchemaProps
	for i := range cp.Spec.Versions {
		v := &cp.Spec.Versions[i]
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		val := *v.Schema
		schemas = append(schemas, val.OpenAPIV3Schema)
		val.OpenAPIV3Schema = &JSONSchemaProps{ID: placeholderNonce + strconv.Itoa(len(schemas)-1)}
		v.Schema = &val
	}
	b, err := json.Marshal(&cp)
	if err != nil {
		return dst, err
	}
	if len(schemas) == 0 {
		return append(dst, b...), nil
	}
	if bytes.Count(b, []byte(placeholderNonce)) != len(schemas) {
		// The CRD itself holds the nonce: write it the slow way.
		b, err := json.Marshal(crd)
		return append(dst, b...), err
	}
	w := schemaWriter{out: slices.Grow(dst, len(b)+len(schemas)*(64<<10))}
	for i, s := range schemas {
		mark := []byte(`{"id":"` + placeholderNonce + strconv.Itoa(i) + `"}`)
		at := bytes.Index(b, mark)
		if at < 0 {
			b, err := json.Marshal(crd)
			return append(dst, b...), err
		}
		w.out = append(w.out, b[:at]...)
		w.comma = false
		if err := w.props(s); err != nil {
			return dst, err
		}
		b = b[at+len(mark):]
	}
	return append(w.out, b...), nil
}
