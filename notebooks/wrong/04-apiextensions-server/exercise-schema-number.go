//go:build ignore

// Mistake: types replicas as a number, which lets a fraction such as 2.5 through.
// Check says: is 2.5 a count?
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
					"replicas": {Type: "number", Minimum: new(1.0), Maximum: new(10.0), Default: &one},
				},
			},
		},
	}
}
