package differential

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// genMode says what kind of object a generator makes from a schema.
type genMode int

const (
	// modeMinimal fills only required fields, each with a value that meets
	// the node's type, enum, format, pattern and bounds where it can.
	modeMinimal genMode = iota
	// modeFull fills every declared field (within a budget).
	modeFull
	// modeBounds is modeFull with every value that has a bound (enum,
	// pattern, maxLength, minimum, maximum, maxItems) just outside it.
	modeBounds
)

// Limits of a generated object: real CRDs embed whole pod specs.
const (
	maxDepth  = 10
	maxFields = 1500
)

// generator makes custom resources from one version's schema. What it
// makes need not be valid: upstream's answer is the reference, and the
// harness compares crdlab's with it. It is deterministic (properties in
// sorted order).
type generator struct {
	root   *apiextensionsv1.JSONSchemaProps
	mode   genMode
	fields int
}

// object generates the fields of a custom resource other than apiVersion,
// kind and metadata.
func (g generator) object(mode genMode) map[string]any {
	g.mode, g.fields = mode, 0
	o, _ := g.value(g.root, 0, true).(map[string]any)
	if o == nil {
		o = map[string]any{}
	}
	delete(o, "status")
	return o
}

func (g *generator) value(s *apiextensionsv1.JSONSchemaProps, depth int, root bool) any {
	if s == nil {
		return "x"
	}
	g.fields++
	bounds := g.mode == modeBounds
	if len(s.Enum) > 0 {
		if bounds {
			return "NotAnEnumValue"
		}
		var v any
		_ = json.Unmarshal(s.Enum[0].Raw, &v)
		return v
	}
	if s.XIntOrString {
		if bounds && s.Pattern != "" {
			return "!not a match!"
		}
		return int64(1)
	}
	switch s.Type {
	case "string":
		return g.str(s)
	case "integer":
		return g.integer(s)
	case "number":
		return float64(g.integer(s)) + 0.5
	case "boolean":
		return true
	case "array":
		return g.array(s, depth)
	case "object", "":
		preserve := s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields
		if len(s.Properties) == 0 && s.AdditionalProperties == nil && s.Type == "" && !s.XEmbeddedResource && !preserve {
			return "untyped"
		}
		o := g.obj(s, depth, root)
		if len(s.Properties) == 0 && s.AdditionalProperties == nil && preserve && g.mode != modeMinimal {
			o["anything"] = map[string]any{"goes": "here"}
		}
		return o
	}
	return nil
}

