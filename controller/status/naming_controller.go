package status

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/informer/workqueue"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/machinery/clock"
)

// upstreamSync is the upstream function sync mirrors, named in traces.
const upstreamSync = "k8s.io/apiextensions-apiserver/pkg/controller/status.(*NamingConditionController).sync"

// NamingConditionController computes status.acceptedNames and the
// NamesAccepted condition of every CRD. It reserves names: its workers
// decide one at a time (decideMu), and the names a status write on its
// way holds are taken for every other decision until the write is
// answered (inFlight), so that two workers never hand one name to two
// CRDs.
//
// Mirrors NamingConditionController in
// k8s.io/apiextensions-apiserver/pkg/controller/status/naming_controller.go.
type NamingConditionController struct {
	crdClient controller.CRDClient

	crdLister *controller.CRDLister
	// crdIndexer is the informer's cache, with controller.GroupIndex.
	crdIndexer informer.Indexer
	crdSynced  informer.InformerSynced
	// crdMutationCache holds the accepted names this controller wrote
	// that the informer may not have delivered yet (see doc.go).
	crdMutationCache *mutationCache

	// decideMu makes the workers' decisions one at a time: each reads
	// the group's names, decides, and records its write in inFlight
	// before the next reads them. The writes themselves, the slow part,
	// run side by side.
	decideMu sync.Mutex
	// inFlight holds, by CRD name, the accepted names of the status
	// writes sent and not yet answered. Guarded by decideMu.
	inFlight map[string]apiextensionsv1.CustomResourceDefinitionNames

	// syncFn is sync; tests replace it to watch the queue alone.
	syncFn func(ctx context.Context, key string) error

	// queue holds CRD names.
	queue workqueue.RateLimitingInterface[string]
	log   *slog.Logger
	clock clock.Clock
	// opts are the defaulted Options; ProcessNextWorkItem and the traces
	// read them.
	opts controller.Options
}

// NewNamingConditionController returns a controller fed by crdInformer's
// events (it registers its handlers now: call it before the informer
// starts) that writes through crdClient.
//
// Mirrors NewNamingConditionController.
func NewNamingConditionController(crdInformer informer.SharedIndexInformer, crdClient controller.CRDClient, opts controller.Options) (*NamingConditionController, error) {
	opts = opts.WithDefaults("naming")
	if err := controller.AddGroupIndex(crdInformer); err != nil {
		return nil, fmt.Errorf("naming controller: %w", err)
	}
	c := &NamingConditionController{
		crdClient:        crdClient,
		crdLister:        controller.NewCRDLister(crdInformer),
		crdIndexer:       crdInformer.GetIndexer(),
		crdSynced:        crdInformer.HasSynced,
		crdMutationCache: newMutationCache(),
		inFlight:         map[string]apiextensionsv1.CustomResourceDefinitionNames{},
		queue:            controller.NewQueue[string]("crd_naming_condition_controller", opts),
		log:              opts.Logger,
		clock:            opts.Clock,
		opts:             opts,
	}
	c.syncFn = c.sync
	// Every change of any CRD may free or take a name: queue it. The sync
	// of a CRD whose names are settled returns at once.
	if _, err := crdInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { c.enqueue(obj) },
		UpdateFunc: func(_, newObj any) { c.enqueue(newObj) },
		DeleteFunc: c.enqueue,
	}); err != nil {
		return nil, fmt.Errorf("naming controller: %w", err)
	}
	return c, nil
}

// Run waits for the CRD informer to sync, then handles the queue with
// workers workers until ctx ends. Upstream starts exactly one, and its
// decisions read the group's names with no lock; here decideMu and
// inFlight make more than one safe (see sync).
//
// Mirrors (*NamingConditionController).Run.
func (c *NamingConditionController) Run(ctx context.Context, workers int) {
	defer c.queue.ShutDown()
	c.log.Info("starting NamingConditionController")
	defer c.log.Info("shutting down NamingConditionController")

	if !informer.WaitForCacheSync(ctx, c.crdSynced) {
		return
	}
	controller.RunWorkers(ctx, c.queue, max(workers, 1), c.processNextWorkItem)
}

