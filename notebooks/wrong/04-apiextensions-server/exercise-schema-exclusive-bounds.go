//go:build ignore

// Mistake: reads "between 1 and 10" as below 10 (an exclusive maximum), so the value at the boundary, 10, is refused.
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
					"replicas": {Type: "integer", Minimum: new(1.0), Maximum: new(10.0), ExclusiveMaximum: true, Default: &one},
				},
			},
		},
	}
}
