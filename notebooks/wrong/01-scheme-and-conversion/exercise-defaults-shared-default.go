//go:build ignore

// Mistake: every defaulted object points at one shared variable.
// Check says: two objects share one default value through a pointer
package wrong

var defaultReplicas int32 = 1

// SetDefaults_CronTabV2 fills the unset fields of a stable.example.com/v2 CronTab.
func SetDefaults_CronTabV2(obj *CronTabV2) {
	if obj.Spec.Replicas == nil {
		obj.Spec.Replicas = &defaultReplicas
	}
	if obj.Spec.Schedule.TimeZone == "" {
		obj.Spec.Schedule.TimeZone = "UTC"
	}
}
