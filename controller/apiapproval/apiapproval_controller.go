package apiapproval

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/informer/workqueue"
	"github.com/crdlab/crdlab/machinery/clock"
)

// KubeAPIApprovedAnnotation is the annotation a CRD of a protected group
// must carry.
const KubeAPIApprovedAnnotation = "api-approved.kubernetes.io"

// IsProtectedCommunityGroup reports whether group belongs to the
// Kubernetes project: k8s.io, kubernetes.io or a subdomain of either.
//
// Mirrors apihelpers.IsProtectedCommunityGroup.
func IsProtectedCommunityGroup(group string) bool {
	switch {
	case group == "k8s.io" || strings.HasSuffix(group, ".k8s.io"):
		return true
	case group == "kubernetes.io" || strings.HasSuffix(group, ".kubernetes.io"):
		return true
	}
	return false
}

// APIApprovalState is what the approval annotation says.
//
// Mirrors apihelpers.APIApprovalState.
type APIApprovalState int

const (
	// APIApprovalInvalid: the annotation is neither a URL nor "unapproved…".
	APIApprovalInvalid APIApprovalState = iota
	// APIApproved: the annotation is a URL (the approving pull request).
	APIApproved
	// APIApprovalBypassed: the annotation starts with "unapproved".
	APIApprovalBypassed
	// APIApprovalMissing: there is no annotation.
	APIApprovalMissing
)

// GetAPIApprovalState returns the approval state of a CRD's annotations
// and the message that explains it.
//
// Mirrors apihelpers.GetAPIApprovalState.
func GetAPIApprovalState(annotations map[string]string) (APIApprovalState, string) {
	annotation := annotations[KubeAPIApprovedAnnotation]
	u, parseErr := url.ParseRequestURI(annotation)
	switch {
	case len(annotation) == 0:
		return APIApprovalMissing, fmt.Sprintf("protected groups must have approval annotation %q, see https://github.com/kubernetes/enhancements/pull/1111", KubeAPIApprovedAnnotation)
	case strings.HasPrefix(annotation, "unapproved"):
		return APIApprovalBypassed, fmt.Sprintf("not approved: %q", annotation)
	case parseErr == nil && u != nil && len(u.Host) > 0 && len(u.Scheme) > 0:
		return APIApproved, fmt.Sprintf("approved in %v", annotation)
	default:
		return APIApprovalInvalid, fmt.Sprintf("protected groups must have approval annotation %q with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111", KubeAPIApprovedAnnotation)
	}
}

// upstreamSync is the upstream function sync mirrors, named in traces.
const upstreamSync = "k8s.io/apiextensions-apiserver/pkg/controller/apiapproval.(*KubernetesAPIApprovalPolicyConformantConditionController).sync"

// KubernetesAPIApprovalPolicyConformantConditionController keeps the
// KubernetesAPIApprovalPolicyConformant condition of CRDs in protected
// groups in step with their approval annotation.
//
// Mirrors KubernetesAPIApprovalPolicyConformantConditionController in
// k8s.io/apiextensions-apiserver/pkg/controller/apiapproval/apiapproval_controller.go.
type KubernetesAPIApprovalPolicyConformantConditionController struct {
	crdClient controller.CRDClient

	crdLister *controller.CRDLister
	crdSynced informer.InformerSynced

	// syncFn is sync; tests replace it.
	syncFn func(ctx context.Context, key string) error

	// queue holds CRD names.
	queue workqueue.RateLimitingInterface[string]
	log   *slog.Logger
	clock clock.Clock
	// opts are the defaulted Options; ProcessNextWorkItem and the traces
	// read them.
	opts controller.Options

	lastSeenMu sync.Mutex // guards lastSeenProtectedAnnotation
	// lastSeenProtectedAnnotation holds, by CRD name, the annotation value
	// last written into the condition, so the same value is not
	// recomputed (and, with several servers, not fought over).
	lastSeenProtectedAnnotation map[string]string
}

// NewKubernetesAPIApprovalPolicyConformantConditionController returns a
// controller fed by crdInformer's events (it registers its handlers now:
// call it before the informer starts).
//
// Mirrors NewKubernetesAPIApprovalPolicyConformantConditionController.
func NewKubernetesAPIApprovalPolicyConformantConditionController(crdInformer informer.SharedIndexInformer, crdClient controller.CRDClient, opts controller.Options) (*KubernetesAPIApprovalPolicyConformantConditionController, error) {
	opts = opts.WithDefaults("apiapproval")
	c := &KubernetesAPIApprovalPolicyConformantConditionController{
		crdClient:                   crdClient,
		crdLister:                   controller.NewCRDLister(crdInformer),
		crdSynced:                   crdInformer.HasSynced,
		queue:                       controller.NewQueue[string]("kubernetes_api_approval_conformant_condition_controller", opts),
		log:                         opts.Logger,
		clock:                       opts.Clock,
		opts:                        opts,
		lastSeenProtectedAnnotation: map[string]string{},
	}
	c.syncFn = c.sync
	if _, err := crdInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { c.enqueue(obj) },
		UpdateFunc: func(_, newObj any) { c.enqueue(newObj) },
		DeleteFunc: c.deleteCustomResourceDefinition,
	}); err != nil {
		return nil, fmt.Errorf("apiapproval controller: %w", err)
	}
	return c, nil
}

