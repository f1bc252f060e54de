package structural

import (
	"reflect"

	"github.com/crdlab/crdlab/apis/validation/field"
)

// Default sets, in obj and everything below it, each field the schema gives
// a default to and that is missing — or null where the schema does not
// allow null. Defaults are deep-copied, so objects never share them. It
// walks properties, additionalProperties and array items, and a default
// just set is itself defaulted below.
//
// Default runs after decoding and before validation (on create, update and
// read from storage); a null in a nullable field is kept.
//
// Mirrors defaulting.Default (structural defaulting, algorithm.go).
func Default(s *Structural, obj map[string]any) {
	defaultValue(obj, s)
}

// nonNullableNull says x is a null the schema does not allow. Mirrors
// isNonNullableNull.
func nonNullableNull(x any, s *Structural) bool {
	return x == nil && s != nil && !s.Nullable
}

func defaultValue(x any, s *Structural) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for k, prop := range s.Properties {
			if prop.Default == nil {
				continue
			}
			if v, found := x[k]; !found || nonNullableNull(v, prop) {
				x[k] = deepCopyJSON(prop.Default)
			}
		}
		for k, v := range x {
			if prop, found := s.Properties[k]; found {
				defaultValue(v, prop)
			} else if ap := s.AdditionalProperties; ap != nil {
				if nonNullableNull(v, ap) && ap.Default != nil {
					x[k] = deepCopyJSON(ap.Default)
				}
				defaultValue(x[k], ap)
			}
		}
	case []any:
		for i, v := range x {
			if nonNullableNull(v, s.Items) && s.Items.Default != nil {
				x[i] = deepCopyJSON(s.Items.Default)
			}
			defaultValue(x[i], s.Items)
		}
	}
}

// PruneNonNullableNullsWithoutDefaults deletes from obj every null the
// schema neither allows (nullable) nor replaces (default): upstream stores
// `selector: {matchLabels: null}` as `selector: {}` instead of failing
// "must be of type object". Nulls that have a default are left for Default.
// It runs right after Prune, when reading a request body and when reading
// from storage.
//
// Mirrors defaulting.PruneNonNullableNullsWithoutDefaults (prunenulls.go).
func PruneNonNullableNullsWithoutDefaults(s *Structural, obj map[string]any) {
	pruneNulls(obj, s)
}

func pruneNulls(x any, s *Structural) {
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			sub := schemaForField(k, s)
			if v == nil && sub != nil && !sub.Nullable && sub.Default == nil {
				delete(x, k)
			} else {
				pruneNulls(v, sub)
			}
		}
	case []any:
		var items *Structural
		if s != nil {
			items = s.Items
		}
		for _, v := range x {
			pruneNulls(v, items)
		}
	}
}

// schemaForField is the schema of an object's field k: its property, else
// additionalProperties. Mirrors getSchemaForField.
func schemaForField(k string, s *Structural) *Structural {
	if s == nil {
		return nil
	}
	if p, ok := s.Properties[k]; ok {
		return p
	}
	return s.AdditionalProperties
}

// ValidateDefaults checks every default of s against the node it sits on:
// it must validate (schema, and apiVersion/kind of an embedded resource),
// and, if requirePrunedDefaults, have no field that pruning would drop.
// Defaults below additionalProperties are not followed (upstream forbids
// them where they would be ambiguous and does not check the others), nor
// are the defaults of an embedded resource's apiVersion, kind and metadata.
// pth is the schema's path in the CRD; with isResourceRoot, s is a whole
// resource's schema.
//
// The CRD validation calls it for schemas that are structural.
//
// Mirrors defaulting.ValidateDefaults (defaulting/validation.go), without
// the CEL rules and ObjectMeta coercion of defaults.
func ValidateDefaults(pth *field.Path, s *Structural, isResourceRoot, requirePrunedDefaults bool) field.ErrorList {
	if isResourceRoot {
		if s == nil {
			s = &Structural{}
		}
		if !s.XEmbeddedResource {
			clone := *s
			clone.XEmbeddedResource = true
			s = &clone
		}
	}
	return validateDefaults(pth, s, false, requirePrunedDefaults)
}

// validateDefaults is ValidateDefaults' recursion; insideMeta is set below
// the apiVersion, kind and metadata of an embedded resource.
func validateDefaults(pth *field.Path, s *Structural, insideMeta, requirePrunedDefaults bool) field.ErrorList {
	if s == nil {
		return nil
	}
	if s.XEmbeddedResource {
		insideMeta = false
	}
	var errs field.ErrorList
	if s.Default != nil && !insideMeta {
		dp := pth.Child("default")
		if requirePrunedDefaults {
			pruned := deepCopyJSON(s.Default)
			pruneValue(pruned, s, s.XEmbeddedResource)
			if !reflect.DeepEqual(pruned, s.Default) {
				errs = append(errs, field.Invalid(dp, s.Default, "must not have unknown fields"))
			}
		}
		if embedded := validateEmbedded(dp, s.Default, s, s.XEmbeddedResource); len(embedded) > 0 {
			errs = append(errs, embedded...)
		} else {
			errs = append(errs, ValidateValue(s, dp, s.Default)...)
		}
	}
	// Paths are made only for the nodes there are (each walk of a
	// real-size schema made thousands for absent items).
	if s.Items != nil {
		errs = append(errs, validateDefaults(pth.Child("items"), s.Items, insideMeta, requirePrunedDefaults)...)
	}
	pp := propertiesPath(pth, s)
	for _, k := range sortedKeys(s.Properties) {
		sub := insideMeta || (s.XEmbeddedResource && metaFields[k])
		errs = append(errs, validateDefaults(pp.Key(k), s.Properties[k], sub, requirePrunedDefaults)...)
	}
	return errs
}
