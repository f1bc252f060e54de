package validation

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/cel"
	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	"github.com/crdlab/crdlab/apis/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
	utilvalidation "github.com/crdlab/crdlab/machinery/validation"
)

// MaxSelectableFields caps the selectable fields of one version.
const MaxSelectableFields = 8

var (
	printerColumnDatatypes = []string{"boolean", "date", "integer", "number", "string"}
	printerColumnFormats   = []string{"byte", "date", "date-time", "double", "float", "int32", "int64", "password"}
	// acceptedConversionReviewVersions are the ConversionReview versions
	// a webhook may name.
	acceptedConversionReviewVersions = []string{"v1", "v1beta1"}
)

// validationOptions are the rules that depend on what is being validated:
// all of them hold for a new CRD; an update keeps a rule off when the
// stored CRD already broke it, so that old data never becomes
// unchangeable (ratcheting).
//
// Mirrors validationOptions in validation.go.
type validationOptions struct {
	// requireRecognizedConversionReviewVersion: a webhook names v1 or v1beta1.
	requireRecognizedConversionReviewVersion bool
	// requireImmutableNames: scope and names.kind are fixed once Established.
	requireImmutableNames bool
	// requireOpenAPISchema: every version has a schema.
	requireOpenAPISchema bool
	// requireValidPropertyType: every type is an OpenAPI v3 type.
	requireValidPropertyType bool
	// requireStructuralSchema: every schema is structural.
	requireStructuralSchema bool
	// requirePrunedDefaults: defaults have no fields pruning would drop.
	requirePrunedDefaults bool
	// requireAtomicSetType: a set's items are atomic.
	requireAtomicSetType bool
	// requireMapListKeysMapSetValidation: set and map items are not
	// nullable, map keys are required or defaulted and not nullable.
	requireMapListKeysMapSetValidation bool
	// celStored are the CEL expressions of the stored CRD (update only):
	// they compile with what only stored expressions may use.
	celStored cel.StoredExpressions
	// unchangedSchemas are the versions whose schema an update keeps as
	// is; their rules are not held to the per-rule cost limit again.
	unchangedSchemas map[string]bool
	// suppressPerExpressionCost is unchangedSchemas for the version being
	// checked.
	suppressPerExpressionCost bool
	// celParses parses each CEL expression of the CRD once, for all its
	// versions (crdlab only).
	celParses *cel.Parses
}

// ValidateCustomResourceDefinition validates a new CRD: its metadata (the
// name must be <plural>.<group>), spec and status, with every rule on.
//
// Mirrors ValidateCustomResourceDefinition in
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go.
func ValidateCustomResourceDefinition(crd *apiextensions.CustomResourceDefinition) field.ErrorList {
	nameFn := func(name string, prefix bool) []string {
		ret := validation.NameIsDNSSubdomain(name, prefix)
		if name != crd.Spec.Names.Plural+"."+crd.Spec.Group {
			ret = append(ret, `must be spec.names.plural+"."+spec.group`)
		}
		return ret
	}
	opts := validationOptions{
		requireRecognizedConversionReviewVersion: true,
		requireOpenAPISchema:                     true,
		requireValidPropertyType:                 true,
		requireStructuralSchema:                  true,
		requirePrunedDefaults:                    true,
		requireAtomicSetType:                     true,
		requireMapListKeysMapSetValidation:       true,
		celParses:                                &cel.Parses{},
	}
	allErrs := validation.ValidateObjectMeta(&crd.ObjectMeta, false, nameFn, field.NewPath("metadata"))
	allErrs = append(allErrs, validateCustomResourceDefinitionSpec(&crd.Spec, opts, field.NewPath("spec"))...)
	allErrs = append(allErrs, ValidateCustomResourceDefinitionStatus(&crd.Status, field.NewPath("status"))...)
	allErrs = append(allErrs, ValidateCustomResourceDefinitionStoredVersions(crd.Status.StoredVersions, crd.Spec.Versions, field.NewPath("status", "storedVersions"))...)
	allErrs = append(allErrs, validateAPIApproval(crd, nil)...)
	allErrs = append(allErrs, validatePreserveUnknownFields(crd, nil)...)
	return allErrs
}

