package validation

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"unicode"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
	utilvalidation "github.com/crdlab/crdlab/machinery/validation"
)

// MaxSelectableFields caps the selectable fields of one version.
const MaxSelectableFields = 8

var (
	printerColumnDatatypes = []string{"boolean", "date", "integer", "number", "string"}
	printerColumnFormats   = []string{"byte", "date", "date-time", "double", "float", "int32", "int64", "password"}
	openapiV3Types         = []string{"array", "boolean", "integer", "number", "object", "string"}
)

// ValidateCustomResourceDefinition validates a new CRD: its metadata (the
// name must be <plural>.<group>), spec and status.
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
	allErrs := validation.ValidateObjectMeta(&crd.ObjectMeta, false, nameFn, field.NewPath("metadata"))
	allErrs = append(allErrs, ValidateCustomResourceDefinitionSpec(&crd.Spec, field.NewPath("spec"))...)
	allErrs = append(allErrs, ValidateCustomResourceDefinitionStatus(&crd.Status, field.NewPath("status"))...)
	allErrs = append(allErrs, ValidateCustomResourceDefinitionStoredVersions(crd.Status.StoredVersions, crd.Spec.Versions, field.NewPath("status", "storedVersions"))...)
	return allErrs
}

// ValidateCustomResourceDefinitionUpdate validates an update of a CRD:
// everything ValidateCustomResourceDefinition checks on the spec, plus
// immutability: group and names.plural never change (they make the name);
// scope and names.kind do not change once the CRD is Established.
//
// Mirrors ValidateCustomResourceDefinitionUpdate.
func ValidateCustomResourceDefinitionUpdate(crd, old *apiextensions.CustomResourceDefinition) field.ErrorList {
	allErrs := validation.ValidateObjectMetaUpdate(&crd.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, ValidateCustomResourceDefinitionSpecUpdate(&crd.Spec, &old.Spec, apiextensions.IsCRDConditionTrue(old, apiextensions.Established), field.NewPath("spec"))...)
	allErrs = append(allErrs, ValidateCustomResourceDefinitionStatus(&crd.Status, field.NewPath("status"))...)
	allErrs = append(allErrs, ValidateCustomResourceDefinitionStoredVersions(crd.Status.StoredVersions, crd.Spec.Versions, field.NewPath("status", "storedVersions"))...)
	return allErrs
}

// ValidateUpdateCustomResourceDefinitionStatus validates a write to the
// /status subresource.
//
// Mirrors ValidateUpdateCustomResourceDefinitionStatus.
func ValidateUpdateCustomResourceDefinitionStatus(crd, old *apiextensions.CustomResourceDefinition) field.ErrorList {
	allErrs := validation.ValidateObjectMetaUpdate(&crd.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	allErrs = append(allErrs, ValidateCustomResourceDefinitionStatus(&crd.Status, field.NewPath("status"))...)
	allErrs = append(allErrs, ValidateCustomResourceDefinitionStoredVersions(crd.Status.StoredVersions, crd.Spec.Versions, field.NewPath("status", "storedVersions"))...)
	return allErrs
}

// ValidateCustomResourceDefinitionStoredVersions checks that there is at
// least one stored version, that the storage version is one, and that every
// stored version is still in spec.versions.
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
			allErrs = append(allErrs, field.Invalid(fldPath, v.Name, "must have the storage version "+v.Name))
		}
		delete(stored, v.Name)
	}
	for _, v := range storedVersions {
		if i, ok := stored[v]; ok {
			allErrs = append(allErrs, field.Invalid(fldPath.Index(i), v, "must appear in spec.versions"))
			delete(stored, v)
		}
	}
	return allErrs
}

