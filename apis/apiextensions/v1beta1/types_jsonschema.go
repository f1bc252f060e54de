package v1beta1

import (
	"bytes"
	"encoding/json"
	"errors"
)

// FieldValueErrorReason is the reason a x-kubernetes-validations rule
// reports when it fails.
type FieldValueErrorReason string

const (
	FieldValueRequired  FieldValueErrorReason = "FieldValueRequired"
	FieldValueDuplicate FieldValueErrorReason = "FieldValueDuplicate"
	FieldValueInvalid   FieldValueErrorReason = "FieldValueInvalid"
	FieldValueForbidden FieldValueErrorReason = "FieldValueForbidden"
)

// JSONSchemaProps is a JSON-Schema following OpenAPI v3 (draft 4 subset)
// with the Kubernetes x-kubernetes-* extensions.
//
// Mirrors k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1.JSONSchemaProps.
type JSONSchemaProps struct {
	ID                   string                     `json:"id,omitempty"`
	Schema               JSONSchemaURL              `json:"$schema,omitempty"`
	Ref                  *string                    `json:"$ref,omitempty"`
	Description          string                     `json:"description,omitempty"`
	Type                 string                     `json:"type,omitempty"`
	Format               string                     `json:"format,omitempty"`
	Title                string                     `json:"title,omitempty"`
	Default              *JSON                      `json:"default,omitempty"`
	Maximum              *float64                   `json:"maximum,omitempty"`
	ExclusiveMaximum     bool                       `json:"exclusiveMaximum,omitempty"`
	Minimum              *float64                   `json:"minimum,omitempty"`
	ExclusiveMinimum     bool                       `json:"exclusiveMinimum,omitempty"`
	MaxLength            *int64                     `json:"maxLength,omitempty"`
	MinLength            *int64                     `json:"minLength,omitempty"`
	Pattern              string                     `json:"pattern,omitempty"`
	MaxItems             *int64                     `json:"maxItems,omitempty"`
	MinItems             *int64                     `json:"minItems,omitempty"`
	UniqueItems          bool                       `json:"uniqueItems,omitempty"`
	MultipleOf           *float64                   `json:"multipleOf,omitempty"`
	Enum                 []JSON                     `json:"enum,omitempty"`
	MaxProperties        *int64                     `json:"maxProperties,omitempty"`
	MinProperties        *int64                     `json:"minProperties,omitempty"`
	Required             []string                   `json:"required,omitempty"`
	Items                *JSONSchemaPropsOrArray    `json:"items,omitempty"`
	AllOf                []JSONSchemaProps          `json:"allOf,omitempty"`
	OneOf                []JSONSchemaProps          `json:"oneOf,omitempty"`
	AnyOf                []JSONSchemaProps          `json:"anyOf,omitempty"`
	Not                  *JSONSchemaProps           `json:"not,omitempty"`
	Properties           map[string]JSONSchemaProps `json:"properties,omitempty"`
	AdditionalProperties *JSONSchemaPropsOrBool     `json:"additionalProperties,omitempty"`
	PatternProperties    map[string]JSONSchemaProps `json:"patternProperties,omitempty"`
	Dependencies         JSONSchemaDependencies     `json:"dependencies,omitempty"`
	AdditionalItems      *JSONSchemaPropsOrBool     `json:"additionalItems,omitempty"`
	Definitions          JSONSchemaDefinitions      `json:"definitions,omitempty"`
	ExternalDocs         *ExternalDocumentation     `json:"externalDocs,omitempty"`
	Example              *JSON                      `json:"example,omitempty"`
	Nullable             bool                       `json:"nullable,omitempty"`

	// XPreserveUnknownFields stops pruning of fields the schema does not name.
	XPreserveUnknownFields *bool `json:"x-kubernetes-preserve-unknown-fields,omitempty"`
	// XEmbeddedResource says the value is a whole object (apiVersion, kind, metadata).
	XEmbeddedResource bool `json:"x-kubernetes-embedded-resource,omitempty"`
	// XIntOrString accepts an integer or a string.
	XIntOrString bool `json:"x-kubernetes-int-or-string,omitempty"`
	// XListMapKeys are the keys of a list of type "map".
	XListMapKeys []string `json:"x-kubernetes-list-map-keys,omitempty"`
	// XListType is atomic, set or map.
	XListType *string `json:"x-kubernetes-list-type,omitempty"`
	// XMapType is granular or atomic.
	XMapType *string `json:"x-kubernetes-map-type,omitempty"`
	// XValidations are CEL rules; crdlab keeps them as data and does not run them.
	XValidations ValidationRules `json:"x-kubernetes-validations,omitempty"`
}

// ValidationRules is a list of CEL validation rules.
type ValidationRules []ValidationRule

