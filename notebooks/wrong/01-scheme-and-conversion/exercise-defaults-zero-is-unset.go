//go:build ignore

// Mistake: treats replicas: 0, a value at the type's boundary, as unset and overwrites it.
// Check says: replicas: 0 is set (to zero)
package wrong

// SetDefaults_CronTabV2 fills the unset fields of a stable.example.com/v2 CronTab.
func SetDefaults_CronTabV2(obj *CronTabV2) {
	if obj.Spec.Replicas == nil || *obj.Spec.Replicas == 0 {
		one := int32(1)
		obj.Spec.Replicas = &one
	}
	if obj.Spec.Schedule.TimeZone == "" {
		obj.Spec.Schedule.TimeZone = "UTC"
	}
}
