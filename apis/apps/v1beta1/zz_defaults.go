// Code written by hand in the shape of upstream's generated
// zz_generated.defaults.go: SetObjectDefaults_* call the defaulting rules
// (defaults.go) for each object and each item of a list.

package v1beta1

import "github.com/crdlab/crdlab/scheme"

// RegisterDefaults adds the defaulting function of every type to s.
func RegisterDefaults(s *scheme.Scheme) {
	scheme.AddDefaulting(s, SetObjectDefaults_Deployment)
	scheme.AddDefaulting(s, SetObjectDefaults_DeploymentList)
}

func SetObjectDefaults_Deployment(in *Deployment) {
	SetDefaults_Deployment(in)
}

func SetObjectDefaults_DeploymentList(in *DeploymentList) {
	for i := range in.Items {
		SetObjectDefaults_Deployment(&in.Items[i])
	}
}
