package coordination

import (
	"testing"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

func TestValidateLease(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	str := func(v string) *string { return &v }
	for _, tc := range []struct {
		name string
		spec LeaseSpec
		want int
	}{
		{"OK", LeaseSpec{HolderIdentity: str("a"), LeaseDurationSeconds: i32(15), LeaseTransitions: i32(0)}, 0},
		{"ErrZeroDuration", LeaseSpec{LeaseDurationSeconds: i32(0)}, 1},
		{"ErrNegativeTransitions", LeaseSpec{LeaseTransitions: i32(-1)}, 1},
		{"ErrPreferredHolderWithoutStrategy", LeaseSpec{PreferredHolder: str("b")}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &Lease{ObjectMeta: metav1.ObjectMeta{Name: "l", Namespace: "kube-system"}, Spec: tc.spec}
			if errs := ValidateLease(l); len(errs) != tc.want {
				t.Errorf("got %v, want %d errors", errs, tc.want)
			}
		})
	}
}
