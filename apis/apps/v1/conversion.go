package v1

import (
	"fmt"
	"strconv"

	"github.com/crdlab/crdlab/apis/apps"
	"github.com/crdlab/crdlab/internal/deepcopy"
)

// Convert_v1_Deployment_To_apps_Deployment converts to the hub.
//
// Upstream rule: the deprecated.deployment.rollback.to annotation becomes
// spec.rollbackTo (and leaves the annotations), so that a v1beta1 object
// that went through v1 comes back whole.
func Convert_v1_Deployment_To_apps_Deployment(in *Deployment, out *apps.Deployment) error {
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
	if revision := in.Annotations[DeprecatedRollbackTo]; revision != "" {
		r, err := strconv.ParseInt(revision, 10, 64)
		if err != nil {
			return fmt.Errorf("failed to parse annotation[%s]=%s as int64: %v", DeprecatedRollbackTo, revision, err)
		}
		out.Spec.RollbackTo = &apps.RollbackConfig{Revision: r}
		delete(out.Annotations, DeprecatedRollbackTo)
		if len(out.Annotations) == 0 {
			out.Annotations = nil
		}
	}
	convertStatusToInternal(&in.Status, &out.Status)
	return nil
}

// Convert_apps_Deployment_To_v1_Deployment converts from the hub.
//
// Upstream rule: v1 has no rollbackTo; a hub rollbackTo is written to the
// deprecated.deployment.rollback.to annotation instead.
func Convert_apps_Deployment_To_v1_Deployment(in *apps.Deployment, out *Deployment) error {
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
		if out.Annotations == nil {
			out.Annotations = map[string]string{}
		}
		out.Annotations[DeprecatedRollbackTo] = strconv.FormatInt(s.RollbackTo.Revision, 10)
	} else if _, ok := out.Annotations[DeprecatedRollbackTo]; ok {
		delete(out.Annotations, DeprecatedRollbackTo)
		if len(out.Annotations) == 0 {
			out.Annotations = nil
		}
	}
	convertStatusFromInternal(&in.Status, &out.Status)
	return nil
}
