package v1

// ListOptions are the query parameters of a list or watch.
type ListOptions struct {
	TypeMeta             `json:",inline"`
	LabelSelector        string               `json:"labelSelector,omitempty"`
	FieldSelector        string               `json:"fieldSelector,omitempty"`
	Watch                bool                 `json:"watch,omitempty"`
	AllowWatchBookmarks  bool                 `json:"allowWatchBookmarks,omitempty"`
	ResourceVersion      string               `json:"resourceVersion,omitempty"`
	ResourceVersionMatch ResourceVersionMatch `json:"resourceVersionMatch,omitempty"`
	TimeoutSeconds       *int64               `json:"timeoutSeconds,omitempty"`
	Limit                int64                `json:"limit,omitempty"`
	Continue             string               `json:"continue,omitempty"`
	SendInitialEvents    *bool                `json:"sendInitialEvents,omitempty"`
}

// ResourceVersionMatch says how a list's resourceVersion is to be read.
type ResourceVersionMatch string

const (
	// ResourceVersionMatchNotOlderThan: any state at least as new as the
	// given resourceVersion.
	ResourceVersionMatchNotOlderThan ResourceVersionMatch = "NotOlderThan"
	// ResourceVersionMatchExact: the state at exactly that resourceVersion.
	ResourceVersionMatchExact ResourceVersionMatch = "Exact"
)

// GetOptions are the query parameters of a get.
type GetOptions struct {
	TypeMeta        `json:",inline"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
}

// Values of the dryRun option and of fieldValidation.
const (
	DryRunAll = "All"

	FieldValidationIgnore = "Ignore"
	FieldValidationWarn   = "Warn"
	FieldValidationStrict = "Strict"
)

// CreateOptions are the query parameters of a create.
type CreateOptions struct {
	TypeMeta        `json:",inline"`
	DryRun          []string `json:"dryRun,omitempty"`
	FieldManager    string   `json:"fieldManager,omitempty"`
	FieldValidation string   `json:"fieldValidation,omitempty"`
}

// UpdateOptions are the query parameters of an update.
type UpdateOptions struct {
	TypeMeta        `json:",inline"`
	DryRun          []string `json:"dryRun,omitempty"`
	FieldManager    string   `json:"fieldManager,omitempty"`
	FieldValidation string   `json:"fieldValidation,omitempty"`
}

// PatchOptions are the query parameters of a patch.
type PatchOptions struct {
	TypeMeta        `json:",inline"`
	DryRun          []string `json:"dryRun,omitempty"`
	Force           *bool    `json:"force,omitempty"`
	FieldManager    string   `json:"fieldManager,omitempty"`
	FieldValidation string   `json:"fieldValidation,omitempty"`
}

// ApplyOptions are what a client says about a server-side apply; they
// travel as the PatchOptions of an application/apply-patch+yaml PATCH.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1.ApplyOptions.
type ApplyOptions struct {
	TypeMeta     `json:",inline"`
	DryRun       []string `json:"dryRun,omitempty"`
	Force        bool     `json:"force"`
	FieldManager string   `json:"fieldManager"`
}

// ToPatchOptions returns the PatchOptions of an apply.
func (o ApplyOptions) ToPatchOptions() PatchOptions {
	return PatchOptions{DryRun: o.DryRun, Force: &o.Force, FieldManager: o.FieldManager}
}

// DeleteOptions may come as a body or as query parameters of a delete.
type DeleteOptions struct {
	TypeMeta           `json:",inline"`
	GracePeriodSeconds *int64               `json:"gracePeriodSeconds,omitempty"`
	Preconditions      *Preconditions       `json:"preconditions,omitempty"`
	OrphanDependents   *bool                `json:"orphanDependents,omitempty"`
	PropagationPolicy  *DeletionPropagation `json:"propagationPolicy,omitempty"`
	DryRun             []string             `json:"dryRun,omitempty"`
}

// Preconditions must hold for a delete (or update) to happen.
type Preconditions struct {
	UID             *UID    `json:"uid,omitempty"`
	ResourceVersion *string `json:"resourceVersion,omitempty"`
}

// DeletionPropagation is Orphan, Background or Foreground.
type DeletionPropagation string

const (
	DeletePropagationOrphan     DeletionPropagation = "Orphan"
	DeletePropagationBackground DeletionPropagation = "Background"
	DeletePropagationForeground DeletionPropagation = "Foreground"
)
