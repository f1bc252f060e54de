package structural

import (
	"reflect"
	"slices"
	"strconv"
)

// level is where a schema node sits, which decides the wording of a
// missing type. Mirrors the level of schema/validation.go.
type level int

const (
	rootLevel  level = iota // the schema of the resource itself
	itemLevel               // the items of an array
	fieldLevel              // a property or additionalProperties
)

// ValidateStructural reports why s is not a structural schema, plus what
// the CRD API rejects in a schema that can be seen without the rest of the
// CRD. fldPath is the schema's path in the CRD, e.g.
// "spec.versions[0].schema.openAPIV3Schema"; errors read like
//
//	spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields
//
// The structural rules: every node has a type, except where
// x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields
// stands in; arrays have items; the root is an object without
// additionalProperties, and its metadata may only constrain name and
// generateName; embedded resources are objects; allOf, anyOf, oneOf and not
// carry value validations only (no type, default, nullable, description,
// extensions, metadata) and only for fields the structural part declares.
//
// The API rules checked: no $ref, definitions, dependencies,
// patternProperties, additionalItems, items arrays or uniqueItems; known
// types; properties and additionalProperties not both; well-formed
// x-kubernetes-list-type and list-map-keys; defaults that validate and have
// no unknown fields.
//
// Mirrors schema.ValidateStructural (validateStructuralInvariants,
// validateStructuralCompleteness), part of
// validation.ValidateCustomResourceDefinitionOpenAPISchema and
// defaulting.ValidateDefaults.
func ValidateStructural(s *Structural, fldPath string) []FieldError {
	if s == nil {
		return nil
	}
	errs := validateAPIRules(s, fldPath, false)
	errs = append(errs, validateInvariants(s, rootLevel, fldPath)...)
	errs = append(errs, validateCompleteness(s, s, fldPath, fldPath)...)
	return errs
}

func propPath(p, k string) string    { return p + ".properties[" + k + "]" }
func indexed(p string, i int) string { return p + "[" + strconv.Itoa(i) + "]" }

