//go:build ignore

// Mistake: writes the default as the JSON string "1", which does not fit an integer field.
// Check says: does every default fit its field
package wrong

// cronTabSchema is the openAPIV3Schema of stable.example.com/v1 CronTabs.
func cronTabSchema() *apiextensionsv1.JSONSchemaProps {
	one := apiextensionsv1.JSON{Raw: []byte(`"1"`)}
	return &apiextensionsv1.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"spec": {
				Type:     "object",
				Required: []string{"cronSpec"},
				Properties: map[string]apiextensionsv1.JSONSchemaProps{
					"cronSpec": {Type: "string"},
					"replicas": {Type: "integer", Minimum: new(1.0), Maximum: new(10.0), Default: &one},
				},
			},
		},
	}
}
