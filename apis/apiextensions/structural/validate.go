package structural

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/crdlab/crdlab/apis/validation/field"
)

// Validate checks a custom resource (the whole object, apiVersion, kind
// and metadata included) against its schema and returns every violation,
// in upstream's order: the OpenAPI schema (ValidateValue), then the
// apiVersion and kind of embedded resources, then the uniqueness of
// x-kubernetes-list-type set and map lists (ValidateListSetsAndMaps).
// Fields the schema does not declare are not errors here (Prune drops
// them); apiVersion, kind and metadata are checked only as far as the
// schema describes them.
//
// Mirrors what customResourceStrategy.Validate runs on a custom resource:
// validation.ValidateCustomResource (kube-openapi's SchemaValidator),
// objectmeta.Validate and listtype.ValidateListSetsAndMaps.
func Validate(s *Structural, obj map[string]any) field.ErrorList {
	if s == nil {
		return nil
	}
	errs := ValidateValue(s, nil, obj)
	errs = append(errs, validateEmbedded(nil, obj, s, false)...)
	return append(errs, ValidateListSetsAndMaps(nil, s, obj)...)
}

// ValidateValue checks any JSON value against a schema node, as
// kube-openapi does: type (nullable, x-kubernetes-int-or-string), allOf /
// anyOf / oneOf / not, maxLength / minLength / pattern (only the first
// failing of the three, as upstream), format, multipleOf / maximum /
// minimum, minItems / maxItems, enum, minProperties / maxProperties,
// additionalProperties: false, required. fldPath prefixes the paths of
// the errors (nil for a whole object).
//
// Mirrors validation.ValidateCustomResource and kubeOpenAPIResultToFieldErrors
// in k8s.io/apiextensions-apiserver/pkg/apiserver/validation/validation.go.
func ValidateValue(s *Structural, fldPath *field.Path, value any) field.ErrorList {
	v := validator{base: fldPath}
	return v.validate(s, nil, value)
}

type validator struct {
	// base is the field path the value validated sits at.
	base *field.Path
}

// loc is where a value sits: a chain of steps up to the validated value
// (nil). It is rendered only for an error, two ways: name as kube-openapi
// spells it (it appears in error details: "spec.replicas",
// "spec.ports[0]", and ".key" for a map entry at the root), and as a
// field.Path (map entries in brackets: "spec.labels[app]") for the checks
// upstream does outside kube-openapi. Building both strings at every level
// made a deeply nested object cost quadratic time and memory.
type loc struct {
	parent *loc
	// kind is 'p' for a property, 'k' for a map key, 'i' for an index.
	kind byte
	key  string
	idx  int
}

func (l *loc) property(k string) *loc { return &loc{parent: l, kind: 'p', key: k} }
func (l *loc) mapKey(k string) *loc   { return &loc{parent: l, kind: 'k', key: k} }
func (l *loc) index(i int) *loc       { return &loc{parent: l, kind: 'i', idx: i} }

// steps returns the steps from the top down.
func (l *loc) steps() []*loc {
	var out []*loc
	for ; l != nil; l = l.parent {
		out = append(out, l)
	}
	slices.Reverse(out)
	return out
}

// name is kube-openapi's spelling.
func (l *loc) name() string {
	var b strings.Builder
	for _, s := range l.steps() {
		switch s.kind {
		case 'p':
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.key)
		case 'k':
			b.WriteByte('.')
			b.WriteString(s.key)
		case 'i':
			b.WriteString("[" + strconv.Itoa(s.idx) + "]")
		}
	}
	return b.String()
}

// field is the error path of a kube-openapi error at name, as
// kubeOpenAPIResultToFieldErrors builds it: the base path, then the name
// without its leading dot as one step.
func (v validator) field(name string) *field.Path {
	if name = strings.TrimPrefix(name, "."); name == "" {
		return v.base
	}
	return v.base.Child(name)
}