// processNextWorkItem handles one key off the queue. It returns false
// when the queue is shut down.
//
// Mirrors (*NamingConditionController).processNextWorkItem.
func (c *NamingConditionController) processNextWorkItem(ctx context.Context) bool {
	return controller.ProcessNextWorkItem(ctx, c.queue, c.syncFn, c.opts, upstreamSync)
}

// sync brings one CRD's accepted names and NamesAccepted condition up to
// date with its requested names and the rest of its group.
//
// Upstream's sync is one function; here it is cut in two around the
// status write. decide reads and decides under decideMu, and records the
// names it is about to write in inFlight; the write goes out with no lock
// held; settle takes the names out of inFlight again (into the mutation
// cache if the write went through). While a write is on its way, its CRD
// holds both its old accepted names (the informer's copy) and the new
// ones: another worker can take neither, and a CRD turned away for them
// is queued again once the write is answered, as upstream queues the
// group after every write. With one worker this is upstream's sync.
//
// Mirrors (*NamingConditionController).sync.
func (c *NamingConditionController) sync(ctx context.Context, key string) error {
	crd, err := c.decide(key)
	if crd == nil || err != nil {
		return err
	}
	updated, err := c.crdClient.UpdateStatus(ctx, crd, metav1.UpdateOptions{})
	c.settle(key, updated, err)
	if err == nil {
		c.opts.TraceStatus(updated, upstreamSync, "", apiextensionsv1.NamesAccepted, apiextensionsv1.Established)
	}
	// We may have released a name (a rename), or, if the write failed,
	// turned another CRD away for a name this one never took: re-kick
	// the group.
	requeueErr := c.requeueAllOtherGroupCRDs(key)
	// Deleted or changed meanwhile (404, 409): the informer brings the
	// new state and we are called again.
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		return err
	}
	return requeueErr
}

// decide reads key's CRD and its group's names under decideMu and returns
// the CRD to write, with the accepted names and conditions it should
// have, after recording those names in inFlight; or nil if there is
// nothing to write.
func (c *NamingConditionController) decide(key string) (*apiextensionsv1.CustomResourceDefinition, error) {
	c.decideMu.Lock()
	defer c.decideMu.Unlock()

	inCRD, err := c.crdLister.Get(key)
	if apierrors.IsNotFound(err) {
		// The CRD was deleted and has freed its names: reconsider the
		// other CRDs of its group.
		c.crdMutationCache.forget(key)
		return nil, c.requeueAllOtherGroupCRDs(key)
	}
	if err != nil {
		return nil, err
	}

	// Names settled: nothing to decide.
	if namesEqual(inCRD.Spec.Names, inCRD.Status.AcceptedNames) {
		return nil, nil
	}

	allResources, allKinds, err := c.getAcceptedNamesForGroup(inCRD.Spec.Group)
	if err != nil {
		return nil, err
	}
	acceptedNames, namingCondition, establishedCondition := calculateNamesAndConditions(inCRD, allResources, allKinds)

	// Nothing to write if neither the accepted names nor NamesAccepted
	// changed.
	if namesEqual(inCRD.Status.AcceptedNames, acceptedNames) &&
		helpers.IsCRDConditionEquivalent(&namingCondition, helpers.FindCRDCondition(inCRD, apiextensionsv1.NamesAccepted)) {
		return nil, nil
	}

	crd := controller.CopyForStatus(inCRD)
	crd.Status.AcceptedNames = acceptedNames
	now := c.clock.Now()
	helpers.SetCRDConditionAt(crd, namingCondition, now)
	helpers.SetCRDConditionAt(crd, establishedCondition, now)
	c.inFlight[key] = acceptedNames
	return crd, nil
}

