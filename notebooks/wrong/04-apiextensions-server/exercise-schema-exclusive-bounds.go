//go:build ignore

// Mistake: makes the bounds exclusive, so the values at the boundary, 1 and 10, are refused.
// Check says: a value at the boundary
package wrong

// cronTabSchema is the openAPIV3Schema of stable.example.com/v1 CronTabs.
func cronTabSchema() *apiextensionsv1.JSONSchemaProps {
	one := apiextensionsv1.JSON{Raw: []byte("1")}
	return &apiextensionsv1.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"spec": {
				Type:     "object",
				Required: []string{"cronSpec"},
				Properties: map[string]apiextensionsv1.JSONSchemaProps{
					"cronSpec": {Type: "string"},
					"replicas": {Type: "integer", Minimum: new(1.0), ExclusiveMinimum: true, Maximum: new(10.0), ExclusiveMaximum: true, Default: &one},
				},
			},
		},
	}
}