// calculateCondition returns the condition crd should have, or nil if its
// group is not protected.
//
// Mirrors calculateCondition in apiapproval_controller.go.
func calculateCondition(crd *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinitionCondition {
	if !IsProtectedCommunityGroup(crd.Spec.Group) {
		return nil
	}
	state, message := GetAPIApprovalState(crd.Annotations)
	cond := &apiextensionsv1.CustomResourceDefinitionCondition{
		Type:    apiextensionsv1.KubernetesAPIApprovalPolicyConformant,
		Status:  apiextensionsv1.ConditionFalse,
		Message: message,
	}
	switch state {
	case APIApprovalInvalid:
		cond.Reason = "InvalidAnnotation"
	case APIApprovalMissing:
		cond.Reason = "MissingAnnotation"
	case APIApproved:
		cond.Status, cond.Reason = apiextensionsv1.ConditionTrue, "ApprovedAnnotation"
	case APIApprovalBypassed:
		cond.Reason = "UnapprovedAnnotation"
	default:
		cond.Status, cond.Reason = apiextensionsv1.ConditionUnknown, "UnknownAnnotation"
	}
	return cond
}

// sync writes the condition of one CRD if it changed.
//
// Mirrors (*KubernetesAPIApprovalPolicyConformantConditionController).sync.
func (c *KubernetesAPIApprovalPolicyConformantConditionController) sync(ctx context.Context, key string) error {
	inCRD, err := c.crdLister.Get(key)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}

	// Avoid recomputing for an annotation value already handled.
	annotation := inCRD.Annotations[KubeAPIApprovedAnnotation]
	c.lastSeenMu.Lock()
	lastSeen, seenBefore := c.lastSeenProtectedAnnotation[inCRD.Name]
	c.lastSeenMu.Unlock()
	if seenBefore && annotation == lastSeen {
		return nil
	}

	cond := calculateCondition(inCRD)
	if cond == nil {
		// The group is immutable: a CRD without the condition never needs
		// one removed.
		return nil
	}
	if old := helpers.FindCRDCondition(inCRD, apiextensionsv1.KubernetesAPIApprovalPolicyConformant); old != nil &&
		old.Status == cond.Status && old.Reason == cond.Reason && old.Message == cond.Message {
		return nil
	}

	crd := inCRD.DeepCopy()
	helpers.SetCRDConditionAt(crd, *cond, c.clock.Now())
	updated, err := c.crdClient.UpdateStatus(ctx, crd, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		// Deleted or changed meanwhile: we are called again.
		return nil
	}
	if err != nil {
		return err
	}
	c.opts.TraceStatus(updated, upstreamSync, "", apiextensionsv1.KubernetesAPIApprovalPolicyConformant)

	c.lastSeenMu.Lock()
	defer c.lastSeenMu.Unlock()
	c.lastSeenProtectedAnnotation[crd.Name] = annotation
	return nil
}

// Run waits for the CRD informer to sync, then runs workers workers until
// ctx ends.
//
// Mirrors (*KubernetesAPIApprovalPolicyConformantConditionController).Run.
func (c *KubernetesAPIApprovalPolicyConformantConditionController) Run(ctx context.Context, workers int) {
	defer c.queue.ShutDown()
	c.log.Info("starting KubernetesAPIApprovalPolicyConformantConditionController")
	defer c.log.Info("shutting down KubernetesAPIApprovalPolicyConformantConditionController")

	if !informer.WaitForCacheSync(ctx, c.crdSynced) {
		return
	}
	controller.RunWorkers(ctx, c.queue, workers, c.processNextWorkItem)
}

// processNextWorkItem handles one key off the queue. It returns false
// when the queue is shut down.
func (c *KubernetesAPIApprovalPolicyConformantConditionController) processNextWorkItem(ctx context.Context) bool {
	return controller.ProcessNextWorkItem(ctx, c.queue, c.syncFn, c.opts, upstreamSync)
}

func (c *KubernetesAPIApprovalPolicyConformantConditionController) enqueue(obj any) {
	if crd, ok := controller.CRDFromObject(obj); ok {
		c.queue.Add(crd.Name)
	}
}

// deleteCustomResourceDefinition forgets a deleted CRD's last annotation,
// so a CRD re-created under the same name is checked afresh.
func (c *KubernetesAPIApprovalPolicyConformantConditionController) deleteCustomResourceDefinition(obj any) {
	crd, ok := controller.CRDFromObject(obj)
	if !ok {
		return
	}
	c.lastSeenMu.Lock()
	defer c.lastSeenMu.Unlock()
	delete(c.lastSeenProtectedAnnotation, crd.Name)
}
