package managedfields

import (
	"errors"
	"fmt"
	"maps"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/scheme"
)

// DefaultMaxUpdateManagers is how many Update entries an object keeps:
// past it, the oldest are merged into one "ancient-changes" entry per
// apiVersion.
//
// Mirrors DefaultMaxUpdateManagers in util/managedfields/internal/fieldmanager.go.
const DefaultMaxUpdateManagers = 10

// The manager names the field manager writes itself.
const (
	// beforeFirstApplyManager owns what an object held before its first
	// apply, if it had no managedFields then.
	beforeFirstApplyManager = "before-first-apply"
	// ancientChangesManager holds the oldest Update entries once there
	// are more than DefaultMaxUpdateManagers.
	ancientChangesManager = "ancient-changes"
	// currentOperation names the write being recorded while its field set
	// is computed, before it joins its manager's entry.
	currentOperation = "current-operation"
)

// Config says what a FieldManager manages.
type Config struct {
	// TypeConverter types the objects. Required.
	TypeConverter TypeConverter
	// Kind is the kind and version of the objects the FieldManager is
	// given (a request's). Required.
	Kind scheme.GroupVersionKind
	// Subresource is "", "status" or "scale": entries record it, and a
	// subresource write never takes managedFields from its body.
	Subresource string
	// Converter converts an object to another version of its kind, to
	// compare it with entries written in that version. Nil rewrites
	// apiVersion only (a CRD's None conversion strategy); a version the
	// TypeConverter has no type for drops its entries.
	Converter ObjectConverter
	// ResetFields are, per apiVersion, fields the write's strategy
	// resets (status on the main resource, spec and metadata on
	// /status): nobody becomes their owner through this FieldManager.
	ResetFields map[fieldpath.APIVersion]*fieldpath.Set
	// Now returns the time written into entries; nil is time.Now.
	Now func() time.Time
}

// ObjectConverter returns obj in apiVersion. It must not change obj (the
// result may share parts of it).
type ObjectConverter func(obj *unstructured.Unstructured, apiVersion string) (*unstructured.Unstructured, error)

// FieldManager keeps metadata.managedFields of one kind, in one version
// and one subresource, and merges server-side applies. It holds no
// mutable state: one FieldManager serves concurrent requests.
//
// Upstream builds it as a chain of Managers, each wrapping the next
// (NewDefaultFieldManager); here Update and Apply walk the same steps in
// order, each step naming the Manager it mirrors.
//
// Mirrors FieldManager in k8s.io/apimachinery/pkg/util/managedfields
// (internal/fieldmanager.go) with the chain of NewDefaultFieldManager.
type FieldManager struct {
	tc          TypeConverter
	gvk         scheme.GroupVersionKind
	apiVersion  fieldpath.APIVersion
	subresource string
	updater     merge.Updater
	now         func() time.Time
	stripSet    *fieldpath.Set
}

// New returns a FieldManager for cfg.
//
// Mirrors NewDefaultCRDFieldManager in util/managedfields/fieldmanager.go.
func New(cfg Config) (*FieldManager, error) {
	if cfg.TypeConverter == nil {
		return nil, errors.New("managedfields: a TypeConverter is required")
	}
	if cfg.Kind.Kind == "" || cfg.Kind.Version == "" {
		return nil, fmt.Errorf("managedfields: kind %v lacks a version or a kind", cfg.Kind)
	}
	convert := cfg.Converter
	if convert == nil {
		convert = rewriteAPIVersion
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return &FieldManager{
		tc:          cfg.TypeConverter,
		gvk:         cfg.Kind,
		apiVersion:  fieldpath.APIVersion(cfg.Kind.GroupVersion().String()),
		subresource: cfg.Subresource,
		updater: merge.Updater{
			Converter:    &versionConverter{tc: cfg.TypeConverter, convert: convert},
			IgnoreFilter: fieldpath.NewExcludeFilterSetMap(cfg.ResetFields),
		},
		now:      now,
		stripSet: stripSet,
	}, nil
}

// stripSet are the fields nobody owns: apiVersion, kind, and the metadata
// the server sets.
//
// Mirrors NewStripMetaManager in internal/stripmeta.go.
var stripSet = fieldpath.NewSet(
	fieldpath.MakePathOrDie("apiVersion"),
	fieldpath.MakePathOrDie("kind"),
	fieldpath.MakePathOrDie("metadata"),
	fieldpath.MakePathOrDie("metadata", "name"),
	fieldpath.MakePathOrDie("metadata", "namespace"),
	fieldpath.MakePathOrDie("metadata", "creationTimestamp"),
	fieldpath.MakePathOrDie("metadata", "selfLink"),
	fieldpath.MakePathOrDie("metadata", "uid"),
	fieldpath.MakePathOrDie("metadata", "clusterName"),
	fieldpath.MakePathOrDie("metadata", "generation"),
	fieldpath.MakePathOrDie("metadata", "managedFields"),
	fieldpath.MakePathOrDie("metadata", "resourceVersion"),
)

// NewEmptyObject returns the empty object a create starts from: only
// apiVersion and kind.
func (f *FieldManager) NewEmptyObject() *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(f.gvk)
	return u
}

