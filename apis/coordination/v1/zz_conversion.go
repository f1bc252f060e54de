// Code written by hand in the shape of upstream's generated
// zz_generated.conversion.go and zz_generated.deepcopy.go: field-for-field
// copies. Nothing to learn here; skip it.

package v1

import (
	"github.com/crdlab/crdlab/apis/coordination"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

func Convert_v1_Lease_To_coordination_Lease(in *Lease, out *coordination.Lease) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	s := deepcopy.Copy(in.Spec)
	out.Spec = coordination.LeaseSpec{
		HolderIdentity: s.HolderIdentity, LeaseDurationSeconds: s.LeaseDurationSeconds,
		AcquireTime: s.AcquireTime, RenewTime: s.RenewTime, LeaseTransitions: s.LeaseTransitions,
		Strategy: (*coordination.CoordinatedLeaseStrategy)(s.Strategy), PreferredHolder: s.PreferredHolder,
	}
	return nil
}

func Convert_coordination_Lease_To_v1_Lease(in *coordination.Lease, out *Lease) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	s := deepcopy.Copy(in.Spec)
	out.Spec = LeaseSpec{
		HolderIdentity: s.HolderIdentity, LeaseDurationSeconds: s.LeaseDurationSeconds,
		AcquireTime: s.AcquireTime, RenewTime: s.RenewTime, LeaseTransitions: s.LeaseTransitions,
		Strategy: (*CoordinatedLeaseStrategy)(s.Strategy), PreferredHolder: s.PreferredHolder,
	}
	return nil
}

// RegisterConversions adds every conversion of this package to s.
func RegisterConversions(s *scheme.Scheme) {
	scheme.AddConversion(s, Convert_v1_Lease_To_coordination_Lease)
	scheme.AddConversion(s, Convert_coordination_Lease_To_v1_Lease)
	scheme.AddConversion(s, func(in *LeaseList, out *coordination.LeaseList) (err error) {
		out.ListMeta = in.ListMeta
		out.Items, err = scheme.ConvertSlice(in.Items, Convert_v1_Lease_To_coordination_Lease)
		return err
	})
	scheme.AddConversion(s, func(in *coordination.LeaseList, out *LeaseList) (err error) {
		out.ListMeta = in.ListMeta
		out.Items, err = scheme.ConvertSlice(in.Items, Convert_coordination_Lease_To_v1_Lease)
		return err
	})
}

func (in *Lease) DeepCopyObject() scheme.Object     { return deepcopy.Copy(in) }
func (in *LeaseList) DeepCopyObject() scheme.Object { return deepcopy.Copy(in) }
