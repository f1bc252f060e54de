//go:build ignore

// Mistake: the time zone goes into the hub but is not written back to v2.
// Check says: a round trip through the hub must lose nothing
package wrong

// Convert_v2_CronTab_To_hub converts stable.example.com/v2 to the hub.
func Convert_v2_CronTab_To_hub(in *CronTabV2, out *CronTab) error {
	out.ObjectMeta = *in.ObjectMeta.DeepCopy()
	out.Spec = CronTabSpec{
		Schedule: in.Spec.Schedule.Cron,
		TimeZone: in.Spec.Schedule.TimeZone,
		Image:    in.Spec.Image,
	}
	if in.Spec.Replicas != nil {
		out.Spec.Replicas = *in.Spec.Replicas
	}
	return nil
}

// Convert_hub_To_v2_CronTab converts the hub to stable.example.com/v2.
func Convert_hub_To_v2_CronTab(in *CronTab, out *CronTabV2) error {
	out.ObjectMeta = *in.ObjectMeta.DeepCopy()
	replicas := in.Spec.Replicas
	out.Spec = CronTabV2Spec{
		Schedule: CronSchedule{Cron: in.Spec.Schedule},
		Image:    in.Spec.Image,
		Replicas: &replicas,
	}
	return nil
}
