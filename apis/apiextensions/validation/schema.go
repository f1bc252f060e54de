package validation

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/cel"
	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/apis/validation/field"
)

// openapiV3Types are the types a schema node may name.
var openapiV3Types = []string{"array", "boolean", "integer", "number", "object", "string"}

// metaFields are the fields of a resource (or an embedded one) that
// ObjectMeta and TypeMeta own.
var metaFields = map[string]bool{"metadata": true, "kind": true, "apiVersion": true}

// allowedFieldsAtRootSchema are the only fields the root schema may set
// when the status subresource is on: status is cut out as
// properties["status"], and nothing at the root may validate it.
var allowedFieldsAtRootSchema = []string{"Description", "Type", "Format", "Title", "Maximum", "ExclusiveMaximum", "Minimum", "ExclusiveMinimum", "MaxLength", "MinLength", "Pattern", "MaxItems", "MinItems", "UniqueItems", "MultipleOf", "Required", "Items", "Properties", "ExternalDocs", "Example", "XPreserveUnknownFields", "XValidations"}

// validateCustomResourceDefinitionValidation checks one schema
// (spec.validation or spec.versions[*].schema), in upstream's order:
// the root-only rules, then — when the schema must be structural — that it
// is (structural.ValidateStructural) and that its defaults fit
// (structural.ValidateDefaults), then the OpenAPI subset a CRD may use
// (ValidateCustomResourceDefinitionOpenAPISchema).
//
// Mirrors validateCustomResourceDefinitionValidation in
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go.
func validateCustomResourceDefinitionValidation(v *apiextensions.CustomResourceValidation, statusSubresourceEnabled bool, opts validationOptions, fldPath *field.Path) field.ErrorList {
	if v == nil || v.OpenAPIV3Schema == nil {
		return nil
	}
	schema := v.OpenAPIV3Schema
	p := fldPath.Child("openAPIV3Schema")
	var allErrs field.ErrorList

	if statusSubresourceEnabled {
		allErrs = append(allErrs, validateRootWithStatus(schema, fldPath)...)
	}
	if schema.Nullable {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("openAPIV3Schema.nullable"), "nullable cannot be true at the root"))
	}

	var initErrs field.ErrorList
	// celReady: the schema is structural with valid defaults, so its CEL
	// rules can be typed and compiled (upstream's CELSchemaContext).
	celReady := false
	ss, ssErr := newStructural(schema)
	if opts.requireStructuralSchema {
		if ssErr != nil {
			// These overlap with the OpenAPI schema errors: shown only
			// when there are no others.
			initErrs = append(initErrs, field.Invalid(p, "", ssErr.Error()))
		} else if errs := structural.ValidateStructural(p, ss); len(errs) > 0 {
			allErrs = append(allErrs, errs...)
		} else if errs := structural.ValidateDefaults(p, ss, true, opts.requirePrunedDefaults); len(errs) > 0 {
			allErrs = append(allErrs, errs...)
		} else {
			celReady = true
		}
	}
	ssv := specStandardValidator{allowDefaults: true, requireValidPropertyType: opts.requireValidPropertyType}
	schemaErrs := ValidateCustomResourceDefinitionOpenAPISchema(schema, p, ssv, true, &opts)
	allErrs = append(allErrs, schemaErrs...)
	if ssErr == nil {
		// x-kubernetes-validations: the rule fields always; compile errors
		// and cost only on an otherwise valid schema.
		allErrs = append(allErrs, cel.ValidateSchemaRules(ss, p, cel.CRDOptions{
			Compile:                   celReady && len(schemaErrs) == 0,
			Stored:                    opts.celStored,
			SuppressPerExpressionCost: opts.suppressPerExpressionCost,
			Parses:                    opts.celParses,
		})...)
	}
	if len(allErrs) == 0 {
		allErrs = initErrs
	}
	return allErrs
}