// ValidateCustomResourceDefinitionUpdate validates an update of a CRD:
// everything ValidateCustomResourceDefinition checks, with the rules the
// stored CRD already broke turned off, plus immutability: group and
// names.plural never change (they make the name); scope and names.kind do
// not change once the CRD is Established.
//
// Mirrors ValidateCustomResourceDefinitionUpdate.
func ValidateCustomResourceDefinitionUpdate(crd, old *apiextensions.CustomResourceDefinition) field.ErrorList {
	opts := validationOptions{
		requireRecognizedConversionReviewVersion: old.Spec.Conversion == nil || hasValidConversionReviewVersionOrEmpty(old.Spec.Conversion.ConversionReviewVersions),
		requireImmutableNames:                    apiextensions.IsCRDConditionTrue(old, apiextensions.Established),
		requireOpenAPISchema:                     allVersionsSpecifyOpenAPISchema(&old.Spec),
		requireValidPropertyType:                 !hasSchemaWith(&old.Spec, schemaHasInvalidType),
		requireStructuralSchema:                  !hasSchemaWith(&old.Spec, schemaIsNonStructural),
		requirePrunedDefaults:                    !hasSchemaWith(&old.Spec, schemaHasUnprunedDefaults),
		requireAtomicSetType:                     !hasSchemaWith(&old.Spec, hasNonAtomicSetType),
		requireMapListKeysMapSetValidation:       !hasSchemaWith(&old.Spec, hasInvalidMapListKeysMapSet),
		celStored:                                findStoredExpressions(&old.Spec),
		unchangedSchemas:                         findVersionsWithUnchangedSchemas(crd, old),
		celParses:                                &cel.Parses{},
	}
	allErrs := validation.ValidateObjectMetaUpdate(&crd.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, validateCustomResourceDefinitionSpecUpdate(&crd.Spec, &old.Spec, opts, field.NewPath("spec"))...)
	allErrs = append(allErrs, ValidateCustomResourceDefinitionStatus(&crd.Status, field.NewPath("status"))...)
	allErrs = append(allErrs, ValidateCustomResourceDefinitionStoredVersions(crd.Status.StoredVersions, crd.Spec.Versions, field.NewPath("status", "storedVersions"))...)
	allErrs = append(allErrs, validateAPIApproval(crd, old)...)
	allErrs = append(allErrs, validatePreserveUnknownFields(crd, old)...)
	return allErrs
}