// ValidationRule is one x-kubernetes-validations entry.
type ValidationRule struct {
	Rule              string                 `json:"rule"`
	Message           string                 `json:"message,omitempty"`
	MessageExpression string                 `json:"messageExpression,omitempty"`
	Reason            *FieldValueErrorReason `json:"reason,omitempty"`
	FieldPath         string                 `json:"fieldPath,omitempty"`
	OptionalOldSelf   *bool                  `json:"optionalOldSelf,omitempty"`
}

// JSON is any JSON value, kept as its raw bytes (default, example, enum).
type JSON struct {
	Raw []byte `json:"-"`
}

var nullLiteral = []byte("null")

// MarshalJSON writes the raw bytes, or null.
func (s JSON) MarshalJSON() ([]byte, error) {
	if len(s.Raw) > 0 {
		return s.Raw, nil
	}
	return []byte("null"), nil
}

// UnmarshalJSON keeps the raw bytes; a literal null leaves Raw empty.
func (s *JSON) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && !bytes.Equal(data, nullLiteral) {
		s.Raw = append(s.Raw[0:0], data...)
	}
	return nil
}

// JSONSchemaURL is the $schema of a schema.
type JSONSchemaURL string

// JSONSchemaPropsOrArray is a schema or an array of schemas (items).
type JSONSchemaPropsOrArray struct {
	Schema      *JSONSchemaProps
	JSONSchemas []JSONSchemaProps
}

// MarshalJSON writes the array if there is one, else the schema.
func (s JSONSchemaPropsOrArray) MarshalJSON() ([]byte, error) {
	if len(s.JSONSchemas) > 0 {
		return json.Marshal(s.JSONSchemas)
	}
	return json.Marshal(s.Schema)
}

// UnmarshalJSON reads a schema object or an array of them.
func (s *JSONSchemaPropsOrArray) UnmarshalJSON(data []byte) error {
	var nw JSONSchemaPropsOrArray
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '{' {
		var sch JSONSchemaProps
		if err := json.Unmarshal(data, &sch); err != nil {
			return err
		}
		nw.Schema = &sch
	}
	if len(data) > 0 && data[0] == '[' {
		if err := json.Unmarshal(data, &nw.JSONSchemas); err != nil {
			return err
		}
	}
	*s = nw
	return nil
}

// JSONSchemaPropsOrBool is a schema or a boolean (additionalProperties).
type JSONSchemaPropsOrBool struct {
	Allows bool
	Schema *JSONSchemaProps
}

// MarshalJSON writes the schema if there is one, else the boolean.
func (s JSONSchemaPropsOrBool) MarshalJSON() ([]byte, error) {
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	if !s.Allows {
		return []byte("false"), nil
	}
	return []byte("true"), nil
}

// UnmarshalJSON reads a schema object (which implies Allows) or a boolean.
func (s *JSONSchemaPropsOrBool) UnmarshalJSON(data []byte) error {
	var nw JSONSchemaPropsOrBool
	data = bytes.TrimSpace(data)
	switch {
	case len(data) == 0:
	case data[0] == '{':
		var sch JSONSchemaProps
		if err := json.Unmarshal(data, &sch); err != nil {
			return err
		}
		nw.Allows = true
		nw.Schema = &sch
	case string(data) == "true":
		nw.Allows = true
	case string(data) == "false":
		nw.Allows = false
	default:
		return errors.New("boolean or JSON schema expected")
	}
	*s = nw
	return nil
}

// JSONSchemaDependencies maps a property to the schema or property list it
// depends on.
type JSONSchemaDependencies map[string]JSONSchemaPropsOrStringArray

// JSONSchemaPropsOrStringArray is a schema or a list of property names.
type JSONSchemaPropsOrStringArray struct {
	Schema   *JSONSchemaProps
	Property []string
}

// MarshalJSON writes the property list if there is one, else the schema.
func (s JSONSchemaPropsOrStringArray) MarshalJSON() ([]byte, error) {
	if len(s.Property) > 0 {
		return json.Marshal(s.Property)
	}
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	return []byte("null"), nil
}

// UnmarshalJSON reads a schema object or a list of strings.
func (s *JSONSchemaPropsOrStringArray) UnmarshalJSON(data []byte) error {
	var nw JSONSchemaPropsOrStringArray
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '{' {
		var sch JSONSchemaProps
		if err := json.Unmarshal(data, &sch); err != nil {
			return err
		}
		nw.Schema = &sch
	}
	if len(data) > 0 && data[0] == '[' {
		if err := json.Unmarshal(data, &nw.Property); err != nil {
			return err
		}
	}
	*s = nw
	return nil
}

// JSONSchemaDefinitions are named schemas ($ref targets; forbidden in CRDs).
type JSONSchemaDefinitions map[string]JSONSchemaProps

// ExternalDocumentation points at more documentation.
type ExternalDocumentation struct {
	Description string `json:"description,omitempty"`
	URL         string `json:"url,omitempty"`
}
