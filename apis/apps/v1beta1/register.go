package v1beta1

import (
	"github.com/crdlab/crdlab/apis/apps"
	"github.com/crdlab/crdlab/scheme"
)

// SchemeGroupVersion is apps/v1beta1.
var SchemeGroupVersion = scheme.GroupVersion{Group: apps.GroupName, Version: "v1beta1"}

// AddToScheme registers the v1beta1 Deployment, its conversions to and
// from the hub, and its defaults.
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &Deployment{}, &DeploymentList{})
	s.AddConversionFunc((*Deployment)(nil), (*apps.Deployment)(nil), func(in, out scheme.Object) error {
		return Convert_v1beta1_Deployment_To_apps_Deployment(in.(*Deployment), out.(*apps.Deployment))
	})
	s.AddConversionFunc((*apps.Deployment)(nil), (*Deployment)(nil), func(in, out scheme.Object) error {
		return Convert_apps_Deployment_To_v1beta1_Deployment(in.(*apps.Deployment), out.(*Deployment))
	})
	s.AddConversionFunc((*DeploymentList)(nil), (*apps.DeploymentList)(nil), func(in, out scheme.Object) error {
		l, o := in.(*DeploymentList), out.(*apps.DeploymentList)
		o.ListMeta, o.Items = l.ListMeta, make([]apps.Deployment, len(l.Items))
		for i := range l.Items {
			if err := Convert_v1beta1_Deployment_To_apps_Deployment(&l.Items[i], &o.Items[i]); err != nil {
				return err
			}
		}
		return nil
	})
	s.AddConversionFunc((*apps.DeploymentList)(nil), (*DeploymentList)(nil), func(in, out scheme.Object) error {
		l, o := in.(*apps.DeploymentList), out.(*DeploymentList)
		o.ListMeta, o.Items = l.ListMeta, make([]Deployment, len(l.Items))
		for i := range l.Items {
			if err := Convert_apps_Deployment_To_v1beta1_Deployment(&l.Items[i], &o.Items[i]); err != nil {
				return err
			}
		}
		return nil
	})
	s.AddTypeDefaultingFunc((*Deployment)(nil), func(obj scheme.Object) { SetObjectDefaults_Deployment(obj.(*Deployment)) })
	s.AddTypeDefaultingFunc((*DeploymentList)(nil), func(obj scheme.Object) {
		for i := range obj.(*DeploymentList).Items {
			SetObjectDefaults_Deployment(&obj.(*DeploymentList).Items[i])
		}
	})
	return nil
}