// ValidateUpdateCustomResourceDefinitionStatus validates a write to the
// /status subresource.
//
// Mirrors ValidateUpdateCustomResourceDefinitionStatus.
func ValidateUpdateCustomResourceDefinitionStatus(crd, old *apiextensions.CustomResourceDefinition) field.ErrorList {
	allErrs := validation.ValidateObjectMetaUpdate(&crd.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(allErrs, ValidateCustomResourceDefinitionStatus(&crd.Status, field.NewPath("status"))...)
}

// ValidateCustomResourceDefinitionStoredVersions checks that there is at
// least one stored version, that the storage version is one, and that every
// stored version is still in spec.versions.
//
// Mirrors ValidateCustomResourceDefinitionStoredVersions.
func ValidateCustomResourceDefinitionStoredVersions(storedVersions []string, versions []apiextensions.CustomResourceDefinitionVersion, fldPath *field.Path) field.ErrorList {
	if len(storedVersions) == 0 {
		return field.ErrorList{field.Invalid(fldPath, storedVersions, "must have at least one stored version")}
	}
	var allErrs field.ErrorList
	stored := map[string]int{}
	for i, v := range storedVersions {
		stored[v] = i
	}
	for _, v := range versions {
		_, ok := stored[v.Name]
		if v.Storage && !ok {
			allErrs = append(allErrs, field.Invalid(fldPath, storedVersions, "must have the storage version "+v.Name))
		}
		delete(stored, v.Name)
	}
	for _, v := range storedVersions {
		if i, ok := stored[v]; ok {
			allErrs = append(allErrs, field.Invalid(fldPath.Index(i), v, fmt.Sprintf("missing from spec.versions; %[1]s was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in %[1]s and removes %[1]s from status.storedVersions", v)))
			delete(stored, v)
		}
	}
	return allErrs
}

// validateAPIApproval refuses a CRD of a Kubernetes-owned group
// (k8s.io, kubernetes.io and their subdomains) without a valid
// api-approved.kubernetes.io annotation: a URL, or a reason starting with
// "unapproved". An update that does not change the approval state is let
// through.
//
// Mirrors validateAPIApproval.
func validateAPIApproval(crd, old *apiextensions.CustomResourceDefinition) field.ErrorList {
	if !helpers.IsProtectedCommunityGroup(crd.Spec.Group) {
		return nil
	}
	state, reason := helpers.GetAPIApprovalState(crd.Annotations)
	if old != nil {
		if oldState, _ := helpers.GetAPIApprovalState(old.Annotations); oldState == state {
			return nil
		}
	}
	p := field.NewPath("metadata", "annotations").Key(helpers.KubeAPIApprovedAnnotation)
	switch state {
	case helpers.APIApproved, helpers.APIApprovalBypassed:
		return nil
	case helpers.APIApprovalMissing:
		return field.ErrorList{field.Required(p, reason)}
	default:
		return field.ErrorList{field.Invalid(p, crd.Annotations[helpers.KubeAPIApprovedAnnotation], reason)}
	}
}

// validatePreserveUnknownFields refuses spec.preserveUnknownFields: true,
// v1beta1's pruning switch, unless the stored CRD already had it.
//
// Mirrors validatePreserveUnknownFields.
func validatePreserveUnknownFields(crd, old *apiextensions.CustomResourceDefinition) field.ErrorList {
	if old != nil && old.Spec.PreserveUnknownFields != nil && *old.Spec.PreserveUnknownFields {
		return nil
	}
	if p := crd.Spec.PreserveUnknownFields; p != nil && *p {
		return field.ErrorList{field.Invalid(field.NewPath("spec").Child("preserveUnknownFields"), crd.Spec.PreserveUnknownFields, "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead")}
	}
	return nil
}

// validateCustomResourceDefinitionSpecUpdate is
// validateCustomResourceDefinitionSpec plus the immutable fields.
//
// Mirrors validateCustomResourceDefinitionSpecUpdate.
func validateCustomResourceDefinitionSpecUpdate(spec, old *apiextensions.CustomResourceDefinitionSpec, opts validationOptions, fldPath *field.Path) field.ErrorList {
	allErrs := validateCustomResourceDefinitionSpec(spec, opts, fldPath)
	if opts.requireImmutableNames {
		// these decide where and how objects are stored
		allErrs = append(allErrs, validation.ValidateImmutableField(spec.Scope, old.Scope, fldPath.Child("scope"))...)
		allErrs = append(allErrs, validation.ValidateImmutableField(spec.Names.Kind, old.Names.Kind, fldPath.Child("names", "kind"))...)
	}
	// these make up the CRD's name, which never changes
	allErrs = append(allErrs, validation.ValidateImmutableField(spec.Group, old.Group, fldPath.Child("group"))...)
	allErrs = append(allErrs, validation.ValidateImmutableField(spec.Names.Plural, old.Names.Plural, fldPath.Child("names", "plural"))...)
	return allErrs
}

// validateCustomResourceDefinitionSpec validates a spec: group, scope,
// versions (DNS-1035 names, unique, exactly one storage version), names,
// top-level versus per-version fields, schemas, subresources, printer
// columns, selectable fields and conversion.
//
// Mirrors validateCustomResourceDefinitionSpec.
func validateCustomResourceDefinitionSpec(spec *apiextensions.CustomResourceDefinitionSpec, opts validationOptions, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList

	if len(spec.Group) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("group"), ""))
	} else if errs := utilvalidation.IsDNS1123Subdomain(spec.Group); len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("group"), spec.Group, strings.Join(errs, ",")))
	} else if len(strings.Split(spec.Group, ".")) < 2 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("group"), spec.Group, "should be a domain with at least one dot"))
	}

	allErrs = append(allErrs, validateEnumStrings(fldPath.Child("scope"), string(spec.Scope), []string{string(apiextensions.ClusterScoped), string(apiextensions.NamespaceScoped)}, true)...)

	// Pruning (preserveUnknownFields false, the v1 way) needs structural
	// schemas.
	pruning := spec.PreserveUnknownFields == nil || !*spec.PreserveUnknownFields
	if pruning {
		opts.requireStructuralSchema = true
	}
	if spec.Validation == nil || spec.Validation.OpenAPIV3Schema == nil {
		for i, v := range spec.Versions {
			schemaPath := fldPath.Child("versions").Index(i).Child("schema", "openAPIV3Schema")
			missing := v.Schema == nil || v.Schema.OpenAPIV3Schema == nil
			switch {
			case opts.requireOpenAPISchema && missing:
				allErrs = append(allErrs, field.Required(schemaPath, ""))
			case !opts.requireOpenAPISchema && pruning && v.Served && missing:
				allErrs = append(allErrs, field.Required(schemaPath, "because otherwise all fields are pruned"))
			}
		}
	}
	if hasSchemaWith(spec, schemaHasDefaults) {
		opts.requireStructuralSchema = true
		if spec.PreserveUnknownFields == nil || *spec.PreserveUnknownFields {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("preserveUnknownFields"), true, "must be false in order to use defaults in the schema"))
		}
	}
	if hasSchemaWith(spec, schemaHasKubernetesExtensions) {
		opts.requireStructuralSchema = true
	}

	storageFlagCount := 0
	seen := map[string]bool{}
	uniqueNames := true
	for i, version := range spec.Versions {
		p := fldPath.Child("versions").Index(i)
		if version.Storage {
			storageFlagCount++
		}
		if seen[version.Name] {
			uniqueNames = false
		}
		seen[version.Name] = true
		if errs := utilvalidation.IsDNS1035Label(version.Name); len(errs) > 0 {
			allErrs = append(allErrs, field.Invalid(p.Child("name"), version.Name, strings.Join(errs, ",")))
		}
		sub := spec.Subresources
		if apiextensions.HasPerVersionSubresources(spec.Versions) {
			sub = version.Subresources
		}
		vopts := opts
		vopts.suppressPerExpressionCost = opts.unchangedSchemas[version.Name]
		allErrs = append(allErrs, validateCustomResourceDefinitionVersion(&version, p, sub != nil && sub.Status != nil, vopts)...)
	}

	// A field lives either at the top level or in the versions, never both.
	if spec.Validation != nil && apiextensions.HasPerVersionSchema(spec.Versions) {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("validation"), "top-level and per-version schemas are mutually exclusive"))
	}
	if spec.Subresources != nil && apiextensions.HasPerVersionSubresources(spec.Versions) {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("subresources"), "top-level and per-version subresources are mutually exclusive"))
	}
	if len(spec.AdditionalPrinterColumns) > 0 && apiextensions.HasPerVersionColumns(spec.Versions) {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("additionalPrinterColumns"), "top-level and per-version additionalPrinterColumns are mutually exclusive"))
	}
	// ... and per-version values that all agree belong at the top level.
	if identical(spec.Versions, func(v apiextensions.CustomResourceDefinitionVersion) any { return v.Schema }) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), spec.Versions, "per-version schemas may not all be set to identical values (top-level validation should be used instead)"))
	}
	if identical(spec.Versions, func(v apiextensions.CustomResourceDefinitionVersion) any { return v.Subresources }) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), spec.Versions, "per-version subresources may not all be set to identical values (top-level subresources should be used instead)"))
	}
	if identical(spec.Versions, func(v apiextensions.CustomResourceDefinitionVersion) any { return v.AdditionalPrinterColumns }) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), spec.Versions, "per-version additionalPrinterColumns may not all be set to identical values (top-level additionalPrinterColumns should be used instead)"))
	}

	if !uniqueNames {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), spec.Versions, "must contain unique version names"))
	}
	if storageFlagCount != 1 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), spec.Versions, "must have exactly one version marked as storage version"))
	}
	if len(spec.Version) != 0 {
		if errs := utilvalidation.IsDNS1035Label(spec.Version); len(errs) > 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("version"), spec.Version, strings.Join(errs, ",")))
		}
		if len(spec.Versions) >= 1 && spec.Versions[0].Name != spec.Version {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("version"), spec.Version, "must match the first version in spec.versions"))
		}
	}

	// spec names must be set; status names may be empty
	if len(spec.Names.Plural) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("names", "plural"), ""))
	}
	if len(spec.Names.Singular) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("names", "singular"), ""))
	}
	if len(spec.Names.Kind) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("names", "kind"), ""))
	}
	if len(spec.Names.ListKind) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("names", "listKind"), ""))
	}
	allErrs = append(allErrs, ValidateCustomResourceDefinitionNames(&spec.Names, fldPath.Child("names"))...)
	vopts := opts
	vopts.suppressPerExpressionCost = opts.unchangedSchemas[spec.Version]
	allErrs = append(allErrs, validateCustomResourceDefinitionValidation(spec.Validation, hasAnyStatusEnabled(spec), vopts, fldPath.Child("validation"))...)
	allErrs = append(allErrs, ValidateCustomResourceDefinitionSubresources(spec.Subresources, fldPath.Child("subresources"))...)
	for i := range spec.AdditionalPrinterColumns {
		allErrs = append(allErrs, ValidateCustomResourceColumnDefinition(&spec.AdditionalPrinterColumns[i], fldPath.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(spec.SelectableFields) > 0 {
		if spec.Validation == nil {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("selectableFields"), "", "may only be set when validations.schema is included"))
		} else {
			allErrs = append(allErrs, validateSelectableFields(spec.SelectableFields, spec.Validation.OpenAPIV3Schema, fldPath.Child("selectableFields"))...)
		}
	}

	if spec.Conversion != nil && spec.Conversion.Strategy != apiextensions.NoneConverter && !pruning {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("conversion").Child("strategy"), spec.Conversion.Strategy, "must be None if spec.preserveUnknownFields is true"))
	}
	allErrs = append(allErrs, validateCustomResourceConversion(spec.Conversion, opts.requireRecognizedConversionReviewVersion, fldPath.Child("conversion"))...)
	return allErrs
}

