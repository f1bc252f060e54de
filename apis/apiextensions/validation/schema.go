package validation

import (
	"fmt"
	"regexp"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/validation/field"
)

// schema levels, for the wording of "type must not be empty" errors.
type level int

const (
	rootLevel level = iota
	itemLevel
	fieldLevel
)

// ValidateCustomResourceDefinitionValidation checks one schema
// (spec.validation or spec.versions[*].schema): the OpenAPI subset a CRD may
// use, and that it is structural.
//
// Mirrors validateCustomResourceDefinitionValidation in
// pkg/apis/apiextensions/validation/validation.go, with the structural
// checks of pkg/apiserver/schema/validation.go.
func ValidateCustomResourceDefinitionValidation(v *apiextensions.CustomResourceValidation, statusSubresourceEnabled bool, fldPath *field.Path) field.ErrorList {
	if v == nil || v.OpenAPIV3Schema == nil {
		return nil
	}
	p := fldPath.Child("openAPIV3Schema")
	allErrs := ValidateCustomResourceDefinitionOpenAPISchema(v.OpenAPIV3Schema, p)
	allErrs = append(allErrs, ValidateStructural(v.OpenAPIV3Schema, p)...)
	if statusSubresourceEnabled && v.OpenAPIV3Schema.Type != "" && v.OpenAPIV3Schema.Type != "object" {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("openAPIV3Schema.type"), v.OpenAPIV3Schema.Type, `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`))
	}
	return allErrs
}

// ValidateCustomResourceDefinitionOpenAPISchema checks, recursively, the
// JSON-Schema features a CRD may not use ($ref, definitions, patterns that
// do not compile …).
//
// Mirrors ValidateCustomResourceDefinitionOpenAPISchema and specStandardValidatorV3.validate.
func ValidateCustomResourceDefinitionOpenAPISchema(s *apiextensions.JSONSchemaProps, fldPath *field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	var allErrs field.ErrorList
	if len(s.Type) > 0 && s.Type != "null" && !contains(openapiV3Types, s.Type) {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("type"), s.Type, openapiV3Types))
	}
	if s.ID != "" {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("id"), "id is not supported"))
	}
	if s.AdditionalItems != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("additionalItems"), "additionalItems is not supported"))
	}
	if len(s.PatternProperties) != 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("patternProperties"), "patternProperties is not supported"))
	}
	if len(s.Definitions) != 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("definitions"), "definitions is not supported"))
	}
	if s.Dependencies != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("dependencies"), "dependencies is not supported"))
	}
	if s.Ref != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("$ref"), "$ref is not supported"))
	}
	if s.Type == "null" {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("type"), "type cannot be set to null, use nullable as an alternative"))
	}
	if s.Items != nil && len(s.Items.JSONSchemas) != 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("items"), "items must be a schema object and not an array"))
	}
	if s.UniqueItems {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	if len(s.Pattern) > 0 {
		if _, err := regexp.Compile(s.Pattern); err != nil {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("pattern"), s.Pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)))
		}
	}
	// properties are for structs, additionalProperties for maps: not both.
	if s.AdditionalProperties != nil {
		if len(s.Properties) != 0 && (!s.AdditionalProperties.Allows || s.AdditionalProperties.Schema != nil) {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
		}
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(s.AdditionalProperties.Schema, fldPath.Child("additionalProperties"))...)
	}
	allErrs = append(allErrs, validateListAndMapTypes(s, fldPath)...)

	for _, k := range sortedSchemaKeys(s.Properties) {
		prop := s.Properties[k]
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(&prop, fldPath.Child("properties").Key(k))...)
	}
	allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(s.Not, fldPath.Child("not"))...)
	for i := range s.AllOf {
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(&s.AllOf[i], fldPath.Child("allOf").Index(i))...)
	}
	for i := range s.OneOf {
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(&s.OneOf[i], fldPath.Child("oneOf").Index(i))...)
	}
	for i := range s.AnyOf {
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(&s.AnyOf[i], fldPath.Child("anyOf").Index(i))...)
	}
	if s.Items != nil {
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(s.Items.Schema, fldPath.Child("items"))...)
	}
	return allErrs
}

