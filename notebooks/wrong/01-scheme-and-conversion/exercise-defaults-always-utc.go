//go:build ignore

// Mistake: sets the time zone whether or not the object has one.
// Check says: a default fills a field only when it is unset
package wrong

// SetDefaults_CronTabV2 fills the unset fields of a stable.example.com/v2 CronTab.
func SetDefaults_CronTabV2(obj *CronTabV2) {
	if obj.Spec.Replicas == nil {
		one := int32(1)
		obj.Spec.Replicas = &one
	}
	obj.Spec.Schedule.TimeZone = "UTC"
}