// settle ends key's write: its names leave inFlight, and if the write
// went through (updated), the mutation cache remembers them until the
// informer catches up, so the next decision in this group sees the names
// this CRD just took. Both under decideMu, so that no decision sees the
// names in neither.
func (c *NamingConditionController) settle(key string, updated *apiextensionsv1.CustomResourceDefinition, err error) {
	c.decideMu.Lock()
	defer c.decideMu.Unlock()
	delete(c.inFlight, key)
	if err == nil {
		c.crdMutationCache.mutation(updated)
	}
}

// getAcceptedNamesForGroup returns the resource names (plurals, singulars,
// short names) and the kinds (kinds, list kinds) the CRDs of group have
// been given, the CRD being synced included, and those that status writes
// on their way will give them (inFlight). It reads the group's CRDs from
// the group index (upstream lists every CRD and skips the other groups').
// The caller holds decideMu.
//
// Mirrors (*NamingConditionController).getAcceptedNamesForGroup.
func (c *NamingConditionController) getAcceptedNamesForGroup(group string) (allResources, allKinds map[string]bool, err error) {
	list, err := controller.CRDsOfGroup(c.crdIndexer, group)
	if err != nil {
		return nil, nil, err
	}
	allResources, allKinds = map[string]bool{}, map[string]bool{}
	for _, curr := range list {
		// Prefer what we just wrote, if the cache has not caught up: this
		// is what lets one worker sync a group in a tight loop.
		addNames(allResources, allKinds, c.crdMutationCache.acceptedNames(curr))
		if held, ok := c.inFlight[curr.Name]; ok {
			addNames(allResources, allKinds, held)
		}
	}
	return allResources, allKinds, nil
}

// addNames adds names' resource names and kinds to the sets.
func addNames(allResources, allKinds map[string]bool, names apiextensionsv1.CustomResourceDefinitionNames) {
	allResources[names.Plural] = true
	allResources[names.Singular] = true
	for _, s := range names.ShortNames {
		allResources[s] = true
	}
	allKinds[names.Kind] = true
	allKinds[names.ListKind] = true
}

