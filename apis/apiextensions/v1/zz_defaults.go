// Code written by hand in the shape of upstream's generated
// zz_generated.defaults.go: SetObjectDefaults_* call the defaulting rules
// (defaults.go) for each object and each item of a list.

package v1

import "github.com/crdlab/crdlab/scheme"

// RegisterDefaults adds the defaulting function of every type to s.
func RegisterDefaults(s *scheme.Scheme) {
	scheme.AddDefaulting(s, SetObjectDefaults_CustomResourceDefinition)
	scheme.AddDefaulting(s, SetObjectDefaults_CustomResourceDefinitionList)
}

func SetObjectDefaults_CustomResourceDefinition(in *CustomResourceDefinition) {
	SetDefaults_CustomResourceDefinition(in)
}

func SetObjectDefaults_CustomResourceDefinitionList(in *CustomResourceDefinitionList) {
	for i := range in.Items {
		SetObjectDefaults_CustomResourceDefinition(&in.Items[i])
	}
}