func validateListAndMapTypes(s *apiextensions.JSONSchemaProps, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if s.XListType != nil {
		lt := *s.XListType
		if s.Type != "array" {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("x-kubernetes-list-type"), lt, "must only be used if type is array"))
		}
		switch lt {
		case "atomic", "set":
		case "map":
			if len(s.XListMapKeys) == 0 {
				allErrs = append(allErrs, field.Required(fldPath.Child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"))
			}
			if s.Items == nil || s.Items.Schema == nil || s.Items.Schema.Type != "object" {
				allErrs = append(allErrs, field.Invalid(fldPath.Child("x-kubernetes-list-type"), lt, "must only be used if items type is object"))
			} else {
				for _, k := range s.XListMapKeys {
					if _, ok := s.Items.Schema.Properties[k]; !ok {
						allErrs = append(allErrs, field.Invalid(fldPath.Child("x-kubernetes-list-map-keys"), s.XListMapKeys, "entries must all be names of item properties"))
						break
					}
				}
			}
		default:
			allErrs = append(allErrs, field.NotSupported(fldPath.Child("x-kubernetes-list-type"), lt, []string{"atomic", "set", "map"}))
		}
	}
	if len(s.XListMapKeys) > 0 && (s.XListType == nil || *s.XListType != "map") {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-list-map-keys"), "must be empty if x-kubernetes-list-type is not map"))
	}
	if s.XMapType != nil && *s.XMapType != "granular" && *s.XMapType != "atomic" {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("x-kubernetes-map-type"), *s.XMapType, []string{"granular", "atomic"}))
	}
	return allErrs
}

// ValidateStructural checks that a schema is structural: every specified
// field has a type (the root is an object), value validations (allOf,
// anyOf, oneOf, not) do not carry types or other structure, and metadata
// at the root names nothing but name and generateName. Pruning and
// defaulting of custom resources rely on it.
//
// Mirrors validateStructuralInvariants and validateNestedValueValidation
// in k8s.io/apiextensions-apiserver/pkg/apiserver/schema/validation.go.
func ValidateStructural(s *apiextensions.JSONSchemaProps, fldPath *field.Path) field.ErrorList {
	return validateStructuralInvariants(s, rootLevel, fldPath)
}

func validateStructuralInvariants(s *apiextensions.JSONSchemaProps, lvl level, fldPath *field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	var allErrs field.ErrorList
	if s.Type == "array" && (s.Items == nil || s.Items.Schema == nil) {
		allErrs = append(allErrs, field.Required(fldPath.Child("items"), "must be specified"))
	}
	if s.Items != nil {
		allErrs = append(allErrs, validateStructuralInvariants(s.Items.Schema, itemLevel, fldPath.Child("items"))...)
	}
	for _, k := range sortedSchemaKeys(s.Properties) {
		prop := s.Properties[k]
		allErrs = append(allErrs, validateStructuralInvariants(&prop, fieldLevel, fldPath.Child("properties").Key(k))...)
	}
	if s.AdditionalProperties != nil {
		allErrs = append(allErrs, validateStructuralInvariants(s.AdditionalProperties.Schema, fieldLevel, fldPath.Child("additionalProperties"))...)
	}

	if s.XIntOrString && s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("x-kubernetes-preserve-unknown-fields"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.XIntOrString && s.XEmbeddedResource {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("x-kubernetes-embedded-resource"), true, "must be false if x-kubernetes-int-or-string is true"))
	}

	// Value validations may constrain values, never describe structure.
	// The int-or-string idiom (anyOf: [{type: integer}, {type: string}])
	// is the one exception.
	skipAnyOf := s.XIntOrString && isIntOrStringAnyOf(s.AnyOf)
	skipFirstAllOfAnyOf := s.XIntOrString && len(s.AllOf) > 0 && isIntOrStringAnyOf(s.AllOf[0].AnyOf)
	for i := range s.AllOf {
		allErrs = append(allErrs, validateNestedValueValidation(&s.AllOf[i], i == 0 && skipFirstAllOfAnyOf, fldPath.Child("allOf").Index(i))...)
	}
	if !skipAnyOf {
		for i := range s.AnyOf {
			allErrs = append(allErrs, validateNestedValueValidation(&s.AnyOf[i], false, fldPath.Child("anyOf").Index(i))...)
		}
	}
	for i := range s.OneOf {
		allErrs = append(allErrs, validateNestedValueValidation(&s.OneOf[i], false, fldPath.Child("oneOf").Index(i))...)
	}
	if s.Not != nil {
		allErrs = append(allErrs, validateNestedValueValidation(s.Not, false, fldPath.Child("not"))...)
	}

	checkMetadata := lvl == rootLevel || s.XEmbeddedResource
	if s.XEmbeddedResource && s.Type != "object" {
		if len(s.Type) == 0 {
			allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must be object if x-kubernetes-embedded-resource is true"))
		} else {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("type"), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
		}
	} else if len(s.Type) == 0 && !s.XEmbeddedResource && !s.XIntOrString {
		switch lvl {
		case rootLevel:
			allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must not be empty at the root"))
		case itemLevel:
			allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must not be empty for specified array items"))
		case fieldLevel:
			allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must not be empty for specified object fields"))
		}
	}
	if s.XEmbeddedResource && s.AdditionalProperties != nil {
		allErrs = append(allErrs, field.Required(fldPath.Child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == rootLevel && len(s.Type) > 0 && s.Type != "object" {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("type"), s.Type, "must be object at the root"))
	}
	if checkMetadata {
		if kind, ok := s.Properties["kind"]; ok && kind.Type != "string" {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("properties").Key("kind").Child("type"), kind.Type, "must be string"))
		}
		if av, ok := s.Properties["apiVersion"]; ok && av.Type != "string" {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("properties").Key("apiVersion").Child("type"), av.Type, "must be string"))
		}
		if md, ok := s.Properties["metadata"]; ok && md.Type != "object" {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("properties").Key("metadata").Child("type"), md.Type, "must be object"))
		}
	}
	if md, ok := s.Properties["metadata"]; ok && lvl == rootLevel && !metadataIsShallow(md) {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("properties").Key("metadata"), "must not specify anything other than name and generateName, but metadata is implicitly specified"))
	}
	if s.XEmbeddedResource && (s.XPreserveUnknownFields == nil || !*s.XPreserveUnknownFields) && len(s.Properties) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
	return allErrs
}