// calculateNamesAndConditions decides, for in, which requested names are
// accepted given the names the group has handed out (allResources,
// allKinds), and the NamesAccepted and Established conditions that
// follow. A name that conflicts keeps its old accepted value; the others
// move on, so the status is the best match possible.
//
// Mirrors (*NamingConditionController).calculateNamesAndConditions, with
// the group's names passed in so it is a pure function.
func calculateNamesAndConditions(in *apiextensionsv1.CustomResourceDefinition, allResources, allKinds map[string]bool) (
	apiextensionsv1.CustomResourceDefinitionNames, apiextensionsv1.CustomResourceDefinitionCondition, apiextensionsv1.CustomResourceDefinitionCondition) {
	namesAcceptedCondition := apiextensionsv1.CustomResourceDefinitionCondition{
		Type:   apiextensionsv1.NamesAccepted,
		Status: apiextensionsv1.ConditionUnknown,
	}
	conflict := func(reason string, err error) {
		namesAcceptedCondition.Status = apiextensionsv1.ConditionFalse
		namesAcceptedCondition.Reason = reason
		namesAcceptedCondition.Message = err.Error()
	}

	requestedNames := in.Spec.Names
	acceptedNames := in.Status.AcceptedNames
	newNames := in.Status.AcceptedNames

	// Check each name; on a mismatch between spec and status try to take
	// the requested one. Go on after a conflict, so every name that can
	// move does.
	if err := equalToAcceptedOrFresh(requestedNames.Plural, acceptedNames.Plural, allResources); err != nil {
		conflict("PluralConflict", err)
	} else {
		newNames.Plural = requestedNames.Plural
	}
	if err := equalToAcceptedOrFresh(requestedNames.Singular, acceptedNames.Singular, allResources); err != nil {
		conflict("SingularConflict", err)
	} else {
		newNames.Singular = requestedNames.Singular
	}
	if !slices.Equal(requestedNames.ShortNames, acceptedNames.ShortNames) {
		var errs []string
		for _, shortName := range requestedNames.ShortNames {
			// A short name this CRD already holds is fine.
			if slices.Contains(acceptedNames.ShortNames, shortName) {
				continue
			}
			if err := equalToAcceptedOrFresh(shortName, "", allResources); err != nil {
				errs = append(errs, err.Error())
			}
		}
		if len(errs) > 0 {
			conflict("ShortNamesConflict", aggregate(errs))
		} else {
			newNames.ShortNames = requestedNames.ShortNames
		}
	}
	if err := equalToAcceptedOrFresh(requestedNames.Kind, acceptedNames.Kind, allKinds); err != nil {
		conflict("KindConflict", err)
	} else {
		newNames.Kind = requestedNames.Kind
	}
	if err := equalToAcceptedOrFresh(requestedNames.ListKind, acceptedNames.ListKind, allKinds); err != nil {
		conflict("ListKindConflict", err)
	} else {
		newNames.ListKind = requestedNames.ListKind
	}
	// Categories are not reserved: any number of resources share one.
	newNames.Categories = requestedNames.Categories

	if namesAcceptedCondition.Status == apiextensionsv1.ConditionUnknown {
		namesAcceptedCondition.Status = apiextensionsv1.ConditionTrue
		namesAcceptedCondition.Reason = "NoConflicts"
		namesAcceptedCondition.Message = "no conflicts found"
	}

	// Established starts False here and is turned True by the
	// establishing controller, which sees NamesAccepted arrive through the
	// shared informer — by then the crdHandler (fed by the same informer)
	// serves the endpoint. Setting True here would race the handler.
	establishedCondition := apiextensionsv1.CustomResourceDefinitionCondition{
		Type:    apiextensionsv1.Established,
		Status:  apiextensionsv1.ConditionFalse,
		Reason:  "NotAccepted",
		Message: "not all names are accepted",
	}
	if old := helpers.FindCRDCondition(in, apiextensionsv1.Established); old != nil {
		establishedCondition = *old
	}
	if establishedCondition.Status != apiextensionsv1.ConditionTrue && namesAcceptedCondition.Status == apiextensionsv1.ConditionTrue {
		establishedCondition = apiextensionsv1.CustomResourceDefinitionCondition{
			Type:    apiextensionsv1.Established,
			Status:  apiextensionsv1.ConditionFalse,
			Reason:  "Installing",
			Message: "the initial names have been accepted",
		}
	}
	return newNames, namesAcceptedCondition, establishedCondition
}

// equalToAcceptedOrFresh accepts requestedName if the CRD already holds it
// or nobody in the group does.
//
// Mirrors equalToAcceptedOrFresh.
func equalToAcceptedOrFresh(requestedName, acceptedName string, usedNames map[string]bool) error {
	if requestedName == acceptedName || !usedNames[requestedName] {
		return nil
	}
	return fmt.Errorf("%q is already in use", requestedName)
}

// aggregate renders several error messages as upstream's
// utilerrors.NewAggregate does: the message alone, or "[a, b]".
func aggregate(msgs []string) error {
	if len(msgs) == 1 {
		return fmt.Errorf("%s", msgs[0])
	}
	return fmt.Errorf("[%s]", strings.Join(msgs, ", "))
}

// namesEqual compares two sets of names, a nil and an empty list being
// equal (upstream compares with equality.Semantic, which treats them so).
func namesEqual(a, b apiextensionsv1.CustomResourceDefinitionNames) bool {
	return a.Plural == b.Plural && a.Singular == b.Singular && a.Kind == b.Kind && a.ListKind == b.ListKind &&
		slices.Equal(a.ShortNames, b.ShortNames) && slices.Equal(a.Categories, b.Categories)
}

