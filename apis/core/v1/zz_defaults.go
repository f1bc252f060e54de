// Code written by hand in the shape of upstream's generated
// zz_generated.defaults.go. The defaults themselves are in
// defaults.go.

package v1

import (
	"github.com/crdlab/crdlab/scheme"
)

// RegisterDefaults adds the defaulting function of every type to s.
func RegisterDefaults(s *scheme.Scheme) {
	scheme.AddDefaulting(s, SetDefaults_Secret)
	scheme.AddDefaulting(s, SetDefaults_ConfigMap)
	scheme.AddDefaulting(s, SetObjectDefaults_Namespace)
	scheme.AddDefaulting(s, func(l *SecretList) {
		for i := range l.Items {
			SetDefaults_Secret(&l.Items[i])
		}
	})
	scheme.AddDefaulting(s, func(l *ConfigMapList) {
		for i := range l.Items {
			SetDefaults_ConfigMap(&l.Items[i])
		}
	})
	scheme.AddDefaulting(s, func(l *NamespaceList) {
		for i := range l.Items {
			SetObjectDefaults_Namespace(&l.Items[i])
		}
	})
}