// findStoredExpressions collects the rules and messageExpressions of a
// stored CRD.
//
// Mirrors findPreexistingExpressions.
func findStoredExpressions(spec *apiextensions.CustomResourceDefinitionSpec) cel.ExpressionSet {
	set := cel.ExpressionSet{Rules: map[string]bool{}, MessageExpressions: map[string]bool{}}
	collect := func(s *apiextensions.JSONSchemaProps) bool {
		for _, r := range s.XValidations {
			set.Rules[r.Rule] = true
			if r.MessageExpression != "" {
				set.MessageExpressions[r.MessageExpression] = true
			}
		}
		return false
	}
	if spec.Validation != nil && spec.Validation.OpenAPIV3Schema != nil {
		SchemaHas(spec.Validation.OpenAPIV3Schema, collect)
	}
	for _, v := range spec.Versions {
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			SchemaHas(v.Schema.OpenAPIV3Schema, collect)
		}
	}
	return set
}

// findVersionsWithUnchangedSchemas lists the versions whose schema is the
// same in crd and old.
//
// Mirrors findVersionsWithUnchangedSchemas.
func findVersionsWithUnchangedSchemas(crd, old *apiextensions.CustomResourceDefinition) map[string]bool {
	out := map[string]bool{}
	for _, v := range crd.Spec.Versions {
		n, o := apiextensions.GetSchemaForVersion(crd, v.Name), apiextensions.GetSchemaForVersion(old, v.Name)
		if n != nil && o != nil && reflect.DeepEqual(n, o) {
			out[v.Name] = true
		}
	}
	return out
}

// validateRootWithStatus checks that, with the status subresource on, the
// root schema is an object and sets only allowedFieldsAtRootSchema.
func validateRootWithStatus(schema *apiextensions.JSONSchemaProps, fldPath *field.Path) field.ErrorList {
	v := reflect.ValueOf(schema).Elem()
	for i := 0; i < v.NumField(); i++ {
		if v.Field(i).IsZero() {
			continue
		}
		name := v.Type().Field(i).Name
		if name == "Type" {
			if schema.Type != "object" {
				return field.ErrorList{field.Invalid(fldPath.Child("openAPIV3Schema.type"), schema.Type, `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`)}
			}
			continue
		}
		if !slices.Contains(allowedFieldsAtRootSchema, name) {
			return field.ErrorList{field.Invalid(fldPath.Child("openAPIV3Schema"), *schema, fmt.Sprintf(`only %v fields are allowed at the root of the schema if the status subresource is enabled`, allowedFieldsAtRootSchema))}
		}
	}
	return nil
}

// newStructural reads a hub schema as a structural one: straight from
// the hub type (structural.FromProps), or, where that fails, through its
// v1 JSON (structural.FromJSON), whose errors are the ones shown. Mirrors
// schema.NewStructural.
func newStructural(s *apiextensions.JSONSchemaProps) (*structural.Structural, error) {
	if ss, err := structural.FromProps(s); err == nil {
		return ss, nil
	}
	var ext apiextensionsv1.JSONSchemaProps
	if err := apiextensionsv1.Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps(s, &ext); err != nil {
		return nil, err
	}
	// The schema's own writer: what json.Marshal writes, without
	// encoding/json checking and compacting it again (hundreds of KB for
	// a real-size schema); json.Marshal gives the error, if any.
	raw, err := ext.MarshalJSON()
	if err != nil {
		if raw, err = json.Marshal(&ext); err != nil {
			return nil, err
		}
	}
	return structural.FromJSON(raw)
}

// specStandardValidator carries what changes on the way down a schema:
// whether defaults are allowed here (not in the root's metadata, kind and
// apiVersion, nor below additionalProperties inside resource metadata),
// and whether this node is inside such resource metadata.
//
// Mirrors specStandardValidatorV3.
type specStandardValidator struct {
	allowDefaults          bool
	disallowDefaultsReason string
	insideResourceMeta     bool
	// requireValidPropertyType refuses unknown types (a CRD stored with
	// one may keep it on update, as upstream).
	requireValidPropertyType bool
}

func (v specStandardValidator) withForbiddenDefaults(reason string) specStandardValidator {
	v.allowDefaults, v.disallowDefaultsReason = false, reason
	return v
}

func (v specStandardValidator) withInsideResourceMeta() specStandardValidator {
	v.insideResourceMeta = true
	return v
}

