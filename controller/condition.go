package controller

import (
	"context"
	"fmt"

	"sync"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/informer/workqueue"
)

// Condition describes one CRD condition that a ConditionController keeps
// in step with a function of the CRD.
type Condition struct {
	// Name names the controller in logs and traces ("nonstructuralschema").
	Name string
	// Queue names its workqueue, as upstream names it.
	Queue string
	// Type is the condition the controller owns.
	Type apiextensionsv1.CustomResourceDefinitionConditionType
	// Calculate returns the condition a CRD should have, or nil for none.
	Calculate func(*apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinitionCondition
	// RemoveWhenNone makes a nil from Calculate remove the condition a
	// CRD has; without it such a CRD is left alone.
	RemoveWhenNone bool
	// Input returns what Calculate reads of a CRD that may change (its
	// generation, an annotation). Once the condition is written for an
	// input, the CRD is not looked at again until its input changes.
	Input func(*apiextensionsv1.CustomResourceDefinition) string
	// Upstream names the upstream sync, for traces.
	Upstream string
}

// ConditionController keeps one condition of every CRD in step with
// Condition.Calculate: on every add or update it computes the condition
// the CRD should have and, if that differs from what the CRD has, writes
// it (or removes it) through the /status subresource.
//
// Upstream writes this controller twice, once per condition:
// ConditionController in controller/nonstructuralschema and
// KubernetesAPIApprovalPolicyConformantConditionController in
// controller/apiapproval. Their packages here keep what differs (the
// condition) and build this.
type ConditionController struct {
	cond      Condition
	crdClient CRDClient
	crdLister *CRDLister
	crdSynced informer.InformerSynced

	// queue holds CRD names.
	queue workqueue.RateLimitingInterface[string]
	// opts are the defaulted Options.
	opts Options

	lastSeenMu sync.Mutex // guards lastSeen and calculated
	// lastSeen holds, by CRD name, the Input of the CRD whose condition
	// was last written; a CRD is in it iff the controller wrote its
	// condition and has not seen it deleted since.
	lastSeen map[string]string
	// calculated holds, by CRD name, the last condition Calculate
	// returned and for which CRD (uid) and Input: a CRD's status writes
	// (NamesAccepted, Established) bring it back with the same input, and
	// the condition is compared again without calculating it again.
	// Upstream calculates on every sync (for the NonStructuralSchema
	// condition that is a structural schema of every version each time).
	calculated map[string]calculation
}

// calculation is one result of Condition.Calculate; cond is read only.
type calculation struct {
	uid   string
	input string
	cond  *apiextensionsv1.CustomResourceDefinitionCondition
}

// NewConditionController returns a controller keeping cond, fed by
// crdInformer's events (it registers its handlers now: call it before
// the informer starts).
//
// Mirrors NewConditionController (nonstructuralschema) and
// NewKubernetesAPIApprovalPolicyConformantConditionController.
func NewConditionController(crdInformer informer.SharedIndexInformer, crdClient CRDClient, opts Options, cond Condition) (*ConditionController, error) {
	opts = opts.WithDefaults(cond.Name)
	c := &ConditionController{
		cond:      cond,
		crdClient: crdClient,
		crdLister: NewCRDLister(crdInformer),
		crdSynced: crdInformer.HasSynced,
		queue:     NewQueue[string](cond.Queue, opts),
		opts:      opts,
		lastSeen:  map[string]string{},

		calculated: map[string]calculation{},
	}
	if _, err := crdInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { c.enqueue(obj) },
		UpdateFunc: func(_, newObj any) { c.enqueue(newObj) },
		DeleteFunc: c.forget,
	}); err != nil {
		return nil, fmt.Errorf("%s controller: %w", cond.Name, err)
	}
	return c, nil
}

// Run waits for the CRD informer to sync, then runs workers workers until
// ctx ends.
func (c *ConditionController) Run(ctx context.Context, workers int) {
	defer c.queue.ShutDown()
	c.opts.Logger.Info("starting condition controller", "condition", c.cond.Type)
	defer c.opts.Logger.Info("shutting down condition controller", "condition", c.cond.Type)

	if !informer.WaitForCacheSync(ctx, c.crdSynced) {
		return
	}
	RunWorkers(ctx, c.queue, workers, func(ctx context.Context) bool {
		return ProcessNextWorkItem(ctx, c.queue, c.sync, c.opts, c.cond.Upstream)
	})
}

// sync writes (or removes) the condition of one CRD if it changed.
//
// Mirrors the sync of both upstream controllers.
func (c *ConditionController) sync(ctx context.Context, key string) error {
	inCRD, err := c.crdLister.Get(key)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}

	// Look at each input once.
	input := c.cond.Input(inCRD)
	c.lastSeenMu.Lock()
	lastSeen, seenBefore := c.lastSeen[inCRD.Name]
	c.lastSeenMu.Unlock()
	if seenBefore && input == lastSeen {
		return nil
	}

	cond := c.calculate(inCRD, input)
	old := helpers.FindCRDCondition(inCRD, c.cond.Type)
	switch {
	case cond == nil && (old == nil || !c.cond.RemoveWhenNone):
		return nil
	case cond != nil && old != nil && old.Status == cond.Status && old.Reason == cond.Reason && old.Message == cond.Message:
		return nil
	}

	crd := CopyForStatus(inCRD)
	if cond == nil {
		helpers.RemoveCRDCondition(crd, c.cond.Type)
	} else {
		helpers.SetCRDConditionAt(crd, *cond, c.opts.Clock.Now())
	}
	updated, err := c.crdClient.UpdateStatus(ctx, crd, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		// Deleted or changed meanwhile: the informer brings the newer
		// CRD, and it is synced again.
		return nil
	}
	if err != nil {
		return err
	}
	c.opts.TraceStatus(updated, c.cond.Upstream, "", c.cond.Type)

	c.lastSeenMu.Lock()
	defer c.lastSeenMu.Unlock()
	c.lastSeen[crd.Name] = input
	return nil
}

// calculate returns Calculate(crd), calculated at most once per CRD and
// input. The condition returned is shared: callers copy it.
func (c *ConditionController) calculate(crd *apiextensionsv1.CustomResourceDefinition, input string) *apiextensionsv1.CustomResourceDefinitionCondition {
	uid := string(crd.UID)
	c.lastSeenMu.Lock()
	last, ok := c.calculated[crd.Name]
	c.lastSeenMu.Unlock()
	if ok && last.uid == uid && last.input == input {
		return last.cond
	}
	cond := c.cond.Calculate(crd)
	c.lastSeenMu.Lock()
	c.calculated[crd.Name] = calculation{uid: uid, input: input, cond: cond}
	c.lastSeenMu.Unlock()
	return cond
}

func (c *ConditionController) enqueue(obj any) {
	if crd, ok := CRDFromObject(obj); ok {
		c.queue.Add(crd.Name)
	}
}

// forget drops a deleted CRD's last input, so a CRD re-created under the
// same name is looked at afresh.
func (c *ConditionController) forget(obj any) {
	crd, ok := CRDFromObject(obj)
	if !ok {
		return
	}
	c.lastSeenMu.Lock()
	defer c.lastSeenMu.Unlock()
	delete(c.lastSeen, crd.Name)
	delete(c.calculated, crd.Name)
}