// ValidateCustomResourceDefinitionSpecUpdate is ValidateCustomResourceDefinitionSpec
// plus the immutable fields.
func ValidateCustomResourceDefinitionSpecUpdate(spec, old *apiextensions.CustomResourceDefinitionSpec, established bool, fldPath *field.Path) field.ErrorList {
	allErrs := ValidateCustomResourceDefinitionSpec(spec, fldPath)
	if established {
		// these decide where and how objects are stored
		allErrs = append(allErrs, validation.ValidateImmutableField(spec.Scope, old.Scope, fldPath.Child("scope"))...)
		allErrs = append(allErrs, validation.ValidateImmutableField(spec.Names.Kind, old.Names.Kind, fldPath.Child("names", "kind"))...)
	}
	// these make up the CRD's name, which never changes
	allErrs = append(allErrs, validation.ValidateImmutableField(spec.Group, old.Group, fldPath.Child("group"))...)
	allErrs = append(allErrs, validation.ValidateImmutableField(spec.Names.Plural, old.Names.Plural, fldPath.Child("names", "plural"))...)
	return allErrs
}

// ValidateCustomResourceDefinitionSpec validates a spec: group, scope,
// versions (DNS-1035 names, unique, exactly one storage version), names,
// top-level versus per-version fields, schemas (structural unless
// preserveUnknownFields), subresources, printer columns, selectable fields
// and conversion.
//
// Mirrors validateCustomResourceDefinitionSpec.
func ValidateCustomResourceDefinitionSpec(spec *apiextensions.CustomResourceDefinitionSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList

	if len(spec.Group) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("group"), ""))
	} else if errs := utilvalidation.IsDNS1123Subdomain(spec.Group); len(errs) > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("group"), spec.Group, strings.Join(errs, ",")))
	} else if len(strings.Split(spec.Group, ".")) < 2 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("group"), spec.Group, "should be a domain with at least one dot"))
	}

	allErrs = append(allErrs, validateEnumStrings(fldPath.Child("scope"), string(spec.Scope), []string{string(apiextensions.ClusterScoped), string(apiextensions.NamespaceScoped)}, true)...)

	// Pruning (preserveUnknownFields false, the v1 way) needs a structural
	// schema for every version.
	mustBeStructural := spec.PreserveUnknownFields == nil || !*spec.PreserveUnknownFields

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
		statusEnabled := false
		if sub := apiextensions.GetSubresourcesForVersion(&apiextensions.CustomResourceDefinition{Spec: *spec}, version.Name); sub != nil && sub.Status != nil {
			statusEnabled = true
		}
		allErrs = append(allErrs, validateVersion(&version, p, statusEnabled)...)
		if mustBeStructural && spec.Validation == nil && (version.Schema == nil || version.Schema.OpenAPIV3Schema == nil) {
			allErrs = append(allErrs, field.Required(p.Child("schema", "openAPIV3Schema"), "schemas are required"))
		}
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
	if len(spec.SelectableFields) > 0 && apiextensions.HasPerVersionSelectableFields(spec.Versions) {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("selectableFields"), "top-level and per-version selectableFields are mutually exclusive"))
	}
	// ... and per-version values that all agree belong at the top level.
	if len(spec.Versions) > 0 {
		if identical(spec.Versions, func(v apiextensions.CustomResourceDefinitionVersion) any { return v.Schema }) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), spec.Versions, "per-version schemas may not all be set to identical values (top-level validation should be used instead)"))
		}
		if identical(spec.Versions, func(v apiextensions.CustomResourceDefinitionVersion) any { return v.Subresources }) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), spec.Versions, "per-version subresources may not all be set to identical values (top-level subresources should be used instead)"))
		}
		if identical(spec.Versions, func(v apiextensions.CustomResourceDefinitionVersion) any { return v.AdditionalPrinterColumns }) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("versions"), spec.Versions, "per-version additionalPrinterColumns may not all be set to identical values (top-level additionalPrinterColumns should be used instead)"))
		}
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

	topStatus := spec.Subresources != nil && spec.Subresources.Status != nil
	allErrs = append(allErrs, ValidateCustomResourceDefinitionValidation(spec.Validation, topStatus, fldPath.Child("validation"))...)
	allErrs = append(allErrs, ValidateCustomResourceDefinitionSubresources(spec.Subresources, fldPath.Child("subresources"))...)
	for i := range spec.AdditionalPrinterColumns {
		allErrs = append(allErrs, ValidateCustomResourceColumnDefinition(&spec.AdditionalPrinterColumns[i], fldPath.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(spec.SelectableFields) > 0 {
		var schema *apiextensions.JSONSchemaProps
		if spec.Validation != nil {
			schema = spec.Validation.OpenAPIV3Schema
		}
		allErrs = append(allErrs, validateSelectableFields(spec.SelectableFields, schema, fldPath.Child("selectableFields"))...)
	}

	allErrs = append(allErrs, validateCustomResourceConversion(spec.Conversion, fldPath.Child("conversion"))...)
	if spec.Conversion != nil && spec.Conversion.Strategy == apiextensions.WebhookConverter && !mustBeStructural {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("conversion").Child("strategy"), spec.Conversion.Strategy, "must be None if spec.preserveUnknownFields is true"))
	}
	return allErrs
}