// validateInvariants mirrors validateStructuralInvariants.
func validateInvariants(s *Structural, lvl level, p string) []FieldError {
	if s == nil {
		return nil
	}
	var errs []FieldError
	if s.Type == "array" && s.Items == nil {
		errs = append(errs, required(p+".items", "must be specified"))
	}
	errs = append(errs, validateInvariants(s.Items, itemLevel, p+".items")...)
	for _, k := range sortedKeys(s.Properties) {
		errs = append(errs, validateInvariants(s.Properties[k], fieldLevel, propPath(p, k))...)
	}

	// validateGeneric
	if s.AdditionalProperties != nil || s.AdditionalPropertiesBool != nil {
		if lvl == rootLevel {
			errs = append(errs, forbidden(p+".additionalProperties", "must not be used at the root"))
		}
		errs = append(errs, validateInvariants(s.AdditionalProperties, fieldLevel, p+".additionalProperties")...)
	}

	// validateExtensions
	if s.XIntOrString && s.XPreserveUnknownFields {
		errs = append(errs, invalid(p+".x-kubernetes-preserve-unknown-fields", true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.XIntOrString && s.XEmbeddedResource {
		errs = append(errs, invalid(p+".x-kubernetes-embedded-resource", true, "must be false if x-kubernetes-int-or-string is true"))
	}

	errs = append(errs, validateJunctors(s, isIntOrStringAnyOf(s), isIntOrStringAllOf(s), lvl, p)...)

	checkMetadata := lvl == rootLevel || s.XEmbeddedResource
	switch {
	case s.XEmbeddedResource && s.Type != "object":
		if s.Type == "" {
			errs = append(errs, required(p+".type", "must be object if x-kubernetes-embedded-resource is true"))
		} else {
			errs = append(errs, invalid(p+".type", s.Type, "must be object if x-kubernetes-embedded-resource is true"))
		}
	case s.Type == "" && !s.XIntOrString && !s.XPreserveUnknownFields:
		switch lvl {
		case rootLevel:
			errs = append(errs, required(p+".type", "must not be empty at the root"))
		case itemLevel:
			errs = append(errs, required(p+".type", "must not be empty for specified array items"))
		case fieldLevel:
			errs = append(errs, required(p+".type", "must not be empty for specified object fields"))
		}
	}
	if s.XEmbeddedResource && (s.AdditionalProperties != nil || s.AdditionalPropertiesBool != nil) {
		errs = append(errs, required(p+".additionalProperties", "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == rootLevel && s.Type != "" && s.Type != "object" {
		errs = append(errs, invalid(p+".type", s.Type, "must be object at the root"))
	}
	if kind, ok := s.Properties["kind"]; ok && kind != nil && checkMetadata && kind.Type != "string" {
		errs = append(errs, invalid(propPath(p, "kind")+".type", kind.Type, "must be string"))
	}
	if av, ok := s.Properties["apiVersion"]; ok && av != nil && checkMetadata && av.Type != "string" {
		errs = append(errs, invalid(propPath(p, "apiVersion")+".type", av.Type, "must be string"))
	}
	if md, ok := s.Properties["metadata"]; ok && md != nil {
		if checkMetadata && md.Type != "object" {
			errs = append(errs, invalid(propPath(p, "metadata")+".type", md.Type, "must be object"))
		}
		if lvl == rootLevel && !onlyNameAndGenerateName(md) {
			errs = append(errs, forbidden(propPath(p, "metadata"), "must not specify anything other than name and generateName, but metadata is implicitly specified"))
		}
	}
	if s.XEmbeddedResource && !s.XPreserveUnknownFields && len(s.Properties) == 0 {
		errs = append(errs, required(p+".properties", "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
	return errs
}

// onlyNameAndGenerateName says the root's metadata schema constrains
// nothing but (optionally) name and generateName, ignoring its type and
// default.
func onlyNameAndGenerateName(md *Structural) bool {
	c := *md
	_, hasName := c.Properties["name"]
	_, hasGenerateName := c.Properties["generateName"]
	n := len(c.Properties)
	if (hasName && hasGenerateName && n == 2) || ((hasName || hasGenerateName) && n == 1) {
		c.Properties = nil
	}
	c.Type, c.Default = "", nil
	return isZero(&c)
}

// isZero says s constrains nothing (empty lists and maps count as absent).
func isZero(s *Structural) bool {
	c := *s
	c.re, c.reSrc, c.reErr = nil, "", nil
	if len(c.Properties) == 0 {
		c.Properties = nil
	}
	if len(c.Required) == 0 {
		c.Required = nil
	}
	if len(c.Enum) == 0 {
		c.Enum = nil
	}
	if len(c.XListMapKeys) == 0 {
		c.XListMapKeys = nil
	}
	return reflect.DeepEqual(c, Structural{})
}

// isBare says s is exactly {type: t}.
func isBare(s *Structural, t string) bool {
	if s == nil {
		return false
	}
	c := *s
	c.Type = ""
	return s.Type == t && isZero(&c)
}

// isIntOrStringAnyOf detects the anyOf: [{type: integer}, {type: string}]
// that may stand beside x-kubernetes-int-or-string. Mirrors
// isIntOrStringAnyOfPattern.
func isIntOrStringAnyOf(s *Structural) bool {
	return s != nil && len(s.AnyOf) == 2 && isBare(s.AnyOf[0], "integer") && isBare(s.AnyOf[1], "string")
}

// isIntOrStringAllOf detects allOf: [{anyOf: [int, string]}, …]. Mirrors
// isIntOrStringAllOfPattern.
func isIntOrStringAllOf(s *Structural) bool {
	return s != nil && len(s.AllOf) > 0 && isIntOrStringAnyOf(s.AllOf[0])
}

// validateJunctors mirrors validateValueValidation.
func validateJunctors(s *Structural, skipAnyOf, skipFirstAllOfAnyOf bool, lvl level, p string) []FieldError {
	var errs []FieldError
	if !skipAnyOf {
		for i, x := range s.AnyOf {
			errs = append(errs, validateNested(x, false, false, lvl, indexed(p+".anyOf", i))...)
		}
	}
	for i, x := range s.AllOf {
		errs = append(errs, validateNested(x, skipFirstAllOfAnyOf && i == 0, false, lvl, indexed(p+".allOf", i))...)
	}
	for i, x := range s.OneOf {
		errs = append(errs, validateNested(x, false, false, lvl, indexed(p+".oneOf", i))...)
	}
	return append(errs, validateNested(s.Not, false, false, lvl, p+".not")...)
}

// validateNested checks that a junctor's schema holds value validations
// only. Mirrors validateNestedValueValidation.
func validateNested(v *Structural, skipAnyOf, skipAllOfAnyOf bool, lvl level, p string) []FieldError {
	if v == nil {
		return nil
	}
	errs := validateJunctors(v, skipAnyOf, skipAllOfAnyOf, lvl, p)
	errs = append(errs, validateNested(v.Items, false, false, lvl, p+".items")...)
	for _, k := range sortedKeys(v.Properties) {
		errs = append(errs, validateNested(v.Properties[k], false, false, fieldLevel, propPath(p, k))...)
	}
	if v.Type != "" {
		errs = append(errs, forbidden(p+".type", "must be empty to be structural"))
	}
	if v.AdditionalProperties != nil || v.AdditionalPropertiesBool != nil {
		errs = append(errs, forbidden(p+".additionalProperties", "must be undefined to be structural"))
	}
	if v.Default != nil {
		errs = append(errs, forbidden(p+".default", "must be undefined to be structural"))
	}
	if v.Title != "" {
		errs = append(errs, forbidden(p+".title", "must be empty to be structural"))
	}
	if v.Description != "" {
		errs = append(errs, forbidden(p+".description", "must be empty to be structural"))
	}
	if v.Nullable {
		errs = append(errs, forbidden(p+".nullable", "must be false to be structural"))
	}
	if v.XPreserveUnknownFields {
		errs = append(errs, forbidden(p+".x-kubernetes-preserve-unknown-fields", "must be false to be structural"))
	}
	if v.XEmbeddedResource {
		errs = append(errs, forbidden(p+".x-kubernetes-embedded-resource", "must be false to be structural"))
	}
	if v.XIntOrString {
		errs = append(errs, forbidden(p+".x-kubernetes-int-or-string", "must be false to be structural"))
	}
	if len(v.XListMapKeys) > 0 {
		errs = append(errs, forbidden(p+".x-kubernetes-list-map-keys", "must be empty to be structural"))
	}
	if v.XListType != nil {
		errs = append(errs, forbidden(p+".x-kubernetes-list-type", "must be undefined to be structural"))
	}
	if v.XMapType != nil {
		errs = append(errs, forbidden(p+".x-kubernetes-map-type", "must be undefined to be structural"))
	}
	if _, ok := v.Properties["metadata"]; ok {
		errs = append(errs, forbidden(propPath(p, "metadata"), "must not be specified in a nested context"))
	}
	return errs
}

// validateCompleteness checks that every field a junctor (v, at vPath)
// talks about is declared in the structural part (s, at sPath). Mirrors
// validateValueValidationCompleteness.
func validateCompleteness(v, s *Structural, sPath, vPath string) []FieldError {
	if v == nil {
		return nil
	}
	errs := nestedCompleteness(v.Not, s, sPath, vPath+".not")
	for i, x := range v.AllOf {
		errs = append(errs, nestedCompleteness(x, s, sPath, indexed(vPath+".allOf", i))...)
	}
	for i, x := range v.AnyOf {
		errs = append(errs, nestedCompleteness(x, s, sPath, indexed(vPath+".anyOf", i))...)
	}
	for i, x := range v.OneOf {
		errs = append(errs, nestedCompleteness(x, s, sPath, indexed(vPath+".oneOf", i))...)
	}
	// The structural part's own children may carry junctors too.
	if v == s {
		errs = append(errs, validateCompleteness(s.Items, s.Items, sPath+".items", sPath+".items")...)
		for _, k := range sortedKeys(s.Properties) {
			errs = append(errs, validateCompleteness(s.Properties[k], s.Properties[k], propPath(sPath, k), propPath(sPath, k))...)
		}
		if s.AdditionalProperties != nil {
			ap := s.AdditionalProperties
			errs = append(errs, validateCompleteness(ap, ap, sPath+".additionalProperties", sPath+".additionalProperties")...)
		}
	}
	return errs
}

// nestedCompleteness mirrors validateNestedValueValidationCompleteness.
func nestedCompleteness(v, s *Structural, sPath, vPath string) []FieldError {
	if v == nil {
		return nil
	}
	if s == nil {
		return []FieldError{required(sPath, "because it is defined in "+vPath)}
	}
	errs := validateCompleteness(v, s, sPath, vPath)
	errs = append(errs, nestedCompleteness(v.Items, s.Items, sPath+".items", vPath+".items")...)
	for _, k := range sortedKeys(v.Properties) {
		if sf, ok := s.Properties[k]; ok {
			errs = append(errs, nestedCompleteness(v.Properties[k], sf, propPath(sPath, k), propPath(vPath, k))...)
		} else if s.AdditionalProperties != nil {
			errs = append(errs, nestedCompleteness(v.Properties[k], s.AdditionalProperties, sPath+".additionalProperties", propPath(vPath, k))...)
		} else {
			errs = append(errs, required(propPath(sPath, k), "because it is defined in "+propPath(vPath, k)))
		}
	}
	return errs
}

var schemaTypeNames = []string{"array", "boolean", "integer", "number", "object", "string"}

// validateAPIRules checks the rules of the CRD API's schema validation
// that need nothing but the schema, recursively. inJunctor is set below
// allOf/anyOf/oneOf/not.
func validateAPIRules(s *Structural, p string, inJunctor bool) []FieldError {
	if s == nil {
		return nil
	}
	var errs []FieldError
	for _, k := range s.unsupported {
		switch k {
		case "items":
			errs = append(errs, forbidden(p+".items", "items must be a schema object and not an array"))
		case "additionalItems":
			errs = append(errs, forbidden(p+".additionalItems", "additionalItems is not supported"))
		default:
			errs = append(errs, forbidden(p+"."+k, k+" is not supported"))
		}
	}
	if s.UniqueItems {
		errs = append(errs, forbidden(p+".uniqueItems", "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	switch {
	case s.Type == "null":
		errs = append(errs, forbidden(p+".type", "type cannot be set to null, use nullable as an alternative"))
	case s.Type != "" && !slices.Contains(schemaTypeNames, s.Type):
		errs = append(errs, notSupported(p+".type", s.Type, schemaTypeNames))
	}
	if len(s.Properties) > 0 && (s.AdditionalProperties != nil || (s.AdditionalPropertiesBool != nil && !*s.AdditionalPropertiesBool)) {
		errs = append(errs, forbidden(p+".additionalProperties", "additionalProperties and properties are mutual exclusive"))
	}
	errs = append(errs, validateListType(s, p)...)
	if s.Default != nil && !inJunctor {
		errs = append(errs, validateDefault(s, p)...)
	}

	errs = append(errs, validateAPIRules(s.Items, p+".items", inJunctor)...)
	for _, k := range sortedKeys(s.Properties) {
		errs = append(errs, validateAPIRules(s.Properties[k], propPath(p, k), inJunctor)...)
	}
	errs = append(errs, validateAPIRules(s.AdditionalProperties, p+".additionalProperties", inJunctor)...)
	for i, x := range s.AllOf {
		errs = append(errs, validateAPIRules(x, indexed(p+".allOf", i), true)...)
	}
	for i, x := range s.AnyOf {
		errs = append(errs, validateAPIRules(x, indexed(p+".anyOf", i), true)...)
	}
	for i, x := range s.OneOf {
		errs = append(errs, validateAPIRules(x, indexed(p+".oneOf", i), true)...)
	}
	return append(errs, validateAPIRules(s.Not, p+".not", true)...)
}

// validateListType checks x-kubernetes-list-type and list-map-keys.
func validateListType(s *Structural, p string) []FieldError {
	var errs []FieldError
	if s.XListType != nil {
		lt := *s.XListType
		switch {
		case lt != "atomic" && lt != "set" && lt != "map":
			errs = append(errs, notSupported(p+".x-kubernetes-list-type", lt, []string{"atomic", "set", "map"}))
		case s.Type != "array":
			errs = append(errs, invalid(p+".x-kubernetes-list-type", lt, "must only be used if type is array"))
		case lt == "map":
			if len(s.XListMapKeys) == 0 {
				errs = append(errs, required(p+".x-kubernetes-list-map-keys", "must not be empty if x-kubernetes-list-type is map"))
			}
			if s.Items == nil {
				errs = append(errs, required(p+".items", "must have an items schema if x-kubernetes-list-type is map"))
				break
			}
			if s.Items.Type != "object" {
				errs = append(errs, invalid(p+".items.type", s.Items.Type, "must be object if parent array's x-kubernetes-list-type is map"))
				break
			}
			for _, k := range s.XListMapKeys {
				ks, ok := s.Items.Properties[k]
				if !ok {
					errs = append(errs, required(propPath(p+".items", k), "must be present as item property if parent array's x-kubernetes-list-map-keys contains it"))
					continue
				}
				if ks != nil && ks.Type != "string" && ks.Type != "integer" && ks.Type != "number" && ks.Type != "boolean" && !ks.XIntOrString {
					errs = append(errs, invalid(propPath(p+".items", k)+".type", ks.Type, "must be a scalar type if parent array's x-kubernetes-list-type is map"))
				}
			}
		}
	}
	if len(s.XListMapKeys) > 0 && (s.XListType == nil || *s.XListType != "map") {
		errs = append(errs, forbidden(p+".x-kubernetes-list-map-keys", "must be empty if x-kubernetes-list-type is not map"))
	}
	return errs
}

// validateDefault checks that a default validates against its own node and
// has no fields pruning would drop. Mirrors defaulting.ValidateDefaults.
func validateDefault(s *Structural, p string) []FieldError {
	errs := ValidateValue(s, p+".default", s.Default)
	switch s.Default.(type) {
	case map[string]any, []any:
		pruned := deepCopyJSON(s.Default)
		pr := pruner{}
		pr.prune(pruned, s, "")
		if len(pr.paths) > 0 {
			errs = append(errs, invalid(p+".default", s.Default, "must not have unknown fields"))
		}
	}
	return errs
}

// ValidateDefaults checks every default of s (outside allOf, anyOf, oneOf
// and not, where defaults are forbidden anyway) against the node it sits
// on: it must validate, and have no field pruning would drop. fldPath is
// the schema's path in the CRD. ValidateStructural includes it; the CRD
// registry calls it alone, for schemas whose other rules the CRD
// validation checks itself.
//
// Mirrors defaulting.ValidateDefaults.
func ValidateDefaults(s *Structural, fldPath string) []FieldError {
	if s == nil {
		return nil
	}
	var errs []FieldError
	if s.Default != nil {
		errs = append(errs, validateDefault(s, fldPath)...)
	}
	errs = append(errs, ValidateDefaults(s.Items, fldPath+".items")...)
	for _, k := range sortedKeys(s.Properties) {
		errs = append(errs, ValidateDefaults(s.Properties[k], propPath(fldPath, k))...)
	}
	return append(errs, ValidateDefaults(s.AdditionalProperties, fldPath+".additionalProperties")...)
}