// validateCustomResourceDefinitionVersion checks what a version carries of
// its own.
//
// Mirrors validateCustomResourceDefinitionVersion.
func validateCustomResourceDefinitionVersion(version *apiextensions.CustomResourceDefinitionVersion, fldPath *field.Path, statusEnabled bool, opts validationOptions) field.ErrorList {
	var allErrs field.ErrorList
	for _, msg := range validateDeprecationWarning(version.Deprecated, version.DeprecationWarning) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("deprecationWarning"), version.DeprecationWarning, msg))
	}
	allErrs = append(allErrs, validateCustomResourceDefinitionValidation(version.Schema, statusEnabled, opts, fldPath.Child("schema"))...)
	allErrs = append(allErrs, ValidateCustomResourceDefinitionSubresources(version.Subresources, fldPath.Child("subresources"))...)
	for i := range version.AdditionalPrinterColumns {
		allErrs = append(allErrs, ValidateCustomResourceColumnDefinition(&version.AdditionalPrinterColumns[i], fldPath.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(version.SelectableFields) > 0 {
		if version.Schema == nil || version.Schema.OpenAPIV3Schema == nil {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("selectableFields"), "", "may only be set when `version.schema.openAPIV3Schema` is not included"))
		} else {
			allErrs = append(allErrs, validateSelectableFields(version.SelectableFields, version.Schema.OpenAPIV3Schema, fldPath.Child("selectableFields"))...)
		}
	}
	return allErrs
}