// validate runs the validators of one schema node on one value, in
// kube-openapi's order.
func (v validator) validate(s *Structural, l *loc, data any) field.ErrorList {
	if s == nil {
		return nil
	}
	if data == nil {
		// As kube-openapi: only the type and enum checks see a null.
		errs := v.checkType(s, l, nil)
		return append(errs, v.checkEnum(s, l, nil)...)
	}
	data = normalizeNumber(data)
	errs := v.checkType(s, l, data)
	errs = append(errs, v.checkJunctors(s, l, data)...)
	switch d := data.(type) {
	case string:
		errs = append(errs, v.checkString(s, l, d)...)
		errs = append(errs, v.checkFormat(s, l, d)...)
	case int64, float64:
		errs = append(errs, v.checkNumber(s, l, d)...)
	case []any:
		errs = append(errs, v.checkArray(s, l, d)...)
	}
	errs = append(errs, v.checkEnum(s, l, data)...)
	if m, ok := data.(map[string]any); ok {
		errs = append(errs, v.checkObject(s, l, m)...)
	}
	return errs
}

// schemaTypes is the types a value may have: int-or-string allows two.
func schemaTypes(s *Structural) []string {
	switch {
	case s.XIntOrString:
		return []string{"integer", "string"}
	case s.Type != "":
		return []string{s.Type}
	}
	return nil
}

// jsonType names the JSON type of a (normalized) value, as kube-openapi's
// schemaInfoForType.
func jsonType(data any) string {
	switch data.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case int64:
		return "integer"
	case float64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", data)
}

// checkType mirrors kube-openapi's typeValidator: a whole float passes as
// an integer, an integer as a number, null only when nullable.
//
// With a format, a value that is neither a string nor an array is checked
// against the format first ("must be of type byte: \"int64\"", naming the
// value's Go format), and a string or an array passes unless the type is
// numeric.
func (v validator) checkType(s *Structural, l *loc, data any) field.ErrorList {
	types := schemaTypes(s)
	got := jsonType(data)
	if s.Format != "" && data != nil {
		numeric := slices.Contains(types, "integer") || slices.Contains(types, "number")
		if got == "string" || got == "array" {
			if !numeric {
				return nil
			}
		} else {
			format := map[string]string{"integer": "int64", "number": "float64"}[got]
			if !(slices.Contains(types, got) || format == s.Format ||
				got == "number" && slices.Contains(types, "integer") && isJSONInteger(data.(float64)) ||
				got == "integer" && slices.Contains(types, "number")) {
				name := l.name()
				return field.ErrorList{field.TypeInvalid(v.field(name), format,
					fmt.Sprintf("%s in body must be of type %s: %q", name, s.Format, format))}
			}
		}
	}
	if len(types) == 0 {
		return nil
	}
	switch {
	case data == nil && s.Nullable:
		return nil
	case slices.Contains(types, got):
		return nil
	case got == "number" && slices.Contains(types, "integer") && isJSONInteger(data.(float64)):
		return nil
	case got == "integer" && slices.Contains(types, "number"):
		return nil
	}
	name := l.name()
	return field.ErrorList{field.TypeInvalid(v.field(name), got,
		fmt.Sprintf("%s in body must be of type %s: %q", name, strings.Join(types, ","), got))}
}

// composite is how upstream reports a failed junctor: a kube-openapi error
// of no field, which kubeOpenAPIResultToFieldErrors turns into an Invalid
// error at the base path with an empty value.
func (v validator) composite(format string, args ...any) *field.Error {
	return field.Invalid(v.base, "", fmt.Sprintf(format, args...))
}

