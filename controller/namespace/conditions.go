package namespace

import (
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client/discovery"
)

// The conditions the deleter keeps on a deleted namespace. Each is True
// with a reason saying what is wrong, or False with the "ok" reason and
// message below once it is not.
//
// Mirrors conditionTypes, okMessages and okReasons in
// k8s.io/kubernetes/pkg/controller/namespace/deletion/status_condition_utils.go.
var (
	conditionTypes = []corev1.NamespaceConditionType{
		nsDeletionDiscoveryFailure,
		nsDeletionGVParsingFailure,
		nsDeletionContentFailure,
		nsContentRemaining,
		nsFinalizersRemaining,
	}
	okMessages = map[corev1.NamespaceConditionType]string{
		nsDeletionDiscoveryFailure: "All resources successfully discovered",
		nsDeletionGVParsingFailure: "All legacy kube types successfully parsed",
		nsDeletionContentFailure:   "All content successfully deleted, may be waiting on finalization",
		nsContentRemaining:         "All content successfully removed",
		nsFinalizersRemaining:      "All content-preserving finalizers finished",
	}
	okReasons = map[corev1.NamespaceConditionType]string{
		nsDeletionDiscoveryFailure: "ResourcesDiscovered",
		nsDeletionGVParsingFailure: "ParsedGroupVersions",
		nsDeletionContentFailure:   "ContentDeleted",
		nsContentRemaining:         "ContentRemoved",
		nsFinalizersRemaining:      "ContentHasNoFinalizers",
	}
)

// namespaceConditionUpdater collects what one pass of deleteAllContent
// found and turns it into the namespace's conditions.
//
// Mirrors namespaceConditionUpdater.
type namespaceConditionUpdater struct {
	now                 func() time.Time
	newConditions       []corev1.NamespaceCondition
	deleteContentErrors []error
}

func (u *namespaceConditionUpdater) condition(t corev1.NamespaceConditionType, status metav1.ConditionStatus, reason, message string) corev1.NamespaceCondition {
	return corev1.NamespaceCondition{Type: t, Status: status, LastTransitionTime: metav1.NewTime(u.now()), Reason: reason, Message: message}
}

// ProcessGroupVersionErr records that a group version did not parse.
func (u *namespaceConditionUpdater) ProcessGroupVersionErr(err error) {
	u.newConditions = append(u.newConditions, u.condition(nsDeletionGVParsingFailure, metav1.ConditionTrue, "GroupVersionParsingFailed", err.Error()))
}

// ProcessDiscoverResourcesErr records that discovery failed (for some
// groups, or all).
func (u *namespaceConditionUpdater) ProcessDiscoverResourcesErr(err error) {
	msg := err.Error()
	if derr, ok := err.(*discovery.ErrGroupDiscoveryFailed); ok {
		msg = fmt.Sprintf("Discovery failed for some groups, %d failing: %v", len(derr.Groups), err)
	}
	u.newConditions = append(u.newConditions, u.condition(nsDeletionDiscoveryFailure, metav1.ConditionTrue, "DiscoveryFailed", msg))
}

// ProcessContentTotals records what remains: how many objects of which
// resources, and which finalizers hold them.
func (u *namespaceConditionUpdater) ProcessContentTotals(totals allGVRDeletionMetadata) {
	if len(totals.gvrToNumRemaining) != 0 {
		var remaining []string
		for gvr, n := range totals.gvrToNumRemaining {
			if n > 0 {
				remaining = append(remaining, fmt.Sprintf("%s.%s has %d resource instances", gvr.Resource, gvr.Group, n))
			}
		}
		sort.Strings(remaining)
		u.newConditions = append(u.newConditions, u.condition(nsContentRemaining, metav1.ConditionTrue, "SomeResourcesRemain",
			"Some resources are remaining: "+strings.Join(remaining, ", ")))
	}
	if len(totals.finalizersToNumRemaining) != 0 {
		var byFinalizer []string
		for f, n := range totals.finalizersToNumRemaining {
			if n > 0 {
				byFinalizer = append(byFinalizer, fmt.Sprintf("%s in %d resource instances", f, n))
			}
		}
		sort.Strings(byFinalizer)
		u.newConditions = append(u.newConditions, u.condition(nsFinalizersRemaining, metav1.ConditionTrue, "SomeFinalizersRemain",
			"Some content in the namespace has finalizers remaining: "+strings.Join(byFinalizer, ", ")))
	}
}

// ProcessDeleteContentErr records that deleting one resource's objects
// failed.
func (u *namespaceConditionUpdater) ProcessDeleteContentErr(err error) {
	u.deleteContentErrors = append(u.deleteContentErrors, err)
}

// Update writes the collected conditions into ns's status (each type not
// reported wrong gets its "ok" form) and reports whether anything changed.
//
// Mirrors (*namespaceConditionUpdater).Update and updateConditions.
func (u *namespaceConditionUpdater) Update(ns *corev1.Namespace) (changed bool) {
	if getCondition(u.newConditions, nsDeletionContentFailure) == nil && len(u.deleteContentErrors) > 0 {
		msgs := make([]string, 0, len(u.deleteContentErrors))
		for _, e := range u.deleteContentErrors {
			msgs = append(msgs, e.Error())
		}
		sort.Strings(msgs)
		u.newConditions = append(u.newConditions, u.condition(nsDeletionContentFailure, metav1.ConditionTrue, "ContentDeletionFailed",
			fmt.Sprintf("Failed to delete all resource types, %d remaining: %v", len(msgs), strings.Join(msgs, ", "))))
	}
	for _, t := range conditionTypes {
		c := getCondition(u.newConditions, t)
		if c == nil {
			ok := u.condition(t, metav1.ConditionFalse, okReasons[t], okMessages[t])
			c = &ok
		}
		old := getCondition(ns.Status.Conditions, t)
		switch {
		case old == nil:
			ns.Status.Conditions = append(ns.Status.Conditions, *c)
			changed = true
		case old.Status != c.Status || old.Reason != c.Reason || old.Message != c.Message:
			if old.Status != c.Status {
				old.LastTransitionTime = c.LastTransitionTime
			}
			old.Status, old.Reason, old.Message = c.Status, c.Reason, c.Message
			changed = true
		}
	}
	return changed
}

func getCondition(conditions []corev1.NamespaceCondition, t corev1.NamespaceConditionType) *corev1.NamespaceCondition {
	for i := range conditions {
		if conditions[i].Type == t {
			return &conditions[i]
		}
	}
	return nil
}
