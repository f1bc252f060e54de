package nonstructuralschema

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/informer/workqueue"
	"github.com/crdlab/crdlab/machinery/clock"
)

// upstreamSync is the upstream function sync mirrors, named in traces.
const upstreamSync = "k8s.io/apiextensions-apiserver/pkg/controller/nonstructuralschema.(*ConditionController).sync"

// ConditionController keeps the NonStructuralSchema condition of every
// CRD in step with its schemas.
//
// Mirrors ConditionController in
// k8s.io/apiextensions-apiserver/pkg/controller/nonstructuralschema/nonstructuralschema_controller.go.
type ConditionController struct {
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

	lastSeenMu sync.Mutex // guards lastSeenGeneration
	// lastSeenGeneration holds, by CRD name, the generation last written:
	// a CRD at that generation or older is not looked at again.
	lastSeenGeneration map[string]int64
}

// NewConditionController returns a controller fed by crdInformer's events
// (it registers its handlers now: call it before the informer starts).
//
// Mirrors NewConditionController.
func NewConditionController(crdInformer informer.SharedIndexInformer, crdClient controller.CRDClient, opts controller.Options) (*ConditionController, error) {
	opts = opts.WithDefaults("nonstructuralschema")
	c := &ConditionController{
		crdClient:          crdClient,
		crdLister:          controller.NewCRDLister(crdInformer),
		crdSynced:          crdInformer.HasSynced,
		queue:              controller.NewQueue[string]("non_structural_schema_condition_controller", opts),
		log:                opts.Logger,
		clock:              opts.Clock,
		opts:               opts,
		lastSeenGeneration: map[string]int64{},
	}
	c.syncFn = c.sync
	if _, err := crdInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { c.enqueue(obj) },
		UpdateFunc: func(_, newObj any) { c.enqueue(newObj) },
		DeleteFunc: c.deleteCustomResourceDefinition,
	}); err != nil {
		return nil, fmt.Errorf("nonstructuralschema controller: %w", err)
	}
	return c, nil
}

// calculateCondition returns the NonStructuralSchema condition in should
// have, or nil if every schema is structural.
//
// Mirrors calculateCondition in nonstructuralschema_controller.go.
func calculateCondition(in *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinitionCondition {
	cond := &apiextensionsv1.CustomResourceDefinitionCondition{
		Type:   apiextensionsv1.NonStructuralSchema,
		Status: apiextensionsv1.ConditionUnknown,
	}
	var allErrs []string
	if in.Spec.PreserveUnknownFields {
		allErrs = append(allErrs, "spec.preserveUnknownFields: Invalid value: true: must be false")
	}
	for i, v := range in.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		raw, err := json.Marshal(v.Schema.OpenAPIV3Schema)
		if err == nil {
			var s *structural.Structural
			if s, err = structural.FromJSON(raw); err == nil {
				path := field.NewPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema")
				for _, e := range structural.ValidateStructural(path, s) {
					allErrs = append(allErrs, e.Error())
				}
				continue
			}
		}
		cond.Reason = "StructuralError"
		cond.Message = fmt.Sprintf("failed to check validation schema for version %s: %v", v.Name, err)
		return cond
	}
	if len(allErrs) == 0 {
		return nil
	}
	cond.Status = apiextensionsv1.ConditionTrue
	cond.Reason = "Violations"
	// As upstream's field.ErrorList.ToAggregate().Error().
	cond.Message = allErrs[0]
	if len(allErrs) > 1 {
		cond.Message = "[" + strings.Join(allErrs, ", ") + "]"
	}
	return cond
}

// sync writes (or removes) the condition of one CRD if it changed.
//
// Mirrors (*ConditionController).sync.
func (c *ConditionController) sync(ctx context.Context, key string) error {
	inCRD, err := c.crdLister.Get(key)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}

	// Each generation (spec) is looked at once.
	c.lastSeenMu.Lock()
	lastSeen, seenBefore := c.lastSeenGeneration[inCRD.Name]
	c.lastSeenMu.Unlock()
	if seenBefore && inCRD.Generation <= lastSeen {
		return nil
	}

	cond := calculateCondition(inCRD)
	old := helpers.FindCRDCondition(inCRD, apiextensionsv1.NonStructuralSchema)
	if cond == nil && old == nil {
		return nil
	}
	if cond != nil && old != nil && old.Status == cond.Status && old.Reason == cond.Reason && old.Message == cond.Message {
		return nil
	}

	crd := inCRD.DeepCopy()
	if cond == nil {
		helpers.RemoveCRDCondition(crd, apiextensionsv1.NonStructuralSchema)
	} else {
		helpers.SetCRDConditionAt(crd, *cond, c.clock.Now())
	}
	updated, err := c.crdClient.UpdateStatus(ctx, crd, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		// Deleted or changed meanwhile: we are called again.
		return nil
	}
	if err != nil {
		return err
	}
	c.opts.TraceStatus(updated, upstreamSync, "", apiextensionsv1.NonStructuralSchema)

	c.lastSeenMu.Lock()
	defer c.lastSeenMu.Unlock()
	c.lastSeenGeneration[crd.Name] = crd.Generation
	return nil
}

// Run waits for the CRD informer to sync, then runs workers workers until
// ctx ends.
//
// Mirrors (*ConditionController).Run.
func (c *ConditionController) Run(ctx context.Context, workers int) {
	defer c.queue.ShutDown()
	c.log.Info("starting NonStructuralSchemaConditionController")
	defer c.log.Info("shutting down NonStructuralSchemaConditionController")

	if !informer.WaitForCacheSync(ctx, c.crdSynced) {
		return
	}
	controller.RunWorkers(ctx, c.queue, workers, c.processNextWorkItem)
}

// processNextWorkItem handles one key off the queue. It returns false
// when the queue is shut down.
func (c *ConditionController) processNextWorkItem(ctx context.Context) bool {
	return controller.ProcessNextWorkItem(ctx, c.queue, c.syncFn, c.opts, upstreamSync)
}

func (c *ConditionController) enqueue(obj any) {
	if crd, ok := controller.CRDFromObject(obj); ok {
		c.queue.Add(crd.Name)
	}
}

// deleteCustomResourceDefinition forgets a deleted CRD's generation, so a
// CRD re-created under the same name (generation 1 again) is checked.
func (c *ConditionController) deleteCustomResourceDefinition(obj any) {
	crd, ok := controller.CRDFromObject(obj)
	if !ok {
		return
	}
	c.lastSeenMu.Lock()
	defer c.lastSeenMu.Unlock()
	delete(c.lastSeenGeneration, crd.Name)
}
