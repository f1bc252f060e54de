package printers

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/crdlab/crdlab/apis/coordination"
	"github.com/crdlab/crdlab/apis/core"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/machinery/duration"
	"github.com/crdlab/crdlab/scheme"
)

// TableConvertor prints objects of one kind with its columns.
//
// Mirrors printerstorage.TableConvertor with one TableHandler.
type TableConvertor struct {
	Columns []metav1.TableColumnDefinition
	// Row returns the cells of one object, one per column.
	Row func(obj scheme.Object, now time.Time) ([]any, error)
	// Now is the clock of age cells; nil means time.Now.
	Now func() time.Time
}

// ConvertToTable prints objs, one row each.
func (c TableConvertor) ConvertToTable(_ context.Context, objs []scheme.Object) ([]metav1.TableColumnDefinition, [][]any, error) {
	now := time.Now()
	if c.Now != nil {
		now = c.Now()
	}
	cells := make([][]any, 0, len(objs))
	for _, obj := range objs {
		row, err := c.Row(obj, now)
		if err != nil {
			return nil, nil, err
		}
		cells = append(cells, row)
	}
	return c.Columns, cells, nil
}

var (
	nameColumn = metav1.TableColumnDefinition{Name: "Name", Type: "string", Format: "name", Description: "The name of the object, unique within its namespace."}
	ageColumn  = metav1.TableColumnDefinition{Name: "Age", Type: "string", Description: "How long ago the object was created (metadata.creationTimestamp)."}
)

// since prints the age of t, or <unknown>.
//
// Mirrors translateTimestampSince.
func since(t time.Time, now time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(now.Sub(t))
}

func wrongType(obj scheme.Object, want string) error {
	return fmt.Errorf("printers: %T is not a %s", obj, want)
}

// Namespaces prints NAME, STATUS, AGE.
var Namespaces = TableConvertor{
	Columns: []metav1.TableColumnDefinition{nameColumn,
		{Name: "Status", Type: "string", Description: "The phase of the namespace: Active or Terminating."}, ageColumn},
	Row: func(obj scheme.Object, now time.Time) ([]any, error) {
		ns, ok := obj.(*core.Namespace)
		if !ok {
			return nil, wrongType(obj, "Namespace")
		}
		return []any{ns.Name, string(ns.Status.Phase), since(ns.CreationTimestamp.Time, now)}, nil
	},
}

// Secrets prints NAME, TYPE, DATA (the number of keys), AGE.
var Secrets = TableConvertor{
	Columns: []metav1.TableColumnDefinition{nameColumn,
		{Name: "Type", Type: "string", Description: "The type of the secret."},
		{Name: "Data", Type: "string", Description: "The number of keys in data."}, ageColumn},
	Row: func(obj scheme.Object, now time.Time) ([]any, error) {
		s, ok := obj.(*core.Secret)
		if !ok {
			return nil, wrongType(obj, "Secret")
		}
		return []any{s.Name, string(s.Type), int64(len(s.Data)), since(s.CreationTimestamp.Time, now)}, nil
	},
}

// ConfigMaps prints NAME, DATA (keys of data and binaryData), AGE.
var ConfigMaps = TableConvertor{
	Columns: []metav1.TableColumnDefinition{nameColumn,
		{Name: "Data", Type: "string", Description: "The number of keys in data and binaryData."}, ageColumn},
	Row: func(obj scheme.Object, now time.Time) ([]any, error) {
		c, ok := obj.(*core.ConfigMap)
		if !ok {
			return nil, wrongType(obj, "ConfigMap")
		}
		return []any{c.Name, int64(len(c.Data) + len(c.BinaryData)), since(c.CreationTimestamp.Time, now)}, nil
	},
}

// Leases prints NAME, HOLDER, AGE.
var Leases = TableConvertor{
	Columns: []metav1.TableColumnDefinition{nameColumn,
		{Name: "Holder", Type: "string", Description: "Who holds the lease (spec.holderIdentity)."}, ageColumn},
	Row: func(obj scheme.Object, now time.Time) ([]any, error) {
		l, ok := obj.(*coordination.Lease)
		if !ok {
			return nil, wrongType(obj, "Lease")
		}
		var holder string
		if l.Spec.HolderIdentity != nil {
			holder = *l.Spec.HolderIdentity
		}
		return []any{l.Name, holder, since(l.CreationTimestamp.Time, now)}, nil
	},
}

// Events prints LAST SEEN, TYPE, REASON, OBJECT, MESSAGE, and for -o wide
// SUBOBJECT, SOURCE, FIRST SEEN, COUNT and NAME. An Event of the new API
// (eventTime, series) is printed from those fields.
//
// Mirrors printEvent.
var Events = TableConvertor{
	Columns: []metav1.TableColumnDefinition{
		{Name: "Last Seen", Type: "string", Description: "When the event last happened."},
		{Name: "Type", Type: "string", Description: "Normal or Warning."},
		{Name: "Reason", Type: "string", Description: "Why the event happened, in one word."},
		{Name: "Object", Type: "string", Description: "The object the event is about."},
		{Name: "Subobject", Type: "string", Priority: 1, Description: "The part of the object (involvedObject.fieldPath)."},
		{Name: "Source", Type: "string", Priority: 1, Description: "Who reported the event."},
		{Name: "Message", Type: "string", Description: "What happened, for humans."},
		{Name: "First Seen", Type: "string", Priority: 1, Description: "When the event first happened."},
		{Name: "Count", Type: "string", Priority: 1, Description: "How often it happened."},
		{Name: "Name", Type: "string", Priority: 1, Format: "name", Description: "The name of the event."},
	},
	Row: func(obj scheme.Object, now time.Time) ([]any, error) {
		e, ok := obj.(*core.Event)
		if !ok {
			return nil, wrongType(obj, "Event")
		}
		first := since(e.FirstTimestamp.Time, now)
		if e.FirstTimestamp.IsZero() {
			first = since(e.EventTime.Time, now)
		}
		last := since(e.LastTimestamp.Time, now)
		if e.LastTimestamp.IsZero() {
			last = first
		}
		count := e.Count
		if e.Series != nil {
			last = since(e.Series.LastObservedTime.Time, now)
			count = e.Series.Count
		} else if count == 0 {
			count = 1 // a singleton of the new API has no count
		}
		target := strings.ToLower(e.InvolvedObject.Kind)
		if e.InvolvedObject.Name != "" {
			target += "/" + e.InvolvedObject.Name
		}
		return []any{last, e.Type, e.Reason, target, e.InvolvedObject.FieldPath,
			eventSource(e), strings.TrimSpace(e.Message), first, int64(count), e.Name}, nil
	},
}

// eventSource is "component, host", falling back to the new API's
// reportingController and reportingInstance.
func eventSource(e *core.Event) string {
	component, instance := e.Source.Component, e.Source.Host
	if component == "" {
		component = e.ReportingController
	}
	if instance == "" {
		instance = e.ReportingInstance
	}
	if instance == "" {
		return component
	}
	return component + ", " + instance
}