// validateDeprecationWarning mirrors validateDeprecationWarning.
func validateDeprecationWarning(deprecated bool, warning *string) []string {
	if !deprecated && warning != nil {
		return []string{"can only be set for deprecated versions"}
	}
	if warning == nil {
		return nil
	}
	var msgs []string
	if len(*warning) > 256 {
		msgs = append(msgs, "must be <= 256 characters long")
	}
	if len(*warning) == 0 {
		msgs = append(msgs, "must not be an empty string")
	}
	for i, r := range *warning {
		if !unicode.IsPrint(r) {
			msgs = append(msgs, fmt.Sprintf("must only contain printable UTF-8 characters; non-printable character found at index %d", i))
			break
		}
		if unicode.IsControl(r) {
			msgs = append(msgs, fmt.Sprintf("must only contain printable UTF-8 characters; control character found at index %d", i))
			break
		}
	}
	if !utf8.ValidString(*warning) {
		msgs = append(msgs, "must only contain printable UTF-8 characters")
	}
	return msgs
}

// ValidateCustomResourceDefinitionStatus validates the accepted names.
func ValidateCustomResourceDefinitionStatus(status *apiextensions.CustomResourceDefinitionStatus, fldPath *field.Path) field.ErrorList {
	return ValidateCustomResourceDefinitionNames(&status.AcceptedNames, fldPath.Child("acceptedNames"))
}

// ValidateCustomResourceDefinitionNames checks the form of each set name:
// plural, singular, short names and categories are DNS-1035 labels; kind
// and listKind are too once lower-cased, and differ from each other.
func ValidateCustomResourceDefinitionNames(names *apiextensions.CustomResourceDefinitionNames, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if errs := utilvalidation.IsDNS1035Label(names.Plural); len(names.Plural) > 0 && len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("plural"), names.Plural, strings.Join(errs, ",")))
	}
	if errs := utilvalidation.IsDNS1035Label(names.Singular); len(names.Singular) > 0 && len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("singular"), names.Singular, strings.Join(errs, ",")))
	}
	if errs := utilvalidation.IsDNS1035Label(strings.ToLower(names.Kind)); len(names.Kind) > 0 && len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("kind"), names.Kind, "may have mixed case, but should otherwise match: "+strings.Join(errs, ",")))
	}
	if errs := utilvalidation.IsDNS1035Label(strings.ToLower(names.ListKind)); len(names.ListKind) > 0 && len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("listKind"), names.ListKind, "may have mixed case, but should otherwise match: "+strings.Join(errs, ",")))
	}
	for i, shortName := range names.ShortNames {
		if errs := utilvalidation.IsDNS1035Label(shortName); len(errs) > 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("shortNames").Index(i), shortName, strings.Join(errs, ",")))
		}
	}
	// kind and listKind may not be the same or parsing becomes ambiguous
	if len(names.Kind) > 0 && names.Kind == names.ListKind {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("listKind"), names.ListKind, "kind and listKind may not be the same"))
	}
	for i, category := range names.Categories {
		if errs := utilvalidation.IsDNS1035Label(category); len(errs) > 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("categories").Index(i), category, strings.Join(errs, ",")))
		}
	}
	return allErrs
}

