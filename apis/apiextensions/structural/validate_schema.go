package structural

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"

	"github.com/crdlab/crdlab/apis/validation/field"
)

// level is where a schema node sits, which decides the wording of a
// missing type.
type level int

const (
	rootLevel  level = iota // the schema of the resource itself
	itemLevel               // the items of an array
	fieldLevel              // a property or additionalProperties
)

// ValidateStructural reports why s is not a structural schema. fldPath is
// the schema's path in the CRD, e.g. spec.versions[0].schema.openAPIV3Schema;
// errors read like
//
//	spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields
//
// The rules (upstream's, one for one):
//   - every node has a type, except where x-kubernetes-int-or-string or
//     x-kubernetes-preserve-unknown-fields stands in; arrays have items;
//   - the root is an object without additionalProperties; its metadata
//     may only restrict name and generateName, and kind and apiVersion are
//     strings (also in an x-kubernetes-embedded-resource, which must be an
//     object with properties unless it preserves unknown fields);
//   - allOf, anyOf, oneOf and not carry value validations only: no type,
//     default, nullable, title, description, additionalProperties,
//     x-kubernetes-* extensions or CEL rules, and no metadata property
//     (the int-or-string anyOf [{type: integer}, {type: string}] is the
//     one exception);
//   - every property a junctor of the root names is also declared in the
//     structural part (completeness);
//   - every pattern compiles.
//
// The errors are sorted, as upstream sorts them.
//
// Mirrors schema.ValidateStructural (validateStructuralInvariants,
// validateStructuralCompleteness) in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/validation.go and complete.go.
// The CRD validation calls it for each schema, and so does the
// NonStructuralSchema condition controller.
func ValidateStructural(fldPath *field.Path, s *Structural) field.ErrorList {
	allErrs := validateInvariants(s, rootLevel, fldPath)
	allErrs = append(allErrs, validateCompleteness(s, fldPath)...)
	sort.SliceStable(allErrs, func(i, j int) bool { return allErrs[i].Error() < allErrs[j].Error() })
	return allErrs
}