func (g *generator) obj(s *apiextensionsv1.JSONSchemaProps, depth int, root bool) map[string]any {
	o := map[string]any{}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	if root {
		required["spec"] = true // a resource without spec tells little
	}
	// A oneOf/anyOf of required lists: meet the first.
	for _, alts := range [][]apiextensionsv1.JSONSchemaProps{s.OneOf, s.AnyOf} {
		if len(alts) > 0 {
			for _, r := range alts[0].Required {
				required[r] = true
			}
		}
	}
	keys := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fill := g.mode != modeMinimal && depth < maxDepth && g.fields < maxFields
	for _, k := range keys {
		if root && (k == "apiVersion" || k == "kind" || k == "metadata") {
			continue
		}
		if !required[k] && !fill {
			continue
		}
		p := s.Properties[k]
		o[k] = g.value(&p, depth+1, false)
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Schema != nil && len(s.Properties) == 0 {
		n := 0
		if s.MinProperties != nil {
			n = int(*s.MinProperties)
		}
		if fill && n == 0 {
			n = 1
		}
		if bounds := g.mode == modeBounds; bounds && s.MaxProperties != nil && *s.MaxProperties < 16 {
			n = int(*s.MaxProperties) + 1
		}
		for i := 0; i < n && i < 16; i++ {
			o["key"+string(rune('a'+i))] = g.value(ap.Schema, depth+1, false)
		}
	}
	if s.XEmbeddedResource {
		o["apiVersion"], o["kind"] = "v1", "ConfigMap"
		o["metadata"] = map[string]any{"name": "embedded"}
	}
	return o
}

func (g *generator) array(s *apiextensionsv1.JSONSchemaProps, depth int) []any {
	n := 0
	if s.MinItems != nil {
		n = int(*s.MinItems)
	}
	if g.mode != modeMinimal && n == 0 && depth < maxDepth && g.fields < maxFields {
		n = 1
	}
	if g.mode == modeBounds && s.MaxItems != nil && *s.MaxItems < 16 {
		n = int(*s.MaxItems) + 1
	}
	out := make([]any, 0, n)
	var items *apiextensionsv1.JSONSchemaProps
	if s.Items != nil {
		items = s.Items.Schema
	}
	for i := 0; i < n && i < 16; i++ {
		v := g.value(items, depth+1, false)
		if i > 0 {
			v = distinct(v, i) // set and map lists want distinct entries
		}
		out = append(out, v)
	}
	return out
}

// distinct makes the i-th entry of a list differ from the first: strings
// get a suffix, objects their string fields.
func distinct(v any, i int) any {
	suffix := string(rune('a' + i%26))
	switch v := v.(type) {
	case string:
		return v + suffix
	case int64:
		return v + int64(i)
	case map[string]any:
		for k, x := range v {
			switch x := x.(type) {
			case string:
				v[k] = x + suffix
			case int64:
				v[k] = x + int64(i)
			}
		}
	}
	return v
}

// candidates are tried, in order, against a string's pattern.
var candidates = []string{
	"a", "abc", "example.com", "www.example.com", "a-b", "A", "Abc", "1", "10", "80",
	"1s", "10s", "1m", "1h", "1Gi", "100m", "/", "/a", "/path", "https://example.com",
	"http://example.com", "10.0.0.1", "10.0.0.0/8", "::1", "a.b", "a_b", "a:b", "a/b",
	"example.com/a", "Exact", "v1", "1.0.0", "v1.0.0", "default", "*", "*.example.com",
	"a@example.com", "a=b", "x-header", "GET", "TCP", "HTTP", "0", "true", "AAAA",
}

// formats are a valid value of each string format upstream checks.
var formats = map[string]string{
	"date-time": "2026-01-01T00:00:00Z", "date": "2026-01-01", "duration": "1m",
	"uri": "https://example.com", "url": "https://example.com", "hostname": "example.com",
	"ipv4": "10.0.0.1", "ip": "10.0.0.1", "ipv6": "::1", "cidr": "10.0.0.0/8",
	"email": "a@example.com", "uuid": "123e4567-e89b-12d3-a456-426614174000",
	"byte": "YQ==", "int-or-string": "1", "password": "secret", "mac": "00:00:5e:00:53:01",
}

func (g *generator) str(s *apiextensionsv1.JSONSchemaProps) string {
	if g.mode == modeBounds {
		switch {
		case s.MaxLength != nil && *s.MaxLength < 4096:
			return strings.Repeat("a", int(*s.MaxLength)+1)
		case s.Pattern != "":
			return "!not a match!"
		case s.Format != "" && formats[s.Format] != "":
			return "not-a-" + s.Format
		case s.MinLength != nil && *s.MinLength > 0:
			return ""
		}
	}
	if f, ok := formats[s.Format]; ok {
		return f
	}
	fits := func(c string) bool {
		n := int64(len(c))
		return (s.MinLength == nil || n >= *s.MinLength) && (s.MaxLength == nil || n <= *s.MaxLength)
	}
	if s.Pattern != "" {
		if re, err := regexp.Compile(s.Pattern); err == nil {
			for _, c := range candidates {
				if re.MatchString(c) && fits(c) {
					return c
				}
			}
			for _, c := range candidates {
				if re.MatchString(c) {
					return c
				}
			}
		}
	}
	v := "a"
	if s.MinLength != nil && *s.MinLength > 1 && *s.MinLength < 4096 {
		v = strings.Repeat("a", int(*s.MinLength))
	}
	return v
}

func (g *generator) integer(s *apiextensionsv1.JSONSchemaProps) int64 {
	if g.mode == modeBounds {
		switch {
		case s.Maximum != nil:
			return int64(*s.Maximum) + 1
		case s.Minimum != nil:
			return int64(*s.Minimum) - 1
		}
	}
	v := int64(1)
	if s.Minimum != nil && float64(v) < *s.Minimum {
		v = int64(*s.Minimum)
		if s.ExclusiveMinimum {
			v++
		}
	}
	if s.Maximum != nil && float64(v) > *s.Maximum {
		v = int64(*s.Maximum)
		if s.ExclusiveMaximum {
			v--
		}
	}
	return v
}

// withSpec replaces the object's spec (if it has one) by f of it.
func withSpec(o map[string]any, f func(map[string]any) map[string]any) map[string]any {
	if spec, ok := o["spec"].(map[string]any); ok {
		o["spec"] = f(spec)
	}
	return o
}

// wrongTypes gives every field of spec a value of another type.
func wrongTypes(spec map[string]any) map[string]any {
	for k, v := range spec {
		switch v.(type) {
		case string:
			spec[k] = int64(12345)
		case int64, float64:
			spec[k] = "text"
		case bool:
			spec[k] = "yes"
		case []any:
			spec[k] = "not-a-list"
		case map[string]any:
			spec[k] = "not-an-object"
		}
	}
	return spec
}

// nulls sets every field of spec, and every field of spec's objects, to
// null: upstream drops a null where the field is not nullable.
func nulls(spec map[string]any) map[string]any {
	for k, v := range spec {
		if m, ok := v.(map[string]any); ok && len(m) > 0 {
			for kk := range m {
				m[kk] = nil
			}
			continue
		}
		spec[k] = nil
	}
	return spec
}

// changed changes every scalar of the object outside apiVersion, kind and
// metadata: strings get a suffix, numbers grow, booleans flip.
func changed(o map[string]any) map[string]any {
	var walk func(v any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case string:
			return v + "-changed"
		case int64:
			return v + 1
		case float64:
			return v + 1
		case bool:
			return !v
		case []any:
			for i := range v {
				v[i] = walk(v[i])
			}
		case map[string]any:
			for k := range v {
				v[k] = walk(v[k])
			}
		}
		return v
	}
	for k, v := range o {
		if k != "apiVersion" && k != "kind" && k != "metadata" {
			o[k] = walk(v)
		}
	}
	return o
}