// validateVersion checks what a version carries of its own.
//
// Mirrors ValidateCustomResourceDefinitionVersion.
func validateVersion(version *apiextensions.CustomResourceDefinitionVersion, fldPath *field.Path, statusEnabled bool) field.ErrorList {
	allErrs := validateDeprecationWarning(version.Deprecated, version.DeprecationWarning, fldPath.Child("deprecationWarning"))
	allErrs = append(allErrs, ValidateCustomResourceDefinitionValidation(version.Schema, statusEnabled, fldPath.Child("schema"))...)
	allErrs = append(allErrs, ValidateCustomResourceDefinitionSubresources(version.Subresources, fldPath.Child("subresources"))...)
	for i := range version.AdditionalPrinterColumns {
		allErrs = append(allErrs, ValidateCustomResourceColumnDefinition(&version.AdditionalPrinterColumns[i], fldPath.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(version.SelectableFields) > 0 {
		var schema *apiextensions.JSONSchemaProps
		if version.Schema != nil {
			schema = version.Schema.OpenAPIV3Schema
		}
		allErrs = append(allErrs, validateSelectableFields(version.SelectableFields, schema, fldPath.Child("selectableFields"))...)
	}
	return allErrs
}

func validateDeprecationWarning(deprecated bool, warning *string, fldPath *field.Path) field.ErrorList {
	if !deprecated && warning != nil {
		return field.ErrorList{field.Invalid(fldPath, *warning, "can only be set for deprecated versions")}
	}
	if warning == nil {
		return nil
	}
	var allErrs field.ErrorList
	if len(*warning) > 256 {
		allErrs = append(allErrs, field.TooLong(fldPath, "", 256))
	}
	for i, r := range *warning {
		if !unicode.IsPrint(r) || (unicode.IsSpace(r) && r != ' ') {
			allErrs = append(allErrs, field.Invalid(fldPath, *warning, fmt.Sprintf("must only contain printable UTF-8 characters; non-printable character found at index %d", i)))
			break
		}
	}
	return allErrs
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
	} else if !contains(printerColumnDatatypes, col.Type) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("type"), col.Type, "must be one of "+strings.Join(printerColumnDatatypes, ",")))
	}
	if len(col.Format) > 0 && !contains(printerColumnFormats, col.Format) {
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
			allErrs = append(allErrs, field.Invalid(fldPath.Child("scale.labelSelectorPath"), *p, "should be a json path under either .spec or .status"))
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
func validateCustomResourceConversion(conversion *apiextensions.CustomResourceConversion, fldPath *field.Path) field.ErrorList {
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
		if len(conversion.ConversionReviewVersions) == 0 {
			allErrs = append(allErrs, field.Required(fldPath.Child("conversionReviewVersions"), "must specify one of v1, v1beta1"))
		}
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

func validateEnumStrings(fldPath *field.Path, value string, accepted []string, required bool) field.ErrorList {
	if value == "" {
		if required {
			return field.ErrorList{field.Required(fldPath, "")}
		}
		return nil
	}
	if contains(accepted, value) {
		return nil
	}
	return field.ErrorList{field.NotSupported(fldPath, value, accepted)}
}

// identical reports whether every version has the same, non-empty value.
func identical(versions []apiextensions.CustomResourceDefinitionVersion, get func(apiextensions.CustomResourceDefinitionVersion) any) bool {
	first := get(versions[0])
	if isEmpty(first) {
		return false
	}
	for _, v := range versions[1:] {
		if !reflect.DeepEqual(get(v), first) {
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

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func sortedSchemaKeys(m map[string]apiextensions.JSONSchemaProps) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