// checkJunctors mirrors kube-openapi's schemaPropsValidator.
func (v validator) checkJunctors(s *Structural, l *loc, data any) field.ErrorList {
	var errs field.ErrorList
	// A failed anyOf or oneOf reports the errors of its branch that ran
	// the most checks (matchCount), the first of those on a tie.
	if len(s.AnyOf) > 0 {
		var best field.ErrorList
		bestCount := -1
		ok := false
		for _, sub := range s.AnyOf {
			r := v.validate(sub, l, data)
			if len(r) == 0 {
				ok = true
				break
			}
			if n := v.matchCount(sub, l, data); n > bestCount {
				best, bestCount = r, n
			}
		}
		if !ok {
			errs = append(errs, v.composite("%q must validate at least one schema (anyOf)", l.name()))
			errs = append(errs, best...)
		}
	}
	if len(s.OneOf) > 0 {
		var best field.ErrorList
		bestCount := -1
		valid := 0
		for _, sub := range s.OneOf {
			r := v.validate(sub, l, data)
			if len(r) == 0 {
				valid++
			} else if valid == 0 {
				if n := v.matchCount(sub, l, data); n > bestCount {
					best, bestCount = r, n
				}
			}
		}
		switch valid {
		case 1:
		case 0:
			errs = append(errs, v.composite("%q must validate one and only one schema (oneOf). %s", l.name(), "Found none valid"))
			errs = append(errs, best...)
		default:
			errs = append(errs, v.composite("%q must validate one and only one schema (oneOf). %s", l.name(),
				fmt.Sprintf("Found %d valid alternatives", valid)))
		}
	}
	if len(s.AllOf) > 0 {
		valid := 0
		for _, sub := range s.AllOf {
			r := v.validate(sub, l, data)
			if len(r) == 0 {
				valid++
			}
			errs = append(errs, r...)
		}
		if valid != len(s.AllOf) {
			more := ""
			if valid == 0 {
				more = ". None validated"
			}
			errs = append(errs, v.composite("%q must validate all the schemas (allOf)%s", l.name(), more))
		}
	}
	if s.Not != nil && len(v.validate(s.Not, l, data)) == 0 {
		errs = append(errs, v.composite("%q must not validate the schema (not)", l.name()))
	}
	return errs
}

// checkString mirrors kube-openapi's stringValidator: maxLength, minLength
// (in characters), pattern, and it stops at the first failure.
func (v validator) checkString(s *Structural, l *loc, d string) field.ErrorList {
	if s.MaxLength == nil && s.MinLength == nil && s.Pattern == "" {
		return nil
	}
	name := l.name()
	f := v.field(name)
	n := int64(utf8.RuneCountInString(d))
	if s.MaxLength != nil && n > *s.MaxLength {
		return field.ErrorList{field.TooLong(f, "", int(*s.MaxLength))}
	}
	if s.MinLength != nil && n < *s.MinLength {
		return field.ErrorList{field.Invalid(f, d, fmt.Sprintf("%s in body should be at least %d chars long", name, *s.MinLength))}
	}
	if s.Pattern != "" {
		re, err := s.pattern()
		if err != nil {
			return field.ErrorList{field.Invalid(f, d, fmt.Sprintf("%s in body should match '%s, but pattern is invalid: %s'", name, s.Pattern, err))}
		}
		if !re.MatchString(d) {
			return field.ErrorList{field.Invalid(f, d, fmt.Sprintf("%s in body should match '%s'", name, s.Pattern))}
		}
	}
	return nil
}

// checkFormat mirrors kube-openapi's formatValidator for the formats of
// formats.go.
func (v validator) checkFormat(s *Structural, l *loc, d string) field.ErrorList {
	if known, ok := checkFormat(s.Format, d); known && !ok {
		name := l.name()
		return field.ErrorList{field.TypeInvalid(v.field(name), d, fmt.Sprintf("%s in body must be of type %s: %q", name, s.Format, d))}
	}
	return nil
}

