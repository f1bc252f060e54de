package apiextensions

// Helpers on the internal type, used by validation.
//
// Mirrors pkg/apis/apiextensions/helpers.go.

// HasPerVersionSchema reports whether any version has its own schema.
func HasPerVersionSchema(versions []CustomResourceDefinitionVersion) bool {
	for _, v := range versions {
		if v.Schema != nil {
			return true
		}
	}
	return false
}

// HasPerVersionSubresources reports whether any version has its own subresources.
func HasPerVersionSubresources(versions []CustomResourceDefinitionVersion) bool {
	for _, v := range versions {
		if v.Subresources != nil {
			return true
		}
	}
	return false
}

// HasPerVersionColumns reports whether any version has its own printer columns.
func HasPerVersionColumns(versions []CustomResourceDefinitionVersion) bool {
	for _, v := range versions {
		if len(v.AdditionalPrinterColumns) > 0 {
			return true
		}
	}
	return false
}

// IsStoredVersion reports whether version is in status.storedVersions.
func IsStoredVersion(crd *CustomResourceDefinition, version string) bool {
	for _, v := range crd.Status.StoredVersions {
		if v == version {
			return true
		}
	}
	return false
}

// IsCRDConditionTrue reports whether the condition is present and True.
func IsCRDConditionTrue(crd *CustomResourceDefinition, conditionType CustomResourceDefinitionConditionType) bool {
	for _, c := range crd.Status.Conditions {
		if c.Type == conditionType {
			return c.Status == ConditionTrue
		}
	}
	return false
}

// GetSchemaForVersion returns the schema that applies to version: the
// top-level one if set, else the version's own.
func GetSchemaForVersion(crd *CustomResourceDefinition, version string) *CustomResourceValidation {
	if crd.Spec.Validation != nil {
		return crd.Spec.Validation
	}
	for _, v := range crd.Spec.Versions {
		if v.Name == version {
			return v.Schema
		}
	}
	return nil
}