// ValidateCustomResourceColumnDefinition checks one printer column.
func ValidateCustomResourceColumnDefinition(col *apiextensions.CustomResourceColumnDefinition, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if len(col.Name) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("name"), ""))
	}
	if len(col.Type) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("type"), "must be one of "+strings.Join(printerColumnDatatypes, ",")))
	} else if !slices.Contains(printerColumnDatatypes, col.Type) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("type"), col.Type, "must be one of "+strings.Join(printerColumnDatatypes, ",")))
	}
	if len(col.Format) > 0 && !slices.Contains(printerColumnFormats, col.Format) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("format"), col.Format, "must be one of "+strings.Join(printerColumnFormats, ",")))
	}
	if len(col.JSONPath) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("JSONPath"), ""))
	} else {
		allErrs = append(allErrs, validateSimpleJSONPath(col.JSONPath, fldPath.Child("JSONPath"))...)
	}
	return allErrs
}

// ValidateCustomResourceDefinitionSubresources checks the scale paths.
func ValidateCustomResourceDefinitionSubresources(sub *apiextensions.CustomResourceSubresources, fldPath *field.Path) field.ErrorList {
	if sub == nil || sub.Scale == nil {
		return nil
	}
	var allErrs field.ErrorList
	scale := sub.Scale
	if len(scale.SpecReplicasPath) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("scale.specReplicasPath"), ""))
	} else if errs := validateSimpleJSONPath(scale.SpecReplicasPath, fldPath.Child("scale.specReplicasPath")); len(errs) > 0 {
		allErrs = append(allErrs, errs...)
	} else if !strings.HasPrefix(scale.SpecReplicasPath, ".spec.") {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("scale.specReplicasPath"), scale.SpecReplicasPath, "should be a json path under .spec"))
	}
	if len(scale.StatusReplicasPath) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("scale.statusReplicasPath"), ""))
	} else if errs := validateSimpleJSONPath(scale.StatusReplicasPath, fldPath.Child("scale.statusReplicasPath")); len(errs) > 0 {
		allErrs = append(allErrs, errs...)
	} else if !strings.HasPrefix(scale.StatusReplicasPath, ".status.") {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("scale.statusReplicasPath"), scale.StatusReplicasPath, "should be a json path under .status"))
	}
	if p := scale.LabelSelectorPath; p != nil && len(*p) > 0 {
		if errs := validateSimpleJSONPath(*p, fldPath.Child("scale.labelSelectorPath")); len(errs) > 0 {
			allErrs = append(allErrs, errs...)
		} else if !strings.HasPrefix(*p, ".spec.") && !strings.HasPrefix(*p, ".status.") {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("scale.labelSelectorPath"), p, "should be a json path under either .spec or .status"))
		}
	}
	return allErrs
}

func validateSimpleJSONPath(s string, fldPath *field.Path) field.ErrorList {
	switch {
	case len(s) == 0:
		return field.ErrorList{field.Invalid(fldPath, s, "must not be empty")}
	case s[0] != '.':
		return field.ErrorList{field.Invalid(fldPath, s, "must be a simple json path starting with .")}
	}
	return nil
}