// validate checks one node for the JSON-Schema features a CRD may not use.
// Mirrors (*specStandardValidatorV3).validate.
func (v specStandardValidator) validate(schema *apiextensions.JSONSchemaProps, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if v.requireValidPropertyType && schema.Type != "" && !slices.Contains(openapiV3Types, schema.Type) {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("type"), schema.Type, openapiV3Types))
	}
	if schema.Default != nil && !v.allowDefaults {
		detail := "must not be set"
		if v.disallowDefaultsReason != "" {
			detail += " " + v.disallowDefaultsReason
		}
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("default"), detail))
	}
	if schema.ID != "" {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("id"), "id is not supported"))
	}
	if schema.AdditionalItems != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("additionalItems"), "additionalItems is not supported"))
	}
	if len(schema.PatternProperties) != 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("patternProperties"), "patternProperties is not supported"))
	}
	if len(schema.Definitions) != 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("definitions"), "definitions is not supported"))
	}
	if schema.Dependencies != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("dependencies"), "dependencies is not supported"))
	}
	if schema.Ref != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("$ref"), "$ref is not supported"))
	}
	if schema.Type == "null" {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("type"), "type cannot be set to null, use nullable as an alternative"))
	}
	if schema.Items != nil && len(schema.Items.JSONSchemas) != 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("items"), "items must be a schema object and not an array"))
	}
	if v.insideResourceMeta && schema.XEmbeddedResource {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"))
	}
	return allErrs
}

// ValidateCustomResourceDefinitionOpenAPISchema checks, recursively, the
// OpenAPI subset a CRD may use: no $ref, definitions, dependencies,
// patternProperties, additionalItems, items arrays or uniqueItems; known
// types; properties and additionalProperties not both; defaults nowhere in
// the root's metadata, kind and apiVersion; well-formed
// x-kubernetes-preserve-unknown-fields, -map-type, -list-type and
// -list-map-keys. isRoot is set for the schema of the resource itself.
//
// Mirrors ValidateCustomResourceDefinitionOpenAPISchema (its schema
// errors; the CEL rules are checked elsewhere).
func ValidateCustomResourceDefinitionOpenAPISchema(schema *apiextensions.JSONSchemaProps, fldPath *field.Path, ssv specStandardValidator, isRoot bool, opts *validationOptions) field.ErrorList {
	if schema == nil {
		return nil
	}
	allErrs := ssv.validate(schema, fldPath)

	if schema.UniqueItems {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}

	// properties are for structs, additionalProperties for maps: not both
	// (that would contradict the convention to ignore unknown fields).
	if schema.AdditionalProperties != nil {
		if len(schema.Properties) != 0 && (!schema.AdditionalProperties.Allows || schema.AdditionalProperties.Schema != nil) {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
		}
		sub := ssv
		if ssv.insideResourceMeta {
			// pruning without the actual value would be ambiguous
			sub = ssv.withForbiddenDefaults("inside additionalProperties applying to object metadata")
		}
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(schema.AdditionalProperties.Schema, fldPath.Child("additionalProperties"), sub, false, opts)...)
	}

	// One copy of a property's schema for all of them (a copy each
	// escaped: a third of a real-size CRD's validation's bytes), and one
	// path to them: the recursion keeps neither.
	var prop *apiextensions.JSONSchemaProps
	var pp *field.Path
	if len(schema.Properties) > 0 {
		prop, pp = new(apiextensions.JSONSchemaProps), fldPath.Child("properties")
	}
	for _, k := range sortedSchemaKeys(schema.Properties) {
		sub := ssv
		if (isRoot || schema.XEmbeddedResource) && metaFields[k] {
			sub = sub.withInsideResourceMeta()
			if isRoot {
				sub = sub.withForbiddenDefaults(fmt.Sprintf("in top-level %s", k))
			}
		}
		*prop = schema.Properties[k]
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(prop, pp.Key(k), sub, false, opts)...)
	}

	if schema.Not != nil {
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(schema.Not, fldPath.Child("not"), ssv, false, opts)...)
	}
	for i := range schema.AllOf {
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(&schema.AllOf[i], fldPath.Child("allOf").Index(i), ssv, false, opts)...)
	}
	for i := range schema.OneOf {
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(&schema.OneOf[i], fldPath.Child("oneOf").Index(i), ssv, false, opts)...)
	}
	for i := range schema.AnyOf {
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(&schema.AnyOf[i], fldPath.Child("anyOf").Index(i), ssv, false, opts)...)
	}
	for _, k := range sortedSchemaKeys(schema.Definitions) {
		d := schema.Definitions[k]
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(&d, fldPath.Child("definitions").Key(k), ssv, false, opts)...)
	}
	if schema.Items != nil && schema.Items.Schema != nil {
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(schema.Items.Schema, fldPath.Child("items"), ssv, false, opts)...)
	}
	if schema.Items != nil {
		for i := range schema.Items.JSONSchemas {
			allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(&schema.Items.JSONSchemas[i], fldPath.Child("items").Index(i), ssv, false, opts)...)
		}
	}
	for _, k := range sortedDependencyKeys(schema.Dependencies) {
		allErrs = append(allErrs, ValidateCustomResourceDefinitionOpenAPISchema(schema.Dependencies[k].Schema, fldPath.Child("dependencies").Key(k), ssv, false, opts)...)
	}

	if schema.XPreserveUnknownFields != nil && !*schema.XPreserveUnknownFields {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("x-kubernetes-preserve-unknown-fields"), *schema.XPreserveUnknownFields, "must be true or undefined"))
	}
	allErrs = append(allErrs, validateMapAndListTypes(schema, fldPath, opts)...)
	return allErrs
}

