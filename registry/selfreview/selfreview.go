package selfreview

import (
	"context"

	"github.com/crdlab/crdlab/apis/authentication"
	"github.com/crdlab/crdlab/apis/authorization"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
)

// AccessReviewFunc answers whether the request's user may do what spec
// describes (exactly one of its attributes is set).
type AccessReviewFunc func(ctx context.Context, spec *authorization.SelfSubjectAccessReviewSpec) (authorization.SubjectAccessReviewStatus, error)

// RulesReviewFunc lists what the request's user may do in namespace.
type RulesReviewFunc func(ctx context.Context, namespace string) (authorization.SubjectRulesReviewStatus, error)

// WhoAmIFunc returns the request's user.
type WhoAmIFunc func(ctx context.Context) (authentication.UserInfo, error)

var (
	_ registry.Creater = (*AccessReviewREST)(nil)
	_ registry.Creater = (*RulesReviewREST)(nil)
	_ registry.Creater = (*SubjectReviewREST)(nil)
)

// AccessReviewREST is the storage of selfsubjectaccessreviews.
//
// Mirrors REST in pkg/registry/authorization/selfsubjectaccessreview.
type AccessReviewREST struct{ Review AccessReviewFunc }

func (r *AccessReviewREST) New() scheme.Object    { return &authorization.SelfSubjectAccessReview{} }
func (r *AccessReviewREST) Destroy()              {}
func (r *AccessReviewREST) NamespaceScoped() bool { return false }

// Create validates the review and fills its status with the authorizer's
// decision.
func (r *AccessReviewREST) Create(ctx context.Context, obj scheme.Object, validate registry.ValidateObjectFunc, _ *metav1.CreateOptions) (scheme.Object, error) {
	sar, ok := obj.(*authorization.SelfSubjectAccessReview)
	if !ok {
		return nil, apierrors.NewBadRequest("not a SelfSubjectAccessReview")
	}
	if errs := authorization.ValidateSelfSubjectAccessReview(sar); len(errs) > 0 {
		return nil, registry.NewInvalid(authorization.Kind("SelfSubjectAccessReview"), "", errs)
	}
	if validate != nil {
		if err := validate(ctx, obj.DeepCopyObject()); err != nil {
			return nil, err
		}
	}
	status, err := r.Review(ctx, &sar.Spec)
	if err != nil {
		return nil, err
	}
	sar.Status = status
	return sar, nil
}

// RulesReviewREST is the storage of selfsubjectrulesreviews.
//
// Mirrors REST in pkg/registry/authorization/selfsubjectrulesreview.
type RulesReviewREST struct{ Rules RulesReviewFunc }

func (r *RulesReviewREST) New() scheme.Object    { return &authorization.SelfSubjectRulesReview{} }
func (r *RulesReviewREST) Destroy()              {}
func (r *RulesReviewREST) NamespaceScoped() bool { return false }

// Create fills the review's status with the rules of its namespace; a
// review without a namespace is a 400, as upstream.
func (r *RulesReviewREST) Create(ctx context.Context, obj scheme.Object, validate registry.ValidateObjectFunc, _ *metav1.CreateOptions) (scheme.Object, error) {
	ssrr, ok := obj.(*authorization.SelfSubjectRulesReview)
	if !ok {
		return nil, apierrors.NewBadRequest("not a SelfSubjectRulesReview")
	}
	if ssrr.Spec.Namespace == "" {
		return nil, apierrors.NewBadRequest("no namespace on request")
	}
	if validate != nil {
		if err := validate(ctx, obj.DeepCopyObject()); err != nil {
			return nil, err
		}
	}
	status, err := r.Rules(ctx, ssrr.Spec.Namespace)
	if err != nil {
		return nil, err
	}
	// The answer is the status alone: upstream returns a new review
	// without the spec (or metadata) that was sent.
	return &authorization.SelfSubjectRulesReview{Status: status}, nil
}

// SubjectReviewREST is the storage of selfsubjectreviews.
//
// Mirrors REST in pkg/registry/authentication/selfsubjectreview.
type SubjectReviewREST struct{ WhoAmI WhoAmIFunc }

func (r *SubjectReviewREST) New() scheme.Object    { return &authentication.SelfSubjectReview{} }
func (r *SubjectReviewREST) Destroy()              {}
func (r *SubjectReviewREST) NamespaceScoped() bool { return false }

// Create answers with the request's user; a review is created with a
// creationTimestamp, as upstream.
func (r *SubjectReviewREST) Create(ctx context.Context, obj scheme.Object, validate registry.ValidateObjectFunc, _ *metav1.CreateOptions) (scheme.Object, error) {
	if _, ok := obj.(*authentication.SelfSubjectReview); !ok {
		return nil, apierrors.NewBadRequest("not a SelfSubjectReview")
	}
	if validate != nil {
		if err := validate(ctx, obj.DeepCopyObject()); err != nil {
			return nil, err
		}
	}
	u, err := r.WhoAmI(ctx)
	if err != nil {
		return nil, err
	}
	return &authentication.SelfSubjectReview{
		ObjectMeta: metav1.ObjectMeta{CreationTimestamp: metav1.Now()},
		Status:     authentication.SelfSubjectReviewStatus{UserInfo: u},
	}, nil
}
