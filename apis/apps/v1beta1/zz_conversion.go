// Code written by hand in the shape of upstream's generated
// zz_generated.conversion.go: registration, lists and status copied field
// for field. The Deployment rules worth reading are in conversion.go.

package v1beta1

import (
	"github.com/crdlab/crdlab/apis/apps"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

// RegisterConversions adds the conversions of every type to and from the
// hub to s.
func RegisterConversions(s *scheme.Scheme) {
	scheme.AddConversion(s, Convert_v1beta1_Deployment_To_apps_Deployment)
	scheme.AddConversion(s, Convert_apps_Deployment_To_v1beta1_Deployment)
	scheme.AddConversion(s, Convert_v1beta1_DeploymentList_To_apps_DeploymentList)
	scheme.AddConversion(s, Convert_apps_DeploymentList_To_v1beta1_DeploymentList)
}

func Convert_v1beta1_DeploymentList_To_apps_DeploymentList(in *DeploymentList, out *apps.DeploymentList) (err error) {
	out.ListMeta = deepcopy.Copy(in.ListMeta)
	out.Items, err = scheme.ConvertSlice(in.Items, Convert_v1beta1_Deployment_To_apps_Deployment)
	return err
}

func Convert_apps_DeploymentList_To_v1beta1_DeploymentList(in *apps.DeploymentList, out *DeploymentList) (err error) {
	out.ListMeta = deepcopy.Copy(in.ListMeta)
	out.Items, err = scheme.ConvertSlice(in.Items, Convert_apps_Deployment_To_v1beta1_Deployment)
	return err
}

func convertStatusToInternal(in *DeploymentStatus, out *apps.DeploymentStatus) {
	*out = apps.DeploymentStatus{
		ObservedGeneration:  in.ObservedGeneration,
		Replicas:            in.Replicas,
		UpdatedReplicas:     in.UpdatedReplicas,
		ReadyReplicas:       in.ReadyReplicas,
		AvailableReplicas:   in.AvailableReplicas,
		UnavailableReplicas: in.UnavailableReplicas,
		CollisionCount:      deepcopy.Copy(in.CollisionCount),
	}
	for _, c := range in.Conditions {
		out.Conditions = append(out.Conditions, apps.DeploymentCondition(c))
	}
}

func convertStatusFromInternal(in *apps.DeploymentStatus, out *DeploymentStatus) {
	*out = DeploymentStatus{
		ObservedGeneration:  in.ObservedGeneration,
		Replicas:            in.Replicas,
		UpdatedReplicas:     in.UpdatedReplicas,
		ReadyReplicas:       in.ReadyReplicas,
		AvailableReplicas:   in.AvailableReplicas,
		UnavailableReplicas: in.UnavailableReplicas,
		CollisionCount:      deepcopy.Copy(in.CollisionCount),
	}
	for _, c := range in.Conditions {
		out.Conditions = append(out.Conditions, DeploymentCondition(c))
	}
}
