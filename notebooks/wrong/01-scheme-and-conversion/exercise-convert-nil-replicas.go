//go:build ignore

// Mistake: reads the optional replicas (a pointer) without checking that it is set.
// Check says: an optional field (a pointer) may be absent
package wrong

// Convert_v2_CronTab_To_hub converts stable.example.com/v2 to the hub.
func Convert_v2_CronTab_To_hub(in *CronTabV2, out *CronTab) error {
	out.ObjectMeta = *in.ObjectMeta.DeepCopy()
	out.Spec = CronTabSpec{
		Schedule: in.Spec.Schedule.Cron,
		TimeZone: in.Spec.Schedule.TimeZone,
		Image:    in.Spec.Image,
		Replicas: *in.Spec.Replicas,
	}
	return nil
}

// Convert_hub_To_v2_CronTab converts the hub to stable.example.com/v2.
func Convert_hub_To_v2_CronTab(in *CronTab, out *CronTabV2) error {
	out.ObjectMeta = *in.ObjectMeta.DeepCopy()
	replicas := in.Spec.Replicas
	out.Spec = CronTabV2Spec{
		Schedule: CronSchedule{Cron: in.Spec.Schedule, TimeZone: in.Spec.TimeZone},
		Image:    in.Spec.Image,
		Replicas: &replicas,
	}
	return nil
}
