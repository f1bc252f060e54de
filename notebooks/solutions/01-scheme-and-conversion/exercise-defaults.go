//go:build ignore

// Solution to exercise 2 of 01-scheme-and-conversion.ipynb: v2's defaults.
package solutions

// SetDefaults_CronTabV2 fills the unset fields of a stable.example.com/v2 CronTab.
func SetDefaults_CronTabV2(obj *CronTabV2) {
	if obj.Spec.Replicas == nil {
		one := int32(1)
		obj.Spec.Replicas = &one
	}
	if obj.Spec.Schedule.TimeZone == "" {
		obj.Spec.Schedule.TimeZone = "UTC"
	}
}