// enqueue queues the CRD an event is about.
func (c *NamingConditionController) enqueue(obj any) {
	crd, ok := controller.CRDFromObject(obj)
	if !ok {
		c.log.Error("unexpected object in CRD event", "type", fmt.Sprintf("%T", obj))
		return
	}
	c.queue.Add(crd.Name)
}

// requeueAllOtherGroupCRDs queues the other CRDs of the group of the CRD
// named name ("<plural>.<group>") whose names are not settled: a name
// this CRD freed may be what they wait for. Upstream queues every other
// CRD of the group; the sync of one whose names are settled returns at
// once, so leaving those out changes nothing but the cost (a provider's
// group of hundreds of CRDs made every write queue hundreds of syncs).
//
// Mirrors (*NamingConditionController).requeueAllOtherGroupCRDs.
func (c *NamingConditionController) requeueAllOtherGroupCRDs(name string) error {
	_, group, ok := strings.Cut(name, ".")
	if !ok {
		return nil // not a valid CRD name: no group to re-kick
	}
	list, err := controller.CRDsOfGroup(c.crdIndexer, group)
	if err != nil {
		return err
	}
	for _, curr := range list {
		if curr.Name != name && !namesEqual(curr.Spec.Names, curr.Status.AcceptedNames) {
			c.queue.Add(curr.Name)
		}
	}
	return nil
}

// mutationCache remembers, by name, the accepted names this controller
// last wrote to a CRD, for as long as they are newer than the informer's
// copy of the CRD.
//
// Mirrors the part of client-go's MutationCache
// (NewIntegerResourceVersionMutationCache) the naming controller uses. It
// keeps only what getAcceptedNamesForGroup reads, not the whole CRD:
// upstream's keeps the written object for 60 s, which for a CRD with
// large schemas is hundreds of KB each.
type mutationCache struct {
	mu sync.Mutex // guards byName
	// byName holds a write iff its resourceVersion was newer than the
	// informer's copy of that CRD when last looked at.
	byName map[string]written
}

// written is what a write left: which CRD (UID), at which
// resourceVersion, and the accepted names it set.
type written struct {
	uid   string
	rv    uint64
	names apiextensionsv1.CustomResourceDefinitionNames
}

func newMutationCache() *mutationCache {
	return &mutationCache{byName: map[string]written{}}
}

// mutation records a CRD the server returned from a write. A
// resourceVersion that is not an integer is not recorded (the informer's
// copy then always wins).
func (m *mutationCache) mutation(crd *apiextensionsv1.CustomResourceDefinition) {
	if crd == nil {
		return
	}
	rv, err := strconv.ParseUint(crd.ResourceVersion, 10, 64)
	if err != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.byName[crd.Name] = written{uid: string(crd.UID), rv: rv, names: deepcopy.Copy(crd.Status.AcceptedNames)}
}

// forget drops the entry of a CRD that is gone.
func (m *mutationCache) forget(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.byName, name)
}

// acceptedNames returns the accepted names written to cached's CRD if that
// write is newer than cached, else cached's own (dropping an entry the
// informer has caught up with). resourceVersions are compared as
// integers, which crdlab's store revisions are; if cached's does not
// parse, the informer wins.
func (m *mutationCache) acceptedNames(cached *apiextensionsv1.CustomResourceDefinition) apiextensionsv1.CustomResourceDefinitionNames {
	m.mu.Lock()
	defer m.mu.Unlock()
	w, ok := m.byName[cached.Name]
	if !ok {
		return cached.Status.AcceptedNames
	}
	crv, err := strconv.ParseUint(cached.ResourceVersion, 10, 64)
	if err != nil || w.uid != string(cached.UID) || w.rv <= crv {
		delete(m.byName, cached.Name)
		return cached.Status.AcceptedNames
	}
	return w.names
}