// validateMapAndListTypes checks x-kubernetes-map-type,
// x-kubernetes-list-type and x-kubernetes-list-map-keys on one node.
func validateMapAndListTypes(schema *apiextensions.JSONSchemaProps, fldPath *field.Path, opts *validationOptions) field.ErrorList {
	var allErrs field.ErrorList
	if schema.XMapType != nil && schema.Type != "object" {
		if schema.Type == "" {
			allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must be object if x-kubernetes-map-type is specified"))
		} else {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("type"), schema.Type, "must be object if x-kubernetes-map-type is specified"))
		}
	}
	if schema.XMapType != nil && *schema.XMapType != "atomic" && *schema.XMapType != "granular" {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("x-kubernetes-map-type"), *schema.XMapType, []string{"atomic", "granular"}))
	}

	if schema.XListType != nil && schema.Type != "array" {
		if schema.Type == "" {
			allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must be array if x-kubernetes-list-type is specified"))
		} else {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("type"), schema.Type, "must be array if x-kubernetes-list-type is specified"))
		}
	} else if opts.requireAtomicSetType && schema.XListType != nil && *schema.XListType == "set" && schema.Items != nil && schema.Items.Schema != nil {
		// a set's elements are compared whole: they must be atomic
		is := schema.Items.Schema
		switch is.Type {
		case "array":
			if is.XListType != nil && *is.XListType != "atomic" {
				allErrs = append(allErrs, field.Invalid(fldPath.Child("items").Child("x-kubernetes-list-type"), is.XListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		case "object":
			if is.XMapType == nil || *is.XMapType != "atomic" {
				allErrs = append(allErrs, field.Invalid(fldPath.Child("items").Child("x-kubernetes-map-type"), is.XListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		}
	}
	if schema.XListType != nil && *schema.XListType != "atomic" && *schema.XListType != "set" && *schema.XListType != "map" {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("x-kubernetes-list-type"), *schema.XListType, []string{"atomic", "set", "map"}))
	}

	if len(schema.XListMapKeys) > 0 {
		if schema.XListType == nil {
			allErrs = append(allErrs, field.Required(fldPath.Child("x-kubernetes-list-type"), "must be map if x-kubernetes-list-map-keys is non-empty"))
		} else if *schema.XListType != "map" {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("x-kubernetes-list-type"), *schema.XListType, "must be map if x-kubernetes-list-map-keys is non-empty"))
		}
	}
	if schema.XListType != nil && *schema.XListType == "map" {
		if len(schema.XListMapKeys) == 0 {
			allErrs = append(allErrs, field.Required(fldPath.Child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"))
		}
		if schema.Items == nil {
			allErrs = append(allErrs, field.Required(fldPath.Child("items"), "must have a schema if x-kubernetes-list-type is map"))
		}
		if schema.Items != nil && schema.Items.Schema == nil {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("items"), schema.Items, "must only have a single schema if x-kubernetes-list-type is map"))
		}
		if schema.Items != nil && schema.Items.Schema != nil && schema.Items.Schema.Type != "object" {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("items").Child("type"), schema.Items.Schema.Type, "must be object if parent array's x-kubernetes-list-type is map"))
		}
		if schema.Items != nil && schema.Items.Schema != nil && schema.Items.Schema.Type == "object" {
			keys := map[string]bool{}
			for _, k := range schema.XListMapKeys {
				if s, ok := schema.Items.Schema.Properties[k]; ok {
					if s.Type == "array" || s.Type == "object" {
						// As upstream, the value shown is the items' type.
						allErrs = append(allErrs, field.Invalid(fldPath.Child("items").Child("properties").Key(k).Child("type"), schema.Items.Schema.Type, "must be a scalar type if parent array's x-kubernetes-list-type is map"))
					}
				} else {
					allErrs = append(allErrs, field.Invalid(fldPath.Child("x-kubernetes-list-map-keys"), schema.XListMapKeys, "entries must all be names of item properties"))
				}
				if keys[k] {
					allErrs = append(allErrs, field.Invalid(fldPath.Child("x-kubernetes-list-map-keys"), schema.XListMapKeys, "must not contain duplicate entries"))
				}
				keys[k] = true
			}
		}
	}
	if opts.requireMapListKeysMapSetValidation {
		allErrs = append(allErrs, validateMapListKeysMapSet(schema, fldPath)...)
	}
	return allErrs
}

