package managedfields

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// NewConflictError turns the merge engine's conflicts into the 409 a
// client sees: one FieldManagerConflict cause per field, naming the
// manager that owns it ("conflict with \"kubectl\"", field ".spec.replicas"),
// and upstream's message, which kubectl prints.
//
// Mirrors NewConflictError in util/managedfields/internal/conflict.go.
func NewConflictError(conflicts merge.Conflicts) *apierrors.StatusError {
	causes := make([]metav1.StatusCause, 0, len(conflicts))
	for _, c := range conflicts {
		causes = append(causes, metav1.StatusCause{
			Type:    metav1.CauseTypeFieldManagerConflict,
			Message: fmt.Sprintf("conflict with %v", printManager(c.Manager)),
			Field:   c.Path.String(),
		})
	}
	return apierrors.NewApplyConflict(causes, conflictMessage(conflicts))
}

// conflictMessage is "Apply failed with 1 conflict: conflict with "m": .spec.x",
// or for several, the fields grouped under each manager (sorted).
func conflictMessage(conflicts merge.Conflicts) string {
	if len(conflicts) == 1 {
		return fmt.Sprintf("Apply failed with 1 conflict: conflict with %v: %v", printManager(conflicts[0].Manager), conflicts[0].Path)
	}
	byManager := map[string][]fieldpath.Path{}
	for _, c := range conflicts {
		byManager[c.Manager] = append(byManager[c.Manager], c.Path)
	}
	managers := make([]string, 0, len(byManager))
	for m := range byManager {
		managers = append(managers, m)
	}
	sort.Strings(managers)
	var lines []string
	for _, m := range managers {
		lines = append(lines, fmt.Sprintf("conflicts with %v:", printManager(m)))
		for _, p := range byManager[m] {
			lines = append(lines, fmt.Sprintf("- %v", p))
		}
	}
	return fmt.Sprintf("Apply failed with %d conflicts: %s", len(conflicts), strings.Join(lines, "\n"))
}

// printManager names a manager identifier for people: "kubectl", with
// `with subresource "status"`, and for an updater `using v1` (and `at`
// its time).
//
// Mirrors printManager in conflict.go.
func printManager(id string) string {
	var e metav1.ManagedFieldsEntry
	if err := json.Unmarshal([]byte(id), &e); err != nil {
		return fmt.Sprintf("%q", id)
	}
	s := fmt.Sprintf("%q", e.Manager)
	if e.Subresource != "" {
		s = fmt.Sprintf("%s with subresource %q", s, e.Subresource)
	}
	if e.Operation == metav1.ManagedFieldsOperationUpdate {
		if e.Time == nil {
			return fmt.Sprintf("%s using %v", s, e.APIVersion)
		}
		return fmt.Sprintf("%s using %v at %v", s, e.APIVersion, e.Time.UTC().Format(time.RFC3339))
	}
	return s
}

// conflictsDifference mirrors the helper of the same name in
// lastappliedmanager.go.
func conflictsDifference(conflicts merge.Conflicts, s *fieldpath.Set) merge.Conflicts {
	out := merge.Conflicts{}
	for _, c := range conflicts {
		if !s.Has(c.Path) {
			out = append(out, c)
		}
	}
	return out
}