// Update records a write that is not an apply (create, update, JSON or
// merge patch, a /status or /scale write): the fields obj sets or changes
// relative to live become manager's, taken from whoever owned them. live
// is the stored object (NewEmptyObject for a create) and is not changed;
// obj is changed and returned with its new managedFields.
//
// Which entries obj starts from: its own managedFields if it brings valid
// ones (a client may rewrite them), live's if it brings none or invalid
// ones (so clients unaware of the field never strip it); an empty list,
// or a list of one empty entry, drops them all. A subresource write
// always starts from live's.
//
// Mirrors (*FieldManager).Update and decodeLiveOrNew in internal/fieldmanager.go.
func (f *FieldManager) Update(live, obj *unstructured.Unstructured, manager string) (*unstructured.Unstructured, error) {
	managed := f.decodeLiveOrNew(live, obj)
	obj.SetManagedFields(nil)
	managed, err := f.update(live, obj, managed, manager)
	if err != nil {
		return nil, err
	}
	if err := encode(obj, managed); err != nil {
		return nil, fmt.Errorf("failed to encode managed fields: %v", err)
	}
	return obj, nil
}

// UpdateNoErrors is Update that never fails: on an error obj keeps live's
// managedFields, so that a write is never refused for its bookkeeping.
//
// Mirrors (*FieldManager).UpdateNoErrors.
func (f *FieldManager) UpdateNoErrors(live, obj *unstructured.Unstructured, manager string) *unstructured.Unstructured {
	out, err := f.Update(live, obj, manager)
	if err != nil {
		obj.SetManagedFields(live.GetManagedFields())
		return obj
	}
	return out
}

func (f *FieldManager) decodeLiveOrNew(live, obj *unstructured.Unstructured) *Managed {
	if f.subresource == "" {
		entries := obj.GetManagedFields()
		if isResetManagedFields(entries) {
			return newEmptyManaged()
		}
		if m, err := DecodeManagedFields(entries); err == nil && len(m.Fields) > 0 {
			return m
		}
	}
	m, err := DecodeManagedFields(live.GetManagedFields())
	if err != nil {
		return newEmptyManaged()
	}
	return m
}

// update is the Update half of upstream's chain, from the Manager that
// decides whether to track at all inwards.
func (f *FieldManager) update(live, obj *unstructured.Unstructured, managed *Managed, manager string) (*Managed, error) {
	// skipNonAppliedManager: an object that has no entries and is not
	// being created stays untracked until its first apply (someone reset
	// them, or it predates field management).
	if len(managed.Fields) == 0 && live.GetUID() != "" {
		return managed, nil
	}
	managed, err := f.updateTracked(live, obj, managed, manager)
	if err != nil {
		return nil, err
	}
	// capManagersManager: at most DefaultMaxUpdateManagers Update entries.
	return capUpdateManagers(managed, DefaultMaxUpdateManagers)
}

// updateTracked records one Update by manager.
func (f *FieldManager) updateTracked(live, obj *unstructured.Unstructured, managed *Managed, manager string) (*Managed, error) {
	// buildManagerInfoManager: the entry's identifier.
	id, err := f.managerID(manager, metav1.ManagedFieldsOperationUpdate)
	if err != nil {
		return nil, err
	}
	// managedFieldsUpdater: compute what this write changed as
	// "current-operation" …
	managed, err = f.structuredUpdate(live, obj, managed, currentOperation)
	if err != nil {
		return nil, err
	}
	// stripMetaManager: … without the fields nobody owns …
	f.strip(managed, currentOperation)
	// … and if it changed anything, add it to the manager's entry and
	// stamp the time.
	if vs, ok := managed.Fields[currentOperation]; ok {
		delete(managed.Fields, currentOperation)
		if prev, ok := managed.Fields[id]; ok {
			managed.Fields[id] = fieldpath.NewVersionedSet(vs.Set().Union(prev.Set()), vs.APIVersion(), vs.Applied())
		} else {
			managed.Fields[id] = vs
		}
		managed.Times[id] = f.timeNow()
	}
	return managed, nil
}

