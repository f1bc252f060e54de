package managedfields

import (
	"errors"
	"fmt"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/apis/validation"
)

// This file is the bridge from client-side to server-side apply. A
// client-side `kubectl apply` keeps what it applied in the
// last-applied-configuration annotation and writes with merge patches,
// which record Update entries ("kubectl-client-side-apply"). When the same
// user then runs `kubectl apply --server-side` (manager "kubectl"), the
// fields the annotation still describes truly are theirs: conflicts on
// them are not conflicts, and the annotation keeps following what is
// applied, so that a later client-side apply still works.

// LastAppliedConfigAnnotation holds what client-side apply applied last.
const LastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// lastAppliedManager is the only manager whose applies migrate: others
// opt out by naming themselves.
const lastAppliedManager = "kubectl"

// applyMigratingLastApplied applies; for kubectl it forgives conflicts on
// fields the last-applied annotation owns, then brings the annotation up
// to date with what was applied.
//
// Mirrors lastAppliedUpdater.Apply around lastAppliedManager.Apply
// (internal/lastappliedupdater.go, internal/lastappliedmanager.go).
func (f *FieldManager) applyMigratingLastApplied(live, applied *unstructured.Unstructured, managed *Managed, manager string, force bool) (*unstructured.Unstructured, *Managed, error) {
	obj, out, err := f.apply(live, applied, managed, manager, force)
	if manager == lastAppliedManager && err != nil {
		var conflicts merge.Conflicts
		if errors.As(err, &conflicts) {
			obj, out, err = f.forgiveLastAppliedConflicts(live, applied, managed, conflicts, err)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	if manager == lastAppliedManager && hasLastApplied(obj) {
		value, err := buildLastApplied(applied)
		if err != nil {
			return nil, nil, fmt.Errorf("failed to build last-applied annotation: %v", err)
		}
		setLastApplied(obj, value)
	}
	return obj, out, nil
}

// forgiveLastAppliedConflicts applies again with force if every conflict
// is on a field the annotation owns; else the conflicts it does not own
// stand.
//
// Mirrors (*lastAppliedManager).Apply.
func (f *FieldManager) forgiveLastAppliedConflicts(live, applied *unstructured.Unstructured, managed *Managed, conflicts merge.Conflicts, err error) (*unstructured.Unstructured, *Managed, error) {
	allowed, aerr := f.allowedConflictsFromLastApplied(live)
	if aerr != nil {
		return nil, nil, err
	}
	if !conflicts.ToSet().Difference(allowed).Empty() {
		return nil, nil, conflictsDifference(conflicts, allowed)
	}
	return f.apply(live, applied, managed, lastAppliedManager, true)
}

// allowedConflictsFromLastApplied is the set of fields the annotation
// describes with the value live has: those client-side apply set and
// nobody changed since.
//
// Mirrors (*lastAppliedManager).allowedConflictsFromLastApplied.
func (f *FieldManager) allowedConflictsFromLastApplied(live *unstructured.Unstructured) (*fieldpath.Set, error) {
	raw := live.GetAnnotations()[LastAppliedConfigAnnotation]
	if raw == "" {
		return nil, errors.New("no last applied annotation")
	}
	liveTyped, err := f.tc.ObjectToTyped(live)
	if err != nil {
		return nil, fmt.Errorf("failed to convert live obj to typed: %v", err)
	}
	m, err := unstructured.DecodeJSONObject([]byte(raw))
	if err != nil {
		return nil, fmt.Errorf("failed to decode last applied obj: %v in '%s'", err, raw)
	}
	last := &unstructured.Unstructured{Object: m}
	if last.GetAPIVersion() != string(f.apiVersion) {
		return nil, fmt.Errorf("expected version of last applied to match live object '%s', but got '%s'", f.apiVersion, last.GetAPIVersion())
	}
	lastTyped, err := f.tc.ObjectToTyped(last)
	if err != nil {
		return nil, fmt.Errorf("failed to convert last applied to typed: %v", err)
	}
	set, err := lastTyped.ToFieldSet()
	if err != nil {
		return nil, fmt.Errorf("failed to create fieldset for last applied object: %v", err)
	}
	cmp, err := lastTyped.Compare(liveTyped)
	if err != nil {
		return nil, fmt.Errorf("failed to compare last applied object and live object: %v", err)
	}
	// Fields whose value changed, or that appeared or went since, are no
	// longer what client-side apply set.
	return set.Difference(cmp.Modified).Difference(cmp.Added).Difference(cmp.Removed), nil
}

func hasLastApplied(obj *unstructured.Unstructured) bool {
	return obj.GetAnnotations()[LastAppliedConfigAnnotation] != ""
}

// buildLastApplied is the annotation's new value: the applied
// configuration without the annotation, as kubectl writes it (JSON and a
// newline).
//
// Mirrors buildLastApplied in internal/lastappliedupdater.go.
func buildLastApplied(applied *unstructured.Unstructured) (string, error) {
	obj := applied.DeepCopy()
	if a := obj.GetAnnotations(); a != nil {
		delete(a, LastAppliedConfigAnnotation)
		obj.SetAnnotations(a)
	}
	b, err := obj.MarshalJSON()
	if err != nil {
		return "", fmt.Errorf("couldn't encode object into last applied annotation: %v", err)
	}
	return string(b) + "\n", nil
}

// setLastApplied sets the annotation, or drops it if the annotations
// would then be too large.
//
// Mirrors SetLastApplied in internal/lastapplied.go.
func setLastApplied(obj *unstructured.Unstructured, value string) {
	a := obj.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	a[LastAppliedConfigAnnotation] = value
	size := 0
	for k, v := range a {
		size += len(k) + len(v)
	}
	if size > validation.TotalAnnotationSizeLimitB {
		delete(a, LastAppliedConfigAnnotation)
	}
	obj.SetAnnotations(a)
}
