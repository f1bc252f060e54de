package apiextensions

// FieldValueErrorReason is the reason a x-kubernetes-validations rule
// reports when it fails.
type FieldValueErrorReason string

const (
	FieldValueRequired  FieldValueErrorReason = "FieldValueRequired"
	FieldValueDuplicate FieldValueErrorReason = "FieldValueDuplicate"
	FieldValueInvalid   FieldValueErrorReason = "FieldValueInvalid"
	FieldValueForbidden FieldValueErrorReason = "FieldValueForbidden"
)

// JSONSchemaProps is the hub shape of a schema: the same fields as the
// external versions, with JSON values (default, example, enum) held as
// decoded Go values instead of raw bytes.
//
// Mirrors k8s.io/apiextensions-apiserver/pkg/apis/apiextensions.JSONSchemaProps.
type JSONSchemaProps struct {
	ID                   string
	Schema               JSONSchemaURL
	Ref                  *string
	Description          string
	Type                 string
	Nullable             bool
	Format               string
	Title                string
	Default              *JSON
	Maximum              *float64
	ExclusiveMaximum     bool
	Minimum              *float64
	ExclusiveMinimum     bool
	MaxLength            *int64
	MinLength            *int64
	Pattern              string
	MaxItems             *int64
	MinItems             *int64
	UniqueItems          bool
	MultipleOf           *float64
	Enum                 []JSON
	MaxProperties        *int64
	MinProperties        *int64
	Required             []string
	Items                *JSONSchemaPropsOrArray
	AllOf                []JSONSchemaProps
	OneOf                []JSONSchemaProps
	AnyOf                []JSONSchemaProps
	Not                  *JSONSchemaProps
	Properties           map[string]JSONSchemaProps
	AdditionalProperties *JSONSchemaPropsOrBool
	PatternProperties    map[string]JSONSchemaProps
	Dependencies         JSONSchemaDependencies
	AdditionalItems      *JSONSchemaPropsOrBool
	Definitions          JSONSchemaDefinitions
	ExternalDocs         *ExternalDocumentation
	Example              *JSON

	XPreserveUnknownFields *bool
	XEmbeddedResource      bool
	XIntOrString           bool
	XListMapKeys           []string
	XListType              *string
	XMapType               *string
	XValidations           ValidationRules
}

// ValidationRules is a list of CEL validation rules.
type ValidationRules []ValidationRule

// ValidationRule is one x-kubernetes-validations entry (kept as data).
type ValidationRule struct {
	Rule              string
	Message           string
	MessageExpression string
	Reason            *FieldValueErrorReason
	FieldPath         string
	OptionalOldSelf   *bool
}

// JSON is any decoded JSON value: nil, bool, float64 (or int64), string,
// []any, map[string]any.
type JSON any

// JSONSchemaURL is the $schema of a schema.
type JSONSchemaURL string

// JSONSchemaPropsOrArray is a schema or an array of schemas (items).
type JSONSchemaPropsOrArray struct {
	Schema      *JSONSchemaProps
	JSONSchemas []JSONSchemaProps
}

// JSONSchemaPropsOrBool is a schema or a boolean (additionalProperties).
type JSONSchemaPropsOrBool struct {
	Allows bool
	Schema *JSONSchemaProps
}

// JSONSchemaDependencies maps a property to what it depends on.
type JSONSchemaDependencies map[string]JSONSchemaPropsOrStringArray

// JSONSchemaPropsOrStringArray is a schema or a list of property names.
type JSONSchemaPropsOrStringArray struct {
	Schema   *JSONSchemaProps
	Property []string
}

// JSONSchemaDefinitions are named schemas.
type JSONSchemaDefinitions map[string]JSONSchemaProps

// ExternalDocumentation points at more documentation.
type ExternalDocumentation struct {
	Description string
	URL         string
}
