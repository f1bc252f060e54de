//go:build ignore

// Solution to exercise 1 of 04-apiextensions-server.ipynb: a structural
// schema with a required field, a range, a default, and pruning.
package solutions

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
					"replicas": {Type: "integer", Minimum: new(1.0), Maximum: new(10.0), Default: &one},
				},
				// No x-kubernetes-preserve-unknown-fields: fields not
				// named here are pruned.
			},
		},
	}
}