// validateSelectableFields checks each selectable field points, through
// the schema's properties, at a string, boolean or integer outside
// metadata, without duplicates, and at most MaxSelectableFields of them.
//
// Mirrors ValidateCustomResourceSelectableFields.
func validateSelectableFields(fields []apiextensions.SelectableField, schema *apiextensions.JSONSchemaProps, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	unique := map[string]bool{}
	for i, f := range fields {
		p := fldPath.Index(i).Child("jsonPath")
		if len(f.JSONPath) == 0 {
			allErrs = append(allErrs, field.Required(p, ""))
			continue
		}
		if !strings.HasPrefix(f.JSONPath, ".") || len(f.JSONPath) == 1 {
			allErrs = append(allErrs, field.Invalid(p, f.JSONPath, "is an invalid path: must start with ."))
			continue
		}
		steps := strings.Split(f.JSONPath[1:], ".")
		if steps[0] == "metadata" {
			allErrs = append(allErrs, field.Invalid(p, f.JSONPath, "must not point to fields in metadata"))
			continue
		}
		s := schema
		for _, step := range steps {
			if s == nil {
				break
			}
			next, ok := s.Properties[step]
			if !ok {
				s = nil
				break
			}
			s = &next
		}
		if s == nil {
			allErrs = append(allErrs, field.Invalid(p, f.JSONPath, "is an invalid path: does not refer to a valid field"))
			continue
		}
		if s.Type != "string" && s.Type != "boolean" && s.Type != "integer" {
			allErrs = append(allErrs, field.Invalid(p, f.JSONPath, "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."))
		}
		if unique[f.JSONPath] {
			allErrs = append(allErrs, field.Duplicate(p, f.JSONPath))
		}
		unique[f.JSONPath] = true
	}
	if len(unique) > MaxSelectableFields {
		allErrs = append(allErrs, field.TooMany(fldPath, len(unique), MaxSelectableFields))
	}
	return allErrs
}

// validateCustomResourceConversion checks strategy and webhook settings.
//
// Mirrors validateCustomResourceConversion (without the webhook URL,
// service and caBundle checks).
func validateCustomResourceConversion(conversion *apiextensions.CustomResourceConversion, requireRecognizedVersion bool, fldPath *field.Path) field.ErrorList {
	if conversion == nil {
		return nil
	}
	allErrs := validateEnumStrings(fldPath.Child("strategy"), string(conversion.Strategy), []string{string(apiextensions.NoneConverter), string(apiextensions.WebhookConverter)}, true)
	if conversion.Strategy == apiextensions.WebhookConverter {
		if cc := conversion.WebhookClientConfig; cc == nil {
			allErrs = append(allErrs, field.Required(fldPath.Child("webhookClientConfig"), "required when strategy is set to Webhook"))
		} else if (cc.URL == nil) == (cc.Service == nil) {
			allErrs = append(allErrs, field.Required(fldPath.Child("webhookClientConfig"), "exactly one of url or service is required"))
		}
		allErrs = append(allErrs, validateConversionReviewVersions(conversion.ConversionReviewVersions, requireRecognizedVersion, fldPath.Child("conversionReviewVersions"))...)
	} else {
		if conversion.WebhookClientConfig != nil {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("webhookClientConfig"), "should not be set when strategy is not set to Webhook"))
		}
		if len(conversion.ConversionReviewVersions) > 0 {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child("conversionReviewVersions"), "should not be set when strategy is not set to Webhook"))
		}
	}
	return allErrs
}

// validateConversionReviewVersions mirrors validateConversionReviewVersions.
func validateConversionReviewVersions(versions []string, requireRecognizedVersion bool, fldPath *field.Path) field.ErrorList {
	if len(versions) < 1 {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	var allErrs field.ErrorList
	seen := map[string]bool{}
	accepted := false
	for i, v := range versions {
		if seen[v] {
			allErrs = append(allErrs, field.Invalid(fldPath.Index(i), v, "duplicate version"))
			continue
		}
		seen[v] = true
		for _, msg := range utilvalidation.IsDNS1035Label(v) {
			allErrs = append(allErrs, field.Invalid(fldPath.Index(i), v, msg))
		}
		accepted = accepted || slices.Contains(acceptedConversionReviewVersions, v)
	}
	if requireRecognizedVersion && !accepted {
		allErrs = append(allErrs, field.Invalid(fldPath, versions, "must include at least one of "+strings.Join(acceptedConversionReviewVersions, ", ")))
	}
	return allErrs
}

func hasValidConversionReviewVersionOrEmpty(versions []string) bool {
	if len(versions) == 0 {
		return true
	}
	for _, v := range versions {
		if slices.Contains(acceptedConversionReviewVersions, v) {
			return true
		}
	}
	return false
}

func validateEnumStrings(fldPath *field.Path, value string, accepted []string, required bool) field.ErrorList {
	if value == "" {
		if required {
			return field.ErrorList{field.Required(fldPath, "")}
		}
		return nil
	}
	if slices.Contains(accepted, value) {
		return nil
	}
	return field.ErrorList{field.NotSupported(fldPath, value, accepted)}
}

// identical reports whether every version has the same, non-empty value.
// Mirrors hasIdenticalPerVersionSchema and its siblings.
func identical(versions []apiextensions.CustomResourceDefinitionVersion, get func(apiextensions.CustomResourceDefinitionVersion) any) bool {
	if len(versions) == 0 {
		return false
	}
	first := get(versions[0])
	for _, v := range versions {
		if isEmpty(get(v)) || !reflect.DeepEqual(get(v), first) {
			return false
		}
	}
	return true
}

func isEmpty(v any) bool {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Slice:
		return rv.IsNil() || (rv.Kind() == reflect.Slice && rv.Len() == 0)
	}
	return v == nil
}