// checkNumber mirrors kube-openapi's numberValidator: multipleOf, maximum,
// minimum. Limits print as integers when the value is one, as upstream's
// "native type" checks do.
func (v validator) checkNumber(s *Structural, l *loc, d any) field.ErrorList {
	if s.MultipleOf == nil && s.Maximum == nil && s.Minimum == nil {
		return nil
	}
	name := l.name()
	f := v.field(name)
	x, isInt := asFloat(d)
	var errs field.ErrorList
	if s.MultipleOf != nil {
		m := *s.MultipleOf
		switch {
		case m <= 0:
			errs = append(errs, field.Invalid(f, m, fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", name, m)))
		case !isMultiple(d, m):
			errs = append(errs, field.Invalid(f, d, fmt.Sprintf("%s in body should be a multiple of %s", name, limit(m, isInt))))
		}
	}
	if s.Maximum != nil {
		m := *s.Maximum
		if s.ExclusiveMaximum && x >= m {
			errs = append(errs, field.Invalid(f, d, fmt.Sprintf("%s in body should be less than %s", name, limit(m, isInt))))
		} else if x > m {
			errs = append(errs, field.Invalid(f, d, fmt.Sprintf("%s in body should be less than or equal to %s", name, limit(m, isInt))))
		}
	}
	if s.Minimum != nil {
		m := *s.Minimum
		if s.ExclusiveMinimum && x <= m {
			errs = append(errs, field.Invalid(f, d, fmt.Sprintf("%s in body should be greater than %s", name, limit(m, isInt))))
		} else if x < m {
			errs = append(errs, field.Invalid(f, d, fmt.Sprintf("%s in body should be greater than or equal to %s", name, limit(m, isInt))))
		}
	}
	return errs
}

// checkArray validates the items, then minItems and maxItems (as
// kube-openapi's schemaSliceValidator).
func (v validator) checkArray(s *Structural, l *loc, d []any) field.ErrorList {
	var errs field.ErrorList
	if s.Items != nil {
		for i, e := range d {
			errs = append(errs, v.validate(s.Items, l.index(i), e)...)
		}
	}
	n := int64(len(d))
	if s.MinItems != nil && n < *s.MinItems {
		name := l.name()
		errs = append(errs, field.Invalid(v.field(name), n, fmt.Sprintf("%s in body should have at least %d items", name, *s.MinItems)))
	}
	if s.MaxItems != nil && n > *s.MaxItems {
		errs = append(errs, field.TooMany(v.field(l.name()), len(d), int(*s.MaxItems)))
	}
	return errs
}

// checkEnum mirrors kube-openapi's basicCommonValidator (numbers compare
// by value). Note that, as upstream, null fails an enum even when the
// field is nullable, unless the enum lists null.
func (v validator) checkEnum(s *Structural, l *loc, data any) field.ErrorList {
	if len(s.Enum) == 0 {
		return nil
	}
	for _, e := range s.Enum {
		if equalJSON(normalizeNumber(e), data) {
			return nil
		}
	}
	values := make([]string, 0, len(s.Enum))
	for _, e := range s.Enum {
		if str, ok := e.(string); ok {
			values = append(values, str)
		} else {
			b, _ := json.Marshal(e)
			values = append(values, string(b))
		}
	}
	return field.ErrorList{field.NotSupported(v.field(l.name()), data, values)}
}

// checkObject mirrors kube-openapi's objectValidator: minProperties and
// maxProperties (which stop the object's other checks), then fields
// forbidden by additionalProperties: false or validated by the
// additionalProperties schema, then properties, then required.
func (v validator) checkObject(s *Structural, l *loc, d map[string]any) field.ErrorList {
	// Too few or too many properties does not stop the check of each.
	var errs field.ErrorList
	n := int64(len(d))
	if s.MinProperties != nil && n < *s.MinProperties {
		name := l.name()
		errs = append(errs, field.Invalid(v.field(name), n, fmt.Sprintf("%s in body should have at least %d properties", name, *s.MinProperties)))
	}
	if s.MaxProperties != nil && n > *s.MaxProperties {
		errs = append(errs, field.TooMany(v.field(l.name()), len(d), int(*s.MaxProperties)))
	}
	keys := sortedKeys(d)
	if s.AdditionalProperties != nil || s.AdditionalPropertiesBool != nil {
		for _, k := range keys {
			if _, declared := s.Properties[k]; declared {
				continue
			}
			switch {
			case s.AdditionalPropertiesBool != nil && !*s.AdditionalPropertiesBool:
				name := l.name()
				errs = append(errs, field.Invalid(v.field(name), k, fmt.Sprintf("%s.%s in body is a forbidden property", name, k)))
			case s.AdditionalProperties != nil:
				errs = append(errs, v.validate(s.AdditionalProperties, l.mapKey(k), d[k])...)
			}
		}
	}
	for _, k := range keys {
		if p, declared := s.Properties[k]; declared {
			errs = append(errs, v.validate(p, l.property(k), d[k])...)
		}
	}
	for _, k := range s.Required {
		if _, ok := d[k]; !ok {
			errs = append(errs, field.Required(v.field(l.property(k).name()), ""))
		}
	}
	return errs
}

// normalizeNumber brings every Go number type to int64 or float64.
func normalizeNumber(d any) any {
	switch n := d.(type) {
	case int:
		return int64(n)
	case int32:
		return int64(n)
	case uint32:
		return int64(n)
	case float32:
		return float64(n)
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return i
		}
		f, _ := n.Float64()
		return f
	}
	return d
}

func asFloat(d any) (float64, bool) {
	switch n := d.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, false
	}
	return 0, false
}

