package v1

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SplitJSON reads the schemas (spec.versions[*].schema.openAPIV3Schema)
// out of data, a CRD's JSON, with a parser of its own, and returns data
// with each replaced by null: decoding rest with encoding/json into crd
// and then calling fill gives what decoding data gives, in a fraction of
// the time (encoding/json reads a schema's items and additionalProperties
// again at each level of nesting through their UnmarshalJSON).
//
// ok is false, and data must be decoded whole, unless data is the plain
// case: no key on the way to a schema repeated or spelled another way, and
// every schema made only of the fields encoding/json would fill, with
// values of their types (no unknown keys, no null list items). fill
// reports false if the decoded object has no place for a schema (then
// decode data whole too). scheme's decoders and the client use it
// (scheme.DecodeJSON); TestSplitJSON_SameObject compares the two ways.
func (crd *CustomResourceDefinition) SplitJSON(data []byte) (rest []byte, fill func() bool, ok bool) {
	r := &jsonReader{data: data}
	var spans [][2]int
	var at []int
	found := r.path([]string{"spec", "versions"}, func() bool {
		if r.next() != '[' {
			return r.skip()
		}
		r.pos++
		for i := 0; ; i++ {
			if r.next() == ']' && i == 0 {
				r.pos++
				return true
			}
			start := len(spans)
			if !r.path([]string{"schema", "openAPIV3Schema"}, func() bool {
				if r.next() != '{' {
					return r.skip()
				}
				s := r.pos
				if !r.skip() {
					return false
				}
				spans = append(spans, [2]int{s, r.pos})
				return true
			}) {
				return false
			}
			for range len(spans) - start {
				at = append(at, i)
			}
			if more, ok := r.more(']'); !ok || !more {
				return ok
			}
		}
	})
	if !found || len(spans) == 0 {
		return nil, nil, false
	}
	schemas := make([]*JSONSchemaProps, len(spans))
	rest = make([]byte, 0, 256+len(data)-(spans[len(spans)-1][1]-spans[0][0]))
	last := 0
	for i, sp := range spans {
		p := &schemaReader{jsonReader: jsonReader{data: data[:sp[1]], pos: sp[0]}}
		schemas[i] = &JSONSchemaProps{}
		if !p.props(schemas[i]) || p.pos != sp[1] {
			return nil, nil, false
		}
		rest = append(rest, data[last:sp[0]]...)
		rest = append(rest, "null"...)
		last = sp[1]
	}
	rest = append(rest, data[last:]...)
	return rest, func() bool {
		for i, s := range schemas {
			v := at[i]
			if v >= len(crd.Spec.Versions) || crd.Spec.Versions[v].Schema == nil || crd.Spec.Versions[v].Schema.OpenAPIV3Schema != nil {
				return false
			}
			crd.Spec.Versions[v].Schema.OpenAPIV3Schema = s
		}
		return true
	}, true
}

// jsonReader walks JSON text. Its methods return false on anything they
// do not expect; validity is the caller's to check.
type jsonReader struct {
	data []byte
	pos  int
}

// next skips white space and returns the next byte (0 at the end).
func (r *jsonReader) next() byte {
	for r.pos < len(r.data) {
		switch c := r.data[r.pos]; c {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return c
		}
	}
	return 0
}

// more reads what follows a member or an item: a ',' (more follows) or
// end (the object or list ends). ok is false for anything else.
func (r *jsonReader) more(end byte) (more, ok bool) {
	switch r.next() {
	case ',':
		r.pos++
		return true, true
	case end:
		r.pos++
		return false, true
	}
	return false, false
}

// expect consumes byte c after white space.
func (r *jsonReader) expect(c byte) bool {
	if r.next() != c {
		return false
	}
	r.pos++
	return true
}

// stringEnd returns the index after the string starting at r.pos, and
// whether it holds only printable ASCII without escapes.
func (r *jsonReader) stringEnd() (end int, plain bool) {
	plain = true
	for i := r.pos + 1; i < len(r.data); i++ {
		switch c := r.data[i]; {
		case c == '"':
			return i + 1, plain
		case c == '\\':
			plain = false
			i++
		case c < 0x20 || c >= utf8.RuneSelf:
			plain = false
		}
	}
	return -1, false
}

