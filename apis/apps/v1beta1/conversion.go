package v1beta1

import (
	"github.com/crdlab/crdlab/apis/apps"
	"github.com/crdlab/crdlab/internal/deepcopy"
)

// Convert_v1beta1_Deployment_To_apps_Deployment converts to the hub; every
// field has a place there, rollbackTo included.
func Convert_v1beta1_Deployment_To_apps_Deployment(in *Deployment, out *apps.Deployment) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	s := &in.Spec
	out.Spec = apps.DeploymentSpec{
		Selector:                deepcopy.Copy(s.Selector),
		Template:                deepcopy.Copy(s.Template),
		Strategy:                apps.DeploymentStrategy{Type: apps.DeploymentStrategyType(s.Strategy.Type)},
		MinReadySeconds:         s.MinReadySeconds,
		RevisionHistoryLimit:    deepcopy.Copy(s.RevisionHistoryLimit),
		Paused:                  s.Paused,
		ProgressDeadlineSeconds: deepcopy.Copy(s.ProgressDeadlineSeconds),
	}
	if s.Replicas != nil {
		out.Spec.Replicas = *s.Replicas
	}
	if ru := s.Strategy.RollingUpdate; ru != nil {
		out.Spec.Strategy.RollingUpdate = &apps.RollingUpdateDeployment{}
		if ru.MaxUnavailable != nil {
			out.Spec.Strategy.RollingUpdate.MaxUnavailable = *ru.MaxUnavailable
		}
		if ru.MaxSurge != nil {
			out.Spec.Strategy.RollingUpdate.MaxSurge = *ru.MaxSurge
		}
	}
	if s.RollbackTo != nil {
		out.Spec.RollbackTo = &apps.RollbackConfig{Revision: s.RollbackTo.Revision}
	}
	convertStatusToInternal(&in.Status, &out.Status)
	return nil
}

// Convert_apps_Deployment_To_v1beta1_Deployment converts from the hub.
func Convert_apps_Deployment_To_v1beta1_Deployment(in *apps.Deployment, out *Deployment) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	s := &in.Spec
	replicas := s.Replicas
	out.Spec = DeploymentSpec{
		Replicas:                &replicas,
		Selector:                deepcopy.Copy(s.Selector),
		Template:                deepcopy.Copy(s.Template),
		Strategy:                DeploymentStrategy{Type: DeploymentStrategyType(s.Strategy.Type)},
		MinReadySeconds:         s.MinReadySeconds,
		RevisionHistoryLimit:    deepcopy.Copy(s.RevisionHistoryLimit),
		Paused:                  s.Paused,
		ProgressDeadlineSeconds: deepcopy.Copy(s.ProgressDeadlineSeconds),
	}
	if ru := s.Strategy.RollingUpdate; ru != nil {
		mu, ms := ru.MaxUnavailable, ru.MaxSurge
		out.Spec.Strategy.RollingUpdate = &RollingUpdateDeployment{MaxUnavailable: &mu, MaxSurge: &ms}
	}
	if s.RollbackTo != nil {
		out.Spec.RollbackTo = &RollbackConfig{Revision: s.RollbackTo.Revision}
	}
	convertStatusFromInternal(&in.Status, &out.Status)
	return nil
}