// validateMapListKeysMapSet checks that the elements of a set or map list
// are not nullable, and that the key fields of a map list are required or
// defaulted, and not nullable. Mirrors validateMapListKeysMapSet.
func validateMapListKeysMapSet(schema *apiextensions.JSONSchemaProps, fldPath *field.Path) field.ErrorList {
	if schema.Items == nil || schema.Items.Schema == nil || schema.XListType == nil {
		return nil
	}
	if *schema.XListType != "set" && *schema.XListType != "map" {
		return nil
	}
	var allErrs field.ErrorList
	items := schema.Items.Schema
	if items.Nullable {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("items").Child("nullable"), "cannot be nullable when x-kubernetes-list-type is "+*schema.XListType))
	}
	if *schema.XListType == "map" {
		for _, k := range schema.XListMapKeys {
			obj, ok := items.Properties[k]
			if !ok {
				continue // reported above
			}
			if !slices.Contains(items.Required, k) && obj.Default == nil {
				allErrs = append(allErrs, field.Required(fldPath.Child("items").Child("properties").Key(k).Child("default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
			}
			if obj.Nullable {
				allErrs = append(allErrs, field.Forbidden(fldPath.Child("items").Child("properties").Key(k).Child("nullable"), "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
			}
		}
	}
	return allErrs
}

// SchemaHas says pred holds for s or any schema below it (properties,
// items, junctors, additionalProperties, definitions, dependencies…).
//
// Mirrors SchemaHas.
func SchemaHas(s *apiextensions.JSONSchemaProps, pred func(s *apiextensions.JSONSchemaProps) bool) bool {
	if s == nil {
		return false
	}
	if pred(s) {
		return true
	}
	if s.Items != nil {
		if SchemaHas(s.Items.Schema, pred) {
			return true
		}
		for i := range s.Items.JSONSchemas {
			if SchemaHas(&s.Items.JSONSchemas[i], pred) {
				return true
			}
		}
	}
	for _, list := range [][]apiextensions.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			if SchemaHas(&list[i], pred) {
				return true
			}
		}
	}
	if SchemaHas(s.Not, pred) {
		return true
	}
	for _, m := range []map[string]apiextensions.JSONSchemaProps{s.Properties, s.PatternProperties, s.Definitions} {
		for k := range m {
			sub := m[k]
			if SchemaHas(&sub, pred) {
				return true
			}
		}
	}
	if s.AdditionalProperties != nil && SchemaHas(s.AdditionalProperties.Schema, pred) {
		return true
	}
	if s.AdditionalItems != nil && SchemaHas(s.AdditionalItems.Schema, pred) {
		return true
	}
	for _, d := range s.Dependencies {
		if SchemaHas(d.Schema, pred) {
			return true
		}
	}
	return false
}

// structuralErrors are ValidateStructural's errors for ss.
func structuralErrors(ss *structural.Structural) field.ErrorList {
	return structural.ValidateStructural(nil, ss)
}

// defaultsErrors are ValidateDefaults' errors for ss.
func defaultsErrors(ss *structural.Structural, requirePrunedDefaults bool) field.ErrorList {
	return structural.ValidateDefaults(nil, ss, true, requirePrunedDefaults)
}