// str reads a string as encoding/json does.
func (r *jsonReader) str() (string, bool) {
	if r.next() != '"' {
		return "", false
	}
	end, plain := r.stringEnd()
	if end < 0 {
		return "", false
	}
	raw := r.data[r.pos:end]
	r.pos = end
	if plain {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// skipString returns the index after the string starting at data[pos]
// (a '"'), as stringEnd finds it, or -1: the next quote not escaped by an
// odd run of backslashes before it, found with bytes.IndexByte rather
// than byte by byte. A schema's JSON is mostly descriptions, and finding
// where a stored spec ends (SpecSpan, for every read and write of a CRD
// with a remembered spec) went over them all byte by byte: 3 ms per
// real-size CRD's way to Established. FuzzSkipString compares it with
// stringEnd.
func skipString(data []byte, pos int) int {
	for i := pos + 1; ; {
		j := bytes.IndexByte(data[i:], '"')
		if j < 0 {
			return -1
		}
		q := i + j
		run := 0
		for b := q - 1; b > pos && data[b] == '\\'; b-- {
			run++
		}
		if run%2 == 0 {
			return q + 1
		}
		i = q + 1
	}
}

// skip moves past one value (not checking it beyond strings and nesting).
// It runs over every byte of a stored CRD each time the storage codec
// looks for its spec (SpecSpan): one loop over the bytes, with a table
// for what ends a number or a literal.
func (r *jsonReader) skip() bool {
	data, i, depth := r.data, r.pos, 0
	for i < len(data) {
		switch c := data[i]; c {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		case '"':
			end := skipString(data, i)
			if end < 0 {
				r.pos = i
				return false
			}
			i = end
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
			if depth < 0 {
				r.pos = i
				return false
			}
		case ',', ':':
			if depth == 0 {
				r.pos = i
				return false
			}
			i++
		default:
			for i < len(data) && !endsScalar[data[i]] {
				i++
			}
		}
		if depth == 0 {
			r.pos = i
			return true
		}
	}
	r.pos = i
	return false
}

// endsScalar holds the bytes that end a number or a literal.
var endsScalar = [256]bool{' ': true, '\t': true, '\r': true, '\n': true, ',': true, ':': true, ']': true, '}': true, '[': true, '{': true, '"': true}

// path moves through the object at r.pos to keys[0], then keys[1] in
// its value…, and calls at with r.pos at the last key's value; a value on
// the way that is not an object is skipped. It returns false when a key
// on the way is repeated or matches only as encoding/json matches
// (another case, an escape), or the text is not what it expects.
func (r *jsonReader) path(keys []string, at func() bool) bool {
	if len(keys) == 0 {
		return at()
	}
	if r.next() != '{' {
		return r.skip()
	}
	r.pos++
	seen := false
	for first := true; ; first = false {
		if r.next() == '}' && first {
			r.pos++
			return true
		}
		if r.next() != '"' {
			return false
		}
		end, plain := r.stringEnd()
		if end < 0 {
			return false
		}
		key := string(r.data[r.pos+1 : end-1])
		r.pos = end
		if !r.expect(':') {
			return false
		}
		switch {
		case key == keys[0] && plain:
			if seen {
				return false
			}
			seen = true
			if !r.path(keys[1:], at) {
				return false
			}
		case !plain || strings.EqualFold(key, keys[0]):
			return false
		default:
			if !r.skip() {
				return false
			}
		}
		if more, ok := r.more('}'); !ok || !more {
			return ok
		}
	}
}

// schemaReader reads a JSONSchemaProps as encoding/json fills one, or
// returns false.
type schemaReader struct {
	jsonReader
	// spare are zeroed schemas for schemaMap to read a value into before
	// it copies it into the map (a map's value cannot be read in place);
	// one per level of nesting in use, taken and given back.
	spare []*JSONSchemaProps
}

// null consumes a null literal if there is one.
func (r *schemaReader) null() bool {
	if r.next() == 'n' && bytes.HasPrefix(r.data[r.pos:], []byte("null")) {
		r.pos += 4
		return true
	}
	return false
}

// literal returns the next number or literal token.
func (r *schemaReader) literal() []byte {
	start := r.pos
	r.next()
	start = r.pos
	for r.pos < len(r.data) && !endsScalar[r.data[r.pos]] {
		r.pos++
	}
	return r.data[start:r.pos]
}

func (r *schemaReader) boolean(v *bool) bool {
	switch string(r.literal()) {
	case "true":
		*v = true
	case "false":
		*v = false
	case "null":
	default:
		return false
	}
	return true
}

func (r *schemaReader) boolPtr(v **bool) bool {
	if r.null() {
		return true
	}
	b := new(bool)
	*v = b
	return r.boolean(b)
}

func (r *schemaReader) string(v *string) bool {
	if r.null() {
		return true
	}
	s, ok := r.str()
	*v = s
	return ok
}

func (r *schemaReader) stringPtr(v **string) bool {
	if r.null() {
		return true
	}
	s, ok := r.str()
	*v = &s
	return ok
}

// validNumber reports whether b is a JSON number.
func validNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	return i == len(b)
}

func (r *schemaReader) intPtr(v **int64) bool {
	if r.null() {
		return true
	}
	tok := r.literal()
	if !validNumber(tok) {
		return false
	}
	n, err := strconv.ParseInt(string(tok), 10, 64)
	*v = &n
	return err == nil
}

func (r *schemaReader) floatPtr(v **float64) bool {
	if r.null() {
		return true
	}
	tok := r.literal()
	if !validNumber(tok) {
		return false
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	*v = &f
	return err == nil
}

// raw reads any JSON value into a JSON, as JSON.UnmarshalJSON keeps it.
func (r *schemaReader) raw() (JSON, bool) {
	r.next()
	start := r.pos
	if !r.skip() || !json.Valid(r.data[start:r.pos]) {
		return JSON{}, false
	}
	if bytes.Equal(r.data[start:r.pos], nullLiteral) {
		return JSON{}, true
	}
	return JSON{Raw: bytes.Clone(r.data[start:r.pos])}, true
}

func (r *schemaReader) rawPtr(v **JSON) bool {
	if r.null() {
		return true
	}
	j, ok := r.raw()
	*v = &j
	return ok
}

// list reads a JSON array, calling item for each element; a null list is
// nil, an empty one empty and not nil (as encoding/json makes them): made
// makes the empty one.
func (r *schemaReader) list(item func() bool, made func()) bool {
	if r.null() {
		return true
	}
	if !r.expect('[') {
		return false
	}
	made()
	if r.next() == ']' {
		r.pos++
		return true
	}
	for {
		if !item() {
			return false
		}
		if more, ok := r.more(']'); !ok || !more {
			return ok
		}
	}
}

func (r *schemaReader) strings(v *[]string) bool {
	return r.list(func() bool {
		*v = append(*v, "")
		return r.string(&(*v)[len(*v)-1])
	}, func() { *v = []string{} })
}

func (r *schemaReader) schemas(v *[]JSONSchemaProps) bool {
	return r.list(func() bool {
		*v = append(*v, JSONSchemaProps{})
		return r.null() || r.props(&(*v)[len(*v)-1])
	}, func() { *v = []JSONSchemaProps{} })
}

// object reads a JSON object, calling field for each key (keys must not
// repeat: seen tracks them by field, or by name in a map).
func (r *schemaReader) object(field func(key string) bool) bool {
	return r.objectOf(nil, field)
}

// objectOf is object whose keys are looked up in names (a field's name
// to its index): a key spelled as a name is that name's string, read
// without allocating one; any other key is an empty string (which no
// name is). A nil names reads every key as a new string.
func (r *schemaReader) objectOf(names map[string]int, field func(key string) bool) bool {
	if !r.expect('{') {
		return false
	}
	if r.next() == '}' {
		r.pos++
		return true
	}
	for {
		var key string
		ok := true
		if names == nil {
			key, ok = r.str()
		} else {
			key, ok = r.name(names)
		}
		if !ok || !r.expect(':') || !field(key) {
			return false
		}
		if more, ok := r.more('}'); !ok || !more {
			return ok
		}
	}
}

// name reads an object key that should be one of names (see objectOf).
func (r *schemaReader) name(names map[string]int) (string, bool) {
	if r.next() != '"' {
		return "", false
	}
	end, plain := r.stringEnd()
	if end < 0 || !plain {
		key, ok := r.str() // escapes: encoding/json's unquoting
		if _, known := names[key]; !known {
			key = ""
		}
		return key, ok
	}
	raw := r.data[r.pos+1 : end-1]
	r.pos = end
	if i, known := names[string(raw)]; known { // no allocation
		return propsNames[i], true
	}
	return "", true
}

func (r *schemaReader) schemaPtr(v **JSONSchemaProps) bool {
	if r.null() {
		return true
	}
	*v = &JSONSchemaProps{}
	return r.props(*v)
}

func (r *schemaReader) schemaMap(v *map[string]JSONSchemaProps) bool {
	if r.null() {
		return true
	}
	m := map[string]JSONSchemaProps{}
	*v = m
	return r.object(func(key string) bool {
		if _, dup := m[key]; dup || r.next() != '{' {
			return false
		}
		// A value read into a local escapes to the heap (props takes its
		// address), and the map copies it into a slot of its own: half
		// the allocations of a real-size CRD's decode. One spare per
		// level of nesting does instead.
		var s *JSONSchemaProps
		if n := len(r.spare); n > 0 {
			s, r.spare = r.spare[n-1], r.spare[:n-1]
		} else {
			s = &JSONSchemaProps{}
		}
		ok := r.props(s)
		if ok {
			m[key] = *s
		}
		*s = JSONSchemaProps{}
		r.spare = append(r.spare, s)
		return ok
	})
}

func (r *schemaReader) orBool(v **JSONSchemaPropsOrBool) bool {
	switch {
	case r.null():
		return true
	case r.next() == '{':
		*v = &JSONSchemaPropsOrBool{Allows: true, Schema: &JSONSchemaProps{}}
		return r.props((*v).Schema)
	}
	*v = &JSONSchemaPropsOrBool{}
	switch string(r.literal()) {
	case "true":
		(*v).Allows = true
	case "false":
	default:
		return false
	}
	return true
}

// propsNames are JSONSchemaProps' JSON names (and, after them, the
// names of ValidationRule and ExternalDocumentation), propsFields each
// with its index, which is its bit in the set of fields read (a repeated
// key is left to encoding/json).
var propsNames = []string{"id", "$schema", "$ref", "description", "type", "format", "title", "default",
	"maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
	"maxItems", "minItems", "uniqueItems", "multipleOf", "enum", "maxProperties", "minProperties", "required",
	"items", "allOf", "oneOf", "anyOf", "not", "properties", "additionalProperties", "patternProperties",
	"additionalItems", "definitions", "externalDocs", "example", "nullable",
	"x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource", "x-kubernetes-int-or-string",
	"x-kubernetes-list-map-keys", "x-kubernetes-list-type", "x-kubernetes-map-type", "x-kubernetes-validations",
	// ValidationRule's (description is a schema's name too)
	"rule", "message", "messageExpression", "reason", "fieldPath", "optionalOldSelf",
	// ExternalDocumentation's
	"url",
}

// propsCount is how many of propsNames are JSONSchemaProps'.
const propsCount = 43

var propsFields = func() map[string]int {
	m := map[string]int{}
	for i, name := range propsNames {
		m[name] = i
	}
	return m
}()

// props reads one schema object into s (a zero value).
func (r *schemaReader) props(s *JSONSchemaProps) bool {
	var seen uint64
	return r.objectOf(propsFields, func(key string) bool {
		i, known := propsFields[key]
		if !known || i >= propsCount || seen&(1<<i) != 0 {
			return false // unknown (or another spelling), or repeated
		}
		seen |= 1 << i
		switch key {
		case "id":
			return r.string(&s.ID)
		case "$schema":
			var v string
			ok := r.string(&v)
			s.Schema = JSONSchemaURL(v)
			return ok
		case "$ref":
			return r.stringPtr(&s.Ref)
		case "description":
			return r.string(&s.Description)
		case "type":
			return r.string(&s.Type)
		case "format":
			return r.string(&s.Format)
		case "title":
			return r.string(&s.Title)
		case "default":
			return r.rawPtr(&s.Default)
		case "maximum":
			return r.floatPtr(&s.Maximum)
		case "exclusiveMaximum":
			return r.boolean(&s.ExclusiveMaximum)
		case "minimum":
			return r.floatPtr(&s.Minimum)
		case "exclusiveMinimum":
			return r.boolean(&s.ExclusiveMinimum)
		case "maxLength":
			return r.intPtr(&s.MaxLength)
		case "minLength":
			return r.intPtr(&s.MinLength)
		case "pattern":
			return r.string(&s.Pattern)
		case "maxItems":
			return r.intPtr(&s.MaxItems)
		case "minItems":
			return r.intPtr(&s.MinItems)
		case "uniqueItems":
			return r.boolean(&s.UniqueItems)
		case "multipleOf":
			return r.floatPtr(&s.MultipleOf)
		case "enum":
			return r.list(func() bool {
				j, ok := r.raw()
				s.Enum = append(s.Enum, j)
				return ok
			}, func() { s.Enum = []JSON{} })
		case "maxProperties":
			return r.intPtr(&s.MaxProperties)
		case "minProperties":
			return r.intPtr(&s.MinProperties)
		case "required":
			return r.strings(&s.Required)
		case "items":
			if r.null() {
				return true
			}
			if r.next() != '{' {
				return false // an array of schemas, or what items ignores
			}
			s.Items = &JSONSchemaPropsOrArray{Schema: &JSONSchemaProps{}}
			return r.props(s.Items.Schema)
		case "allOf":
			return r.schemas(&s.AllOf)
		case "oneOf":
			return r.schemas(&s.OneOf)
		case "anyOf":
			return r.schemas(&s.AnyOf)
		case "not":
			return r.schemaPtr(&s.Not)
		case "properties":
			return r.schemaMap(&s.Properties)
		case "additionalProperties":
			return r.orBool(&s.AdditionalProperties)
		case "patternProperties":
			return r.schemaMap(&s.PatternProperties)
		case "additionalItems":
			return r.orBool(&s.AdditionalItems)
		case "definitions":
			var m map[string]JSONSchemaProps
			ok := r.schemaMap(&m)
			s.Definitions = m
			return ok
		case "externalDocs":
			if r.null() {
				return true
			}
			d := &ExternalDocumentation{}
			s.ExternalDocs = d
			var docSeen [2]bool
			return r.objectOf(propsFields, func(key string) bool {
				switch {
				case key == "description" && !docSeen[0]:
					docSeen[0] = true
					return r.string(&d.Description)
				case key == "url" && !docSeen[1]:
					docSeen[1] = true
					return r.string(&d.URL)
				}
				return false
			})
		case "example":
			return r.rawPtr(&s.Example)
		case "nullable":
			return r.boolean(&s.Nullable)
		case "x-kubernetes-preserve-unknown-fields":
			return r.boolPtr(&s.XPreserveUnknownFields)
		case "x-kubernetes-embedded-resource":
			return r.boolean(&s.XEmbeddedResource)
		case "x-kubernetes-int-or-string":
			return r.boolean(&s.XIntOrString)
		case "x-kubernetes-list-map-keys":
			return r.strings(&s.XListMapKeys)
		case "x-kubernetes-list-type":
			return r.stringPtr(&s.XListType)
		case "x-kubernetes-map-type":
			return r.stringPtr(&s.XMapType)
		case "x-kubernetes-validations":
			var rules []ValidationRule
			ok := r.list(func() bool {
				rules = append(rules, ValidationRule{})
				return r.null() || r.rule(&rules[len(rules)-1])
			}, func() { rules = []ValidationRule{} })
			s.XValidations = rules
			return ok
		}
		return false
	})
}

// ruleFields are ValidationRule's JSON names, each with its index in
// the set of fields read.
var ruleFields = map[string]int{"rule": 0, "message": 1, "messageExpression": 2, "reason": 3, "fieldPath": 4, "optionalOldSelf": 5}

// rule reads one x-kubernetes-validations entry.
func (r *schemaReader) rule(v *ValidationRule) bool {
	var seen [6]bool
	return r.objectOf(propsFields, func(key string) bool {
		n, ok := ruleFields[key]
		if !ok || seen[n] {
			return false
		}
		seen[n] = true
		switch key {
		case "rule":
			return r.string(&v.Rule)
		case "message":
			return r.string(&v.Message)
		case "messageExpression":
			return r.string(&v.MessageExpression)
		case "reason":
			if r.null() {
				return true
			}
			s, ok := r.str()
			reason := FieldValueErrorReason(s)
			v.Reason = &reason
			return ok
		case "fieldPath":
			return r.string(&v.FieldPath)
		default: // optionalOldSelf
			return r.boolPtr(&v.OptionalOldSelf)
		}
	})
}

// VersionsSpan returns where the value of spec.versions of data, a CRD's
// JSON object, starts and ends (data[start:end]), read as SpecSpan reads
// spec; ok is false as for SpecSpan, or if the value is not an array. The
// CRD API's field manager compares two CRDs' versions by their JSON
// (handler/fieldmanager.go).
func VersionsSpan(data []byte) (start, end int, ok bool) {
	return valueSpan(data, []string{"spec", "versions"}, '[')
}

// SpecSpan returns where the value of the top-level "spec" key of data, a
// CRD's JSON object, starts and ends (data[start:end]), without reading
// it beyond strings and nesting. ok is false if data has no such key, has
// it twice or spelled another way (encoding/json would match "Spec"), or
// is not what it expects. The CRD storage codec uses it to find a stored
// spec it has decoded before (registry/customresourcedefinition).
func SpecSpan(data []byte) (start, end int, ok bool) {
	return valueSpan(data, []string{"spec"}, '{')
}

// valueSpan returns where the value at path in data, a JSON object,
// starts and ends, if it begins with open ('{' or '['); see SpecSpan.
func valueSpan(data []byte, path []string, open byte) (start, end int, ok bool) {
	r := &jsonReader{data: data}
	start = -1
	found := r.path(path, func() bool {
		if r.next() != open {
			return false
		}
		start = r.pos
		if !r.skip() {
			return false
		}
		end = r.pos
		return true
	})
	if !found || start < 0 {
		return 0, 0, false
	}
	return start, end, true
}