// structuredUpdate asks the merge engine who owns what after obj replaces
// live: manager gets what changed, others lose it.
//
// Mirrors (*structuredMergeManager).Update in internal/structuredmerge.go.
func (f *FieldManager) structuredUpdate(live, obj *unstructured.Unstructured, managed *Managed, manager string) (*Managed, error) {
	newTyped, err := f.tc.ObjectToTyped(obj, typed.AllowDuplicates)
	if err != nil {
		return nil, fmt.Errorf("failed to convert new object (%v) to smd typed: %v", describe(obj), err)
	}
	liveTyped, err := f.tc.ObjectToTyped(live, typed.AllowDuplicates)
	if err != nil {
		return nil, fmt.Errorf("failed to convert live object (%v) to smd typed: %v", describe(live), err)
	}
	_, fields, err := f.updater.Update(liveTyped, newTyped, f.apiVersion, managed.Fields, manager)
	if err != nil {
		return nil, fmt.Errorf("failed to update ManagedFields (%v): %v", describe(obj), err)
	}
	return &Managed{Fields: fields, Times: managed.Times}, nil
}

// Apply merges a server-side apply of applied by manager into live and
// returns the result, with its managedFields: applied's fields become
// manager's; a field another manager owns with another value is a
// conflict (a 409 naming each), unless force takes it over; fields
// manager applied last time and leaves out now are removed, unless
// another manager owns them. live is not changed.
//
// applied must be in the FieldManager's version and bring no
// managedFields (400 otherwise). The result is not defaulted or
// validated: the caller decodes it as any other body.
//
// Mirrors (*FieldManager).Apply and the Apply of upstream's chain.
func (f *FieldManager) Apply(live, applied *unstructured.Unstructured, manager string, force bool) (*unstructured.Unstructured, error) {
	managed, err := DecodeManagedFields(live.GetManagedFields())
	if err != nil {
		return nil, fmt.Errorf("failed to decode managed fields: %v", err)
	}
	// versionCheckManager.
	if gvk := applied.GroupVersionKind(); gvk != f.gvk {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid object type: %v", gvk))
	}
	// lastAppliedUpdater and lastAppliedManager (lastapplied.go): kubectl's
	// move from client-side apply.
	obj, managed, err := f.applyMigratingLastApplied(live, applied, managed, manager, force)
	if err != nil {
		var conflicts merge.Conflicts
		if errors.As(err, &conflicts) {
			return nil, NewConflictError(conflicts)
		}
		return nil, err
	}
	if err := encode(obj, managed); err != nil {
		return nil, fmt.Errorf("failed to encode managed fields: %v", err)
	}
	return obj, nil
}

// apply is the Apply half of upstream's chain, from the Manager that
// starts tracking inwards. managed is not changed.
func (f *FieldManager) apply(live, applied *unstructured.Unstructured, managed *Managed, manager string, force bool) (*unstructured.Unstructured, *Managed, error) {
	managed = managed.clone()
	// skipNonAppliedManager: the first apply to an object without entries
	// gives what it holds to "before-first-apply", so that the applier
	// meets conflicts rather than silently taking it all.
	if len(managed.Fields) == 0 {
		var err error
		managed, err = f.updateTracked(f.NewEmptyObject(), live, managed, beforeFirstApplyManager)
		if err != nil {
			return nil, nil, fmt.Errorf("failed to create manager for existing fields: %v", err)
		}
		if managed, err = capUpdateManagers(managed, DefaultMaxUpdateManagers); err != nil {
			return nil, nil, err
		}
	}
	// buildManagerInfoManager.
	id, err := f.managerID(manager, metav1.ManagedFieldsOperationApply)
	if err != nil {
		return nil, nil, err
	}
	obj, managed, err := f.structuredApply(live, applied, managed, id, force)
	if err != nil {
		return nil, nil, err
	}
	// stripMetaManager.
	f.strip(managed, id)
	// managedFieldsUpdater: an apply that changed the object stamps the
	// time; one that changed nothing returns live as it is.
	if obj != nil {
		managed.Times[id] = f.timeNow()
	} else {
		obj = live.DeepCopy()
		obj.SetManagedFields(nil)
	}
	return obj, managed, nil
}