// isJSONInteger mirrors swag.IsFloat64AJSONInteger: a whole number that
// JSON (53 bits of mantissa) holds exactly.
func isJSONInteger(f float64) bool {
	return !math.IsNaN(f) && !math.IsInf(f, 0) && math.Abs(f) <= 1<<53 && f == math.Trunc(f)
}

func isMultiple(d any, m float64) bool {
	if i, ok := d.(int64); ok && m == math.Trunc(m) && math.Abs(m) < 1<<62 {
		return i%int64(m) == 0
	}
	x, _ := asFloat(d)
	q := x / m
	if m < 1 {
		q = 1 / m * x
	}
	return isJSONInteger(q) || math.Abs(q-math.Round(q)) < 1e-9
}

// limit prints a schema bound: as an integer next to an integer value.
func limit(m float64, valueIsInt bool) string {
	if valueIsInt && m == math.Trunc(m) && math.Abs(m) < 1<<63 {
		return strconv.FormatInt(int64(m), 10)
	}
	return fmt.Sprint(m)
}

func equalJSON(a, b any) bool {
	fa, aNum := asNumber(a)
	fb, bNum := asNumber(b)
	if aNum || bNum {
		return aNum && bNum && fa == fb
	}
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !equalJSON(normalizeNumber(av), normalizeNumber(bv)) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equalJSON(normalizeNumber(a[i]), normalizeNumber(b[i])) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

func asNumber(v any) (float64, bool) {
	switch n := normalizeNumber(v).(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// matchCount is how many checks kube-openapi runs to validate data
// against s, passed or failed (its Result.MatchCount): each validator that
// applies counts once, the type, number, array and junctor validators once
// more, and an object or array adds what its fields or items count. It
// only decides which failed anyOf or oneOf branch reports its errors.
//
// Mirrors the Inc calls of SchemaValidator.Validate and its validators in
// k8s.io/kube-openapi/pkg/validation/validate (schema.go, type.go,
// schema_props.go, validator.go, slice_validator.go, object_validator.go).
func (v validator) matchCount(s *Structural, l *loc, data any) int {
	if s == nil {
		return 0
	}
	hasType := len(schemaTypes(s)) > 0 || s.Format != ""
	if data == nil {
		if hasType {
			return 1 // only the type validator runs
		}
		return 0
	}
	data = normalizeNumber(data)
	n := 1 // SchemaValidator's own
	if hasType {
		n += 2
	}
	n += 2 + v.junctorCount(s, l, data) // schemaPropsValidator
	n++                                 // basicCommonValidator (enum)
	switch d := data.(type) {
	case string:
		n++
		if known, _ := checkFormat(s.Format, d); known {
			n++
		}
	case int64, float64:
		n += 2
	case []any:
		n += 2
		for _, x := range d {
			n += v.matchCount(s.Items, l, x)
		}
	case map[string]any:
		n++
		for k, x := range d {
			if p, ok := s.Properties[k]; ok {
				n += v.matchCount(p, l, x)
			} else if s.AdditionalProperties != nil {
				n += v.matchCount(s.AdditionalProperties, l, x)
			}
		}
	}
	return n
}

// junctorCount is what the junctors add to a matchCount: the counts of
// anyOf's first valid branch (or its best failed one), of oneOf's single
// valid branch (or its best failed one if none is valid), of every allOf
// branch.
func (v validator) junctorCount(s *Structural, l *loc, data any) int {
	n := 0
	if len(s.AnyOf) > 0 {
		best := -1
		for _, sub := range s.AnyOf {
			c := v.matchCount(sub, l, data)
			if len(v.validate(sub, l, data)) == 0 {
				best = c
				break
			}
			best = max(best, c)
		}
		n += best
	}
	if len(s.OneOf) > 0 {
		valid, first, best := 0, 0, -1
		for _, sub := range s.OneOf {
			c := v.matchCount(sub, l, data)
			if len(v.validate(sub, l, data)) == 0 {
				if valid == 0 {
					first = c
				}
				valid++
			} else if valid == 0 {
				best = max(best, c)
			}
		}
		switch valid {
		case 0:
			n += max(best, 0)
		case 1:
			n += first
		}
	}
	for _, sub := range s.AllOf {
		n += v.matchCount(sub, l, data)
	}
	return n
}