// metadataIsShallow reports whether a root metadata schema says no more
// than "type: object" and, optionally, something about name and generateName.
func metadataIsShallow(md apiextensions.JSONSchemaProps) bool {
	for k := range md.Properties {
		if k != "name" && k != "generateName" {
			return false
		}
	}
	md.Properties = nil
	md.Type = ""
	md.Description = ""
	return isZeroSchema(&md)
}

func isZeroSchema(s *apiextensions.JSONSchemaProps) bool {
	zero := apiextensions.JSONSchemaProps{}
	return fmt.Sprintf("%#v", *s) == fmt.Sprintf("%#v", zero)
}

func isIntOrStringAnyOf(anyOf []apiextensions.JSONSchemaProps) bool {
	return len(anyOf) == 2 && anyOf[0].Type == "integer" && anyOf[1].Type == "string" &&
		isOnlyType(anyOf[0]) && isOnlyType(anyOf[1])
}

func isOnlyType(s apiextensions.JSONSchemaProps) bool {
	s.Type = ""
	return isZeroSchema(&s)
}

// validateNestedValueValidation forbids structure inside allOf, anyOf,
// oneOf and not.
func validateNestedValueValidation(v *apiextensions.JSONSchemaProps, skipAnyOf bool, fldPath *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	var allErrs field.ErrorList
	for i := range v.AllOf {
		allErrs = append(allErrs, validateNestedValueValidation(&v.AllOf[i], false, fldPath.Child("allOf").Index(i))...)
	}
	if !skipAnyOf {
		for i := range v.AnyOf {
			allErrs = append(allErrs, validateNestedValueValidation(&v.AnyOf[i], false, fldPath.Child("anyOf").Index(i))...)
		}
	}
	for i := range v.OneOf {
		allErrs = append(allErrs, validateNestedValueValidation(&v.OneOf[i], false, fldPath.Child("oneOf").Index(i))...)
	}
	if v.Not != nil {
		allErrs = append(allErrs, validateNestedValueValidation(v.Not, false, fldPath.Child("not"))...)
	}
	if v.Items != nil {
		allErrs = append(allErrs, validateNestedValueValidation(v.Items.Schema, false, fldPath.Child("items"))...)
	}
	for _, k := range sortedSchemaKeys(v.Properties) {
		prop := v.Properties[k]
		allErrs = append(allErrs, validateNestedValueValidation(&prop, false, fldPath.Child("properties").Key(k))...)
	}
	if len(v.Type) > 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("type"), "must be empty to be structural"))
	}
	if v.AdditionalProperties != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("additionalProperties"), "must be undefined to be structural"))
	}
	if v.Default != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("default"), "must be undefined to be structural"))
	}
	if len(v.Title) > 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("title"), "must be empty to be structural"))
	}
	if len(v.Description) > 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("description"), "must be empty to be structural"))
	}
	if v.Nullable {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("nullable"), "must be false to be structural"))
	}
	if v.XPreserveUnknownFields != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-preserve-unknown-fields"), "must be undefined to be structural"))
	}
	if v.XEmbeddedResource {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-embedded-resource"), "must be false to be structural"))
	}
	if v.XIntOrString {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-int-or-string"), "must be false to be structural"))
	}
	if len(v.XListMapKeys) > 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-list-map-keys"), "must be empty to be structural"))
	}
	if v.XListType != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-list-type"), "must be undefined to be structural"))
	}
	if v.XMapType != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-map-type"), "must be undefined to be structural"))
	}
	return allErrs
}