// deepCopy copies a decoded JSON value.
func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = deepCopy(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = deepCopy(x)
		}
		return out
	}
	return v
}

// vary changes every scalar of v that it can change within the schema s:
// an enum's next value, another candidate that matches a pattern, a
// number one step inside its bounds, a flipped boolean; values whose
// schema allows no other (one enum value, a format) stay. The object then
// passes the OpenAPI checks its original passed, so what it trips are CEL
// rules: "is immutable" on update, the rules that relate fields on create.
func vary(s *apiextensionsv1.JSONSchemaProps, v any, root bool) any {
	if s == nil {
		return v
	}
	switch x := v.(type) {
	case string:
		if len(s.Enum) > 0 {
			for i, e := range s.Enum {
				var cur any
				if json.Unmarshal(e.Raw, &cur) == nil && cur == x && len(s.Enum) > 1 {
					var next any
					_ = json.Unmarshal(s.Enum[(i+1)%len(s.Enum)].Raw, &next)
					return next
				}
			}
			return x
		}
		if s.Format != "" || s.XIntOrString {
			return x
		}
		fits := func(c string) bool {
			n := int64(len(c))
			return c != x && (s.MinLength == nil || n >= *s.MinLength) && (s.MaxLength == nil || n <= *s.MaxLength)
		}
		if s.Pattern != "" {
			re, err := regexp.Compile(s.Pattern)
			if err != nil {
				return x
			}
			for _, c := range append([]string{x + "b", "b" + x}, candidates...) {
				if re.MatchString(c) && fits(c) {
					return c
				}
			}
			return x
		}
		if fits(x + "b") {
			return x + "b"
		}
		return x
	case int64:
		return int64(varyNumber(s, float64(x)))
	case float64:
		return varyNumber(s, x)
	case bool:
		return !x
	case []any:
		var items *apiextensionsv1.JSONSchemaProps
		if s.Items != nil {
			items = s.Items.Schema
		}
		for i := range x {
			x[i] = vary(items, x[i], false)
		}
	case map[string]any:
		for k, val := range x {
			if (root || s.XEmbeddedResource) && (k == "apiVersion" || k == "kind" || k == "metadata") {
				continue
			}
			if p, ok := s.Properties[k]; ok {
				x[k] = vary(&p, val, false)
			} else if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
				x[k] = vary(s.AdditionalProperties.Schema, val, false)
			}
		}
	}
	return v
}

// varyNumber moves n one step, up if its maximum allows, else down if its
// minimum does.
func varyNumber(s *apiextensionsv1.JSONSchemaProps, n float64) float64 {
	if s.Maximum == nil || n+1 < *s.Maximum || n+1 == *s.Maximum && !s.ExclusiveMaximum {
		return n + 1
	}
	if s.Minimum == nil || n-1 > *s.Minimum || n-1 == *s.Minimum && !s.ExclusiveMinimum {
		return n - 1
	}
	return n
}
