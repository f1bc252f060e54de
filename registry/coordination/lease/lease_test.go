package lease_test

import (
	"context"
	"testing"

	"github.com/crdlab/crdlab/apis/coordination"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/coordination/lease"
	"github.com/crdlab/crdlab/registry/internal/registrytest"
	"github.com/crdlab/crdlab/scheme"
)

// Two candidates read the same Lease; the first update wins, the second
// gets a Conflict — the property client-go's LeaseLock relies on.
func TestREST_OneWinner(t *testing.T) {
	s, opts := registrytest.Options(t, scheme.GroupVersion{Group: coordination.GroupName, Version: "v1"})
	rest, err := lease.NewREST(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := registry.WithNamespace(context.Background(), "kube-system")
	str := func(s string) *string { return &s }
	d := int32(15)
	// A PUT of a missing Lease creates it.
	obj, created, err := rest.Update(ctx, "leader", registrytest.Replace(&coordination.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: "leader", Namespace: "kube-system"},
		Spec:       coordination.LeaseSpec{HolderIdentity: str("a"), LeaseDurationSeconds: &d},
	}), nil, nil, false, nil)
	if err != nil || !created {
		t.Fatalf("create on update: created=%v err=%v", created, err)
	}
	read := obj.(*coordination.Lease)
	take := func(holder string) error {
		l := read.DeepCopyObject().(*coordination.Lease)
		l.Spec.HolderIdentity = str(holder)
		_, _, err := rest.Update(ctx, "leader", registrytest.Replace(l), nil, nil, false, nil)
		return err
	}
	if err := take("b"); err != nil {
		t.Fatal(err)
	}
	if err := take("c"); !apierrors.IsConflict(err) {
		t.Errorf("second taker: err = %v, want Conflict", err)
	}
	t.Run("ErrUnconditionalUpdate", func(t *testing.T) {
		l := read.DeepCopyObject().(*coordination.Lease)
		l.ResourceVersion = ""
		if _, _, err := rest.Update(ctx, "leader", registrytest.Replace(l), nil, nil, false, nil); !apierrors.IsInvalid(err) {
			t.Errorf("err = %v, want Invalid (resourceVersion must be specified)", err)
		}
	})
}