// validateInvariants mirrors validateStructuralInvariants.
func validateInvariants(s *Structural, lvl level, p *field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	var errs field.ErrorList
	if s.Type == "array" && s.Items == nil {
		errs = append(errs, field.Required(p.Child("items"), "must be specified"))
	}
	if s.Items != nil {
		errs = append(errs, validateInvariants(s.Items, itemLevel, p.Child("items"))...)
	}
	pp := propertiesPath(p, s)
	for _, k := range sortedKeys(s.Properties) {
		errs = append(errs, validateInvariants(s.Properties[k], fieldLevel, pp.Key(k))...)
	}
	if hasAdditionalProperties(s) {
		if lvl == rootLevel {
			errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "must not be used at the root"))
		}
		errs = append(errs, validateInvariants(s.AdditionalProperties, fieldLevel, p.Child("additionalProperties"))...)
	}

	// validateExtensions
	if s.XIntOrString && s.XPreserveUnknownFields {
		errs = append(errs, field.Invalid(p.Child("x-kubernetes-preserve-unknown-fields"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.XIntOrString && s.XEmbeddedResource {
		errs = append(errs, field.Invalid(p.Child("x-kubernetes-embedded-resource"), true, "must be false if x-kubernetes-int-or-string is true"))
	}

	errs = append(errs, validateValueValidation(s, isIntOrStringAnyOf(s), isIntOrStringAllOf(s), lvl, p)...)

	checkMetadata := lvl == rootLevel || s.XEmbeddedResource
	switch {
	case s.XEmbeddedResource && s.Type != "object":
		if s.Type == "" {
			errs = append(errs, field.Required(p.Child("type"), "must be object if x-kubernetes-embedded-resource is true"))
		} else {
			errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
		}
	case s.Type == "" && !s.XIntOrString && !s.XPreserveUnknownFields:
		switch lvl {
		case rootLevel:
			errs = append(errs, field.Required(p.Child("type"), "must not be empty at the root"))
		case itemLevel:
			errs = append(errs, field.Required(p.Child("type"), "must not be empty for specified array items"))
		case fieldLevel:
			errs = append(errs, field.Required(p.Child("type"), "must not be empty for specified object fields"))
		}
	}
	if s.XEmbeddedResource && hasAdditionalProperties(s) {
		errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == rootLevel && s.Type != "" && s.Type != "object" {
		errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be object at the root"))
	}
	for _, k := range []string{"kind", "apiVersion"} {
		if t, ok := s.Properties[k]; ok && checkMetadata && t.Type != "string" {
			errs = append(errs, field.Invalid(p.Child("properties").Key(k).Child("type"), t.Type, "must be string"))
		}
	}
	if md, ok := s.Properties["metadata"]; ok {
		mp := p.Child("properties").Key("metadata")
		if checkMetadata && md.Type != "object" {
			errs = append(errs, field.Invalid(mp.Child("type"), md.Type, "must be object"))
		}
		if lvl == rootLevel && !onlyNameAndGenerateName(md) {
			errs = append(errs, field.Forbidden(mp, "must not specify anything other than name and generateName, but metadata is implicitly specified"))
		}
	}
	if s.XEmbeddedResource && !s.XPreserveUnknownFields && len(s.Properties) == 0 {
		errs = append(errs, field.Required(p.Child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
	return errs
}

// hasAdditionalProperties says additionalProperties is set, as a schema or
// as a boolean.
func hasAdditionalProperties(s *Structural) bool {
	return s.AdditionalProperties != nil || s.AdditionalPropertiesBool != nil
}

// onlyNameAndGenerateName says the root's metadata schema restricts
// nothing but (optionally) name and generateName, ignoring its type and
// default. Mirrors validateStructuralMetadataInvariants.
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

// isZero says s constrains and describes nothing (empty lists and maps
// count as absent).
func isZero(s *Structural) bool {
	c := *s
	c.re, c.reSrc, c.reErr = nil, "", nil
	c.noEmbedded, c.noListSetMap = false, false
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
	if len(c.XValidations) == 0 {
		c.XValidations = nil
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

// isIntOrStringAnyOf detects anyOf: [{type: integer}, {type: string}], the
// one junctor allowed to carry types. Mirrors isIntOrStringAnyOfPattern.
func isIntOrStringAnyOf(s *Structural) bool {
	return s != nil && len(s.AnyOf) == 2 && isBare(s.AnyOf[0], "integer") && isBare(s.AnyOf[1], "string")
}

// isIntOrStringAllOf detects allOf: [{anyOf: [int, string]}, …]. Mirrors
// isIntOrStringAllOfPattern.
func isIntOrStringAllOf(s *Structural) bool {
	return s != nil && len(s.AllOf) > 0 && isIntOrStringAnyOf(s.AllOf[0])
}

// validateValueValidation checks the junctors of s and its pattern.
// Mirrors validateValueValidation.
func validateValueValidation(s *Structural, skipAnyOf, skipFirstAllOfAnyOf bool, lvl level, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !skipAnyOf {
		for i, x := range s.AnyOf {
			errs = append(errs, validateNested(x, false, lvl, p.Child("anyOf").Index(i))...)
		}
	}
	for i, x := range s.AllOf {
		errs = append(errs, validateNested(x, skipFirstAllOfAnyOf && i == 0, lvl, p.Child("allOf").Index(i))...)
	}
	for i, x := range s.OneOf {
		errs = append(errs, validateNested(x, false, lvl, p.Child("oneOf").Index(i))...)
	}
	errs = append(errs, validateNested(s.Not, false, lvl, p.Child("not"))...)
	if s.Pattern != "" {
		if _, err := regexp.Compile(s.Pattern); err != nil {
			errs = append(errs, field.Invalid(p.Child("pattern"), s.Pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)))
		}
	}
	return errs
}

// propertiesPath is p.Child("properties") if s has properties: made once
// for all of them, not once per property.
func propertiesPath(p *field.Path, s *Structural) *field.Path {
	if len(s.Properties) == 0 {
		return nil
	}
	return p.Child("properties")
}

// validateNested checks that a junctor's schema holds value validations
// only. Mirrors validateNestedValueValidation.
func validateNested(v *Structural, skipAnyOf bool, lvl level, p *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	errs := validateValueValidation(v, skipAnyOf, false, lvl, p)
	if v.Items != nil {
		errs = append(errs, validateNested(v.Items, false, lvl, p.Child("items"))...)
	}
	pp := propertiesPath(p, v)
	for _, k := range sortedKeys(v.Properties) {
		errs = append(errs, validateNested(v.Properties[k], false, fieldLevel, pp.Key(k))...)
	}
	if v.Type != "" {
		errs = append(errs, field.Forbidden(p.Child("type"), "must be empty to be structural"))
	}
	// As upstream, additionalProperties: false says nothing in a junctor
	// (it converts to no nested schema at all).
	if v.AdditionalProperties != nil || (v.AdditionalPropertiesBool != nil && *v.AdditionalPropertiesBool) {
		errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "must be undefined to be structural"))
	}
	if v.Default != nil {
		errs = append(errs, field.Forbidden(p.Child("default"), "must be undefined to be structural"))
	}
	if v.Title != "" {
		errs = append(errs, field.Forbidden(p.Child("title"), "must be empty to be structural"))
	}
	if v.Description != "" {
		errs = append(errs, field.Forbidden(p.Child("description"), "must be empty to be structural"))
	}
	if v.Nullable {
		errs = append(errs, field.Forbidden(p.Child("nullable"), "must be false to be structural"))
	}
	if v.XPreserveUnknownFields {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-preserve-unknown-fields"), "must be false to be structural"))
	}
	if v.XEmbeddedResource {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-embedded-resource"), "must be false to be structural"))
	}
	if v.XIntOrString {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-int-or-string"), "must be false to be structural"))
	}
	if len(v.XListMapKeys) > 0 {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-list-map-keys"), "must be empty to be structural"))
	}
	if v.XListType != nil {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-list-type"), "must be undefined to be structural"))
	}
	if v.XMapType != nil {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-map-type"), "must be undefined to be structural"))
	}
	if len(v.XValidations) > 0 {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-validations"), "must be empty to be structural"))
	}
	if _, ok := v.Properties["metadata"]; ok {
		errs = append(errs, field.Forbidden(p.Child("properties").Key("metadata"), "must not be specified in a nested context"))
	}
	return errs
}

// validateCompleteness checks that every field the root's junctors talk
// about is declared in the structural part. As upstream, only the root's
// junctors are followed: a junctor further down is not checked.
//
// Mirrors validateStructuralCompleteness.
func validateCompleteness(s *Structural, p *field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	return junctorCompleteness(s, s, p, p)
}

// junctorCompleteness walks the junctors of v against s. Mirrors
// validateValueValidationCompleteness.
func junctorCompleteness(v, s *Structural, sPath, vPath *field.Path) field.ErrorList {
	errs := nestedCompleteness(v.Not, s, sPath, vPath.Child("not"))
	for i, x := range v.AllOf {
		errs = append(errs, nestedCompleteness(x, s, sPath, vPath.Child("allOf").Index(i))...)
	}
	for i, x := range v.AnyOf {
		errs = append(errs, nestedCompleteness(x, s, sPath, vPath.Child("anyOf").Index(i))...)
	}
	for i, x := range v.OneOf {
		errs = append(errs, nestedCompleteness(x, s, sPath, vPath.Child("oneOf").Index(i))...)
	}
	return errs
}

// nestedCompleteness mirrors validateNestedValueValidationCompleteness.
func nestedCompleteness(v, s *Structural, sPath, vPath *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	if s == nil {
		return field.ErrorList{field.Required(sPath, "because it is defined in "+vPath.String())}
	}
	errs := junctorCompleteness(v, s, sPath, vPath)
	errs = append(errs, nestedCompleteness(v.Items, s.Items, sPath.Child("items"), vPath.Child("items"))...)
	for _, k := range sortedKeys(v.Properties) {
		if sf, ok := s.Properties[k]; ok {
			errs = append(errs, nestedCompleteness(v.Properties[k], sf, sPath.Child("properties").Key(k), vPath.Child("properties").Key(k))...)
		} else {
			errs = append(errs, field.Required(sPath.Child("properties").Key(k), "because it is defined in "+vPath.Child("properties").Key(k).String()))
		}
	}
	return errs
}