// hasAnyStatusEnabled says the status subresource is on at the top level
// or in some version.
func hasAnyStatusEnabled(spec *apiextensions.CustomResourceDefinitionSpec) bool {
	if spec.Subresources != nil && spec.Subresources.Status != nil {
		return true
	}
	for _, v := range spec.Versions {
		if v.Subresources != nil && v.Subresources.Status != nil {
			return true
		}
	}
	return false
}

// The predicates below decide the ratcheting options of an update: each
// says the stored CRD already breaks a rule.

func allVersionsSpecifyOpenAPISchema(spec *apiextensions.CustomResourceDefinitionSpec) bool {
	if spec.Validation != nil && spec.Validation.OpenAPIV3Schema != nil {
		return true
	}
	for _, v := range spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			return false
		}
	}
	return true
}

// hasSchemaWith says pred holds for the top-level schema or a version's.
// Mirrors HasSchemaWith.
func hasSchemaWith(spec *apiextensions.CustomResourceDefinitionSpec, pred func(*apiextensions.JSONSchemaProps) bool) bool {
	if spec.Validation != nil && spec.Validation.OpenAPIV3Schema != nil && pred(spec.Validation.OpenAPIV3Schema) {
		return true
	}
	for _, v := range spec.Versions {
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil && pred(v.Schema.OpenAPIV3Schema) {
			return true
		}
	}
	return false
}

func schemaHasDefaults(s *apiextensions.JSONSchemaProps) bool {
	return SchemaHas(s, func(s *apiextensions.JSONSchemaProps) bool { return s.Default != nil })
}

func schemaHasKubernetesExtensions(s *apiextensions.JSONSchemaProps) bool {
	return SchemaHas(s, func(s *apiextensions.JSONSchemaProps) bool {
		return s.XEmbeddedResource || s.XPreserveUnknownFields != nil || s.XIntOrString || len(s.XListMapKeys) > 0 || s.XListType != nil || len(s.XValidations) > 0
	})
}

func schemaHasInvalidType(s *apiextensions.JSONSchemaProps) bool {
	return SchemaHas(s, func(s *apiextensions.JSONSchemaProps) bool {
		return s.Type != "" && !slices.Contains(openapiV3Types, s.Type)
	})
}

// schemaIsNonStructural mirrors schemaIsNonStructural.
func schemaIsNonStructural(s *apiextensions.JSONSchemaProps) bool {
	ss, err := newStructural(s)
	if err != nil {
		return true
	}
	return len(structuralErrors(ss)) > 0
}

// schemaHasUnprunedDefaults says a default of s has fields pruning would
// drop. Mirrors schemaHasUnprunedDefaults.
func schemaHasUnprunedDefaults(s *apiextensions.JSONSchemaProps) bool {
	if !schemaHasDefaults(s) {
		return false
	}
	ss, err := newStructural(s)
	if err != nil || len(structuralErrors(ss)) > 0 {
		return false
	}
	return len(defaultsErrors(ss, true)) > len(defaultsErrors(ss, false))
}

// hasNonAtomicSetType mirrors hasNonAtomicSetType.
func hasNonAtomicSetType(s *apiextensions.JSONSchemaProps) bool {
	return SchemaHas(s, func(s *apiextensions.JSONSchemaProps) bool {
		if s.XListType == nil || *s.XListType != "set" || s.Items == nil || s.Items.Schema == nil {
			return false
		}
		is := s.Items.Schema
		switch is.Type {
		case "array":
			return is.XListType != nil && *is.XListType != "atomic"
		case "object":
			return is.XMapType == nil || *is.XMapType != "atomic"
		}
		return false
	})
}

func hasInvalidMapListKeysMapSet(s *apiextensions.JSONSchemaProps) bool {
	return SchemaHas(s, func(s *apiextensions.JSONSchemaProps) bool {
		return len(validateMapListKeysMapSet(s, field.NewPath(""))) > 0
	})
}

func sortedSchemaKeys(m map[string]apiextensions.JSONSchemaProps) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func sortedDependencyKeys(m apiextensions.JSONSchemaDependencies) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