// structuredApply merges applied into live with the merge engine: the
// merged object (nil if nothing changed) and the new ownership.
//
// Mirrors (*structuredMergeManager).Apply in internal/structuredmerge.go.
func (f *FieldManager) structuredApply(live, applied *unstructured.Unstructured, managed *Managed, manager string, force bool) (*unstructured.Unstructured, *Managed, error) {
	if gv := applied.GroupVersionKind().GroupVersion(); gv != f.gvk.GroupVersion() {
		return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("Incorrect version specified in apply patch. Specified patch version: %s, expected: %s",
			gv, f.gvk.GroupVersion()))
	}
	if applied.GetManagedFields() != nil {
		return nil, nil, apierrors.NewBadRequest("metadata.managedFields must be nil")
	}
	// Duplicates are refused in what is applied, tolerated in what is
	// stored.
	appliedTyped, err := f.tc.ObjectToTyped(applied)
	if err != nil {
		// Upstream answers a plain error here, which becomes a 500; the
		// input is the client's, so crdlab answers 400.
		return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("failed to create typed patch object (%v): %v", describe(applied), err))
	}
	liveTyped, err := f.tc.ObjectToTyped(live, typed.AllowDuplicates)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to create typed live object (%v): %v", describe(live), err)
	}
	newTyped, fields, err := f.updater.Apply(liveTyped, appliedTyped, f.apiVersion, managed.Fields, manager, force)
	if err != nil {
		return nil, nil, err
	}
	managed = &Managed{Fields: fields, Times: managed.Times}
	if newTyped == nil {
		return nil, managed, nil
	}
	obj, err := f.tc.TypedToObject(newTyped)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to convert new typed object (%v) to object: %v", describe(applied), err)
	}
	return obj, managed, nil
}

// managerID is the identifier of manager's entry for op, in this
// FieldManager's version and subresource ("unknown" if manager is "").
//
// Mirrors buildManagerInfo in internal/buildmanagerinfo.go.
func (f *FieldManager) managerID(manager string, op metav1.ManagedFieldsOperationType) (string, error) {
	if manager == "" {
		manager = "unknown"
	}
	id, err := BuildManagerIdentifier(&metav1.ManagedFieldsEntry{
		Manager: manager, Operation: op, APIVersion: string(f.apiVersion), Subresource: f.subresource,
	})
	if err != nil {
		return "", fmt.Errorf("failed to build manager identifier: %v", err)
	}
	return id, nil
}

// strip removes from manager's set the fields nobody owns, and the entry
// if nothing is left.
//
// Mirrors (*stripMetaManager).stripFields.
func (f *FieldManager) strip(managed *Managed, manager string) {
	vs, ok := managed.Fields[manager]
	if !ok {
		return
	}
	s := vs.Set().Difference(f.stripSet)
	if s.Empty() {
		delete(managed.Fields, manager)
		return
	}
	managed.Fields[manager] = fieldpath.NewVersionedSet(s, vs.APIVersion(), vs.Applied())
}

func (f *FieldManager) timeNow() *metav1.Time {
	return &metav1.Time{Time: f.now().UTC()}
}

// clone copies m's maps (the versioned sets themselves are never changed
// in place).
func (m *Managed) clone() *Managed {
	return &Managed{Fields: maps.Clone(m.Fields), Times: maps.Clone(m.Times)}
}

// encode writes managed into obj's metadata.managedFields.
//
// Mirrors EncodeObjectManagedFields.
func encode(obj *unstructured.Unstructured, managed *Managed) error {
	entries, err := EncodeManagedFields(managed)
	if err != nil {
		return err
	}
	obj.SetManagedFields(entries)
	return nil
}

// describe names an object in errors: "ns/name; group/version, Kind=K".
func describe(obj *unstructured.Unstructured) string {
	ns, name := obj.GetNamespace(), obj.GetName()
	gvk := obj.GroupVersionKind()
	return fmt.Sprintf("%v/%v; %s, Kind=%s", ns, name, gvk.GroupVersion().String(), gvk.Kind)
}
