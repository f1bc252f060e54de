package handler

import (
	"testing"

	autoscalingv1 "github.com/crdlab/crdlab/apis/autoscaling/v1"
	"github.com/crdlab/crdlab/handler/internal/check"
	"github.com/crdlab/crdlab/scheme"
)

type fakeScaleStorage struct{}

func (fakeScaleStorage) New() scheme.Object { return &autoscalingv1.Scale{} }
func (fakeScaleStorage) Destroy()           {}

// TestNewScaleScope_EncodeResult: the /scale scope is made from a custom
// resource scope, whose in-place encoder only takes custom resources; the
// Scale a registry call returns must not reach it (kubectl scale got a 500
// "expected a custom resource, got *v1.Scale").
func TestNewScaleScope_EncodeResult(t *testing.T) {
	cr := &crCodec{kind: scheme.GroupVersionKind{Group: "stable.example.com", Version: "v1", Kind: "CronTab"},
		storageGV: scheme.GroupVersion{Group: "stable.example.com", Version: "v1"}}
	s := newScaleScope(&requestScope{encode: cr.encode, encodeOwned: cr.encodeOwned}, fakeScaleStorage{})
	in := &autoscalingv1.Scale{Spec: autoscalingv1.ScaleSpec{Replicas: 3}}
	out, err := s.encodeResult(in)
	check.NoError(t, err)
	scale, ok := out.(*autoscalingv1.Scale)
	check.True(t, ok, out)
	check.Equal(t, int32(3), scale.Spec.Replicas)
	check.Equal(t, "Scale", scale.Kind)
	check.Equal(t, "autoscaling/v1", scale.APIVersion)
}
