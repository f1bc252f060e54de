package event

import (
	"context"
	"fmt"
	"time"

	"github.com/crdlab/crdlab/apis/core"
	"github.com/crdlab/crdlab/apis/core/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/printers"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// Resource is events in the core group.
var Resource = core.Resource("events")

// DefaultTTL is how long an Event lives after its last write, as
// kube-apiserver's --event-ttl.
const DefaultTTL = time.Hour

// REST is the storage of events.
type REST struct {
	*registry.Store
	printers.TableConvertor
	// TTL is the time to live each write gives an Event.
	TTL time.Duration
}

// NewREST returns the storage of events; ttl ≤ 0 means DefaultTTL.
//
// Mirrors NewREST in pkg/registry/core/event/storage/storage.go.
func NewREST(s *scheme.Scheme, opts registry.StoreOptions, ttl time.Duration) (*REST, error) {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	st := strategy{registry.PlainStrategy{ObjectTyper: s}}
	store := &registry.Store{
		NewFunc:                  func() storage.Object { return &core.Event{} },
		NewListFunc:              func() scheme.Object { return &core.EventList{} },
		DefaultQualifiedResource: Resource,
		CreateStrategy:           st,
		UpdateStrategy:           st,
		DeleteStrategy:           st,
		AttrFunc:                 GetAttrs,
		CheckFieldLabel:          checkFieldLabel,
	}
	if opts.ResourcePrefix == "" {
		opts.ResourcePrefix = "/registry/events"
	}
	opts.TTL = ttl // every write gives the Event ttl to live (storage/ttl.go)
	if err := store.CompleteWithOptions(opts); err != nil {
		return nil, err
	}
	return &REST{Store: store, TableConvertor: printers.Events, TTL: ttl}, nil
}

// ShortNames are kubectl's abbreviations: ev.
func (r *REST) ShortNames() []string { return []string{"ev"} }

// strategy mirrors eventStrategy in pkg/registry/core/event/strategy.go.
type strategy struct {
	registry.PlainStrategy
}

var (
	_ registry.CreateStrategy = strategy{}
	_ registry.UpdateStrategy = strategy{}
)

// AllowCreateOnUpdate is true: recorders PUT or PATCH Events they may not
// have created yet.
func (strategy) AllowCreateOnUpdate() bool      { return true }
func (strategy) AllowUnconditionalUpdate() bool { return true }

// Validate checks an Event by the version it was written in.
func (strategy) Validate(ctx context.Context, obj scheme.Object) field.ErrorList {
	return validation.ValidateEventCreate(obj.(*core.Event), registry.RequestVersionFrom(ctx))
}

func (strategy) ValidateUpdate(ctx context.Context, obj, old scheme.Object) field.ErrorList {
	return validation.ValidateEventUpdate(obj.(*core.Event), old.(*core.Event), registry.RequestVersionFrom(ctx))
}

// GetAttrs returns an Event's labels and selectable fields, named the
// core/v1 way (events.k8s.io/v1's names are mapped to them by
// eventsv1.ConvertFieldLabel).
//
// Mirrors GetAttrs and ToSelectableFields.
func GetAttrs(obj storage.Object) (map[string]string, map[string]string, error) {
	e, ok := obj.(*core.Event)
	if !ok {
		return nil, nil, fmt.Errorf("not an event")
	}
	source := e.Source.Component
	if source == "" {
		source = e.ReportingController
	}
	return e.Labels, map[string]string{
		"metadata.name":                  e.Name,
		"metadata.namespace":             e.Namespace,
		"involvedObject.kind":            e.InvolvedObject.Kind,
		"involvedObject.namespace":       e.InvolvedObject.Namespace,
		"involvedObject.name":            e.InvolvedObject.Name,
		"involvedObject.uid":             string(e.InvolvedObject.UID),
		"involvedObject.apiVersion":      e.InvolvedObject.APIVersion,
		"involvedObject.resourceVersion": e.InvolvedObject.ResourceVersion,
		"involvedObject.fieldPath":       e.InvolvedObject.FieldPath,
		"reason":                         e.Reason,
		"reportingComponent":             e.ReportingController,
		"source":                         source,
		"type":                           e.Type,
	}, nil
}

// checkFieldLabel accepts the fields GetAttrs returns.
func checkFieldLabel(label string) error {
	if _, fields, _ := GetAttrs(&core.Event{}); fields != nil {
		if _, ok := fields[label]; ok {
			return nil
		}
	}
	return fmt.Errorf("field label not supported: %s", label)
}
