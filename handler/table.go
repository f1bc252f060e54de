package handler

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler/negotiation"
	"github.com/crdlab/crdlab/machinery/duration"
	"github.com/crdlab/crdlab/scheme"
)

// tableConvertor prints objects (already encoded for the wire) as the
// columns and cells of a Table.
//
// Mirrors k8s.io/apiserver/pkg/registry/rest.TableConvertor.
type tableConvertor interface {
	ConvertToTable(ctx context.Context, objs []scheme.Object) ([]metav1.TableColumnDefinition, [][]any, error)
}

// Values of the includeObject query parameter.
const (
	includeNone     = "None"
	includeMetadata = "Metadata"
	includeObject   = "Object"
)

// includeObjectOf reads ?includeObject= (default Metadata).
func includeObjectOf(r *http.Request) (string, error) {
	switch v := r.URL.Query().Get("includeObject"); v {
	case "", includeMetadata:
		return includeMetadata, nil
	case includeNone, includeObject:
		return v, nil
	default:
		return "", apierrors.NewBadRequest(fmt.Sprintf("unrecognized includeObject value: %q", v))
	}
}

func (s *requestScope) tableConvertor() tableConvertor {
	if s.table != nil {
		return s.table
	}
	return defaultTableConvertor{}
}

// buildTable prints objs as a Table of the target version, each row
// carrying the object as include says: its PartialObjectMetadata
// (Metadata), the whole object (Object) or nothing (None).
//
// Mirrors asTable in k8s.io/apiserver/pkg/endpoints/handlers/response.go.
func buildTable(ctx context.Context, tc tableConvertor, objs []scheme.Object, lm metav1.ListMeta, include string, target negotiation.Target) (*metav1.Table, error) {
	cols, cells, err := tc.ConvertToTable(ctx, objs)
	if err != nil {
		return nil, err
	}
	gv := scheme.GroupVersion{Group: target.Group, Version: target.Version}
	t := &metav1.Table{
		TypeMeta:          metav1.TypeMeta{APIVersion: gv.String(), Kind: "Table"},
		ListMeta:          lm,
		ColumnDefinitions: cols,
		Rows:              make([]metav1.TableRow, 0, len(objs)),
	}
	for i, obj := range objs {
		row := metav1.TableRow{Cells: cells[i]}
		switch include {
		case includeObject:
			raw, err := json.Marshal(obj)
			if err != nil {
				return nil, err
			}
			row.Object = raw
		case includeMetadata:
			m, ok := metav1.Accessor(obj)
			if !ok {
				return nil, fmt.Errorf("%T has no metadata", obj)
			}
			raw, err := json.Marshal(asPartialObjectMetadata(m, gv))
			if err != nil {
				return nil, err
			}
			row.Object = raw
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// asPartialObjectMetadata copies m's metadata into a PartialObjectMetadata
// of meta.k8s.io at gv.
//
// Mirrors meta.AsPartialObjectMetadata.
func asPartialObjectMetadata(m metav1.Object, gv scheme.GroupVersion) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta: metav1.TypeMeta{APIVersion: gv.String(), Kind: "PartialObjectMetadata"},
		ObjectMeta: metav1.ObjectMeta{
			Name: m.GetName(), GenerateName: m.GetGenerateName(), Namespace: m.GetNamespace(),
			UID: m.GetUID(), ResourceVersion: m.GetResourceVersion(), Generation: m.GetGeneration(),
			CreationTimestamp: m.GetCreationTimestamp(), DeletionTimestamp: m.GetDeletionTimestamp(),
			DeletionGracePeriodSeconds: m.GetDeletionGracePeriodSeconds(),
			Labels:                     m.GetLabels(), Annotations: m.GetAnnotations(),
			OwnerReferences: m.GetOwnerReferences(), Finalizers: m.GetFinalizers(),
		},
	}
}

// Descriptions of the Name and creation-time columns (upstream takes them
// from ObjectMeta's swagger docs).
const (
	nameColumnDescription              = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"
	creationTimestampColumnDescription = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
)

// defaultTableConvertor prints NAME and CREATED AT, as upstream does for
// resources without printers (kubectl get crd).
//
// Mirrors rest.defaultTableConvertor in
// k8s.io/apiserver/pkg/registry/rest/table.go.
type defaultTableConvertor struct{}

func (defaultTableConvertor) ConvertToTable(_ context.Context, objs []scheme.Object) ([]metav1.TableColumnDefinition, [][]any, error) {
	cols := []metav1.TableColumnDefinition{
		{Name: "Name", Type: "string", Format: "name", Description: nameColumnDescription},
		{Name: "Created At", Type: "date", Description: creationTimestampColumnDescription},
	}
	cells := make([][]any, 0, len(objs))
	for _, obj := range objs {
		m, ok := metav1.Accessor(obj)
		if !ok {
			return nil, nil, fmt.Errorf("%T has no metadata", obj)
		}
		cells = append(cells, []any{m.GetName(), m.GetCreationTimestamp().UTC().Format(time.RFC3339)})
	}
	return cols, cells, nil
}

// columnPath finds the value of a printer column in an object.
type columnPath interface {
	// Find returns the first value the path selects, or found=false.
	Find(obj map[string]any) (value any, found bool, err error)
}

// crColumn is one additionalPrinterColumn, compiled.
type crColumn struct {
	def  metav1.TableColumnDefinition
	path columnPath
}

// customResourceTableConvertor prints a Name column and then one column
// per additionalPrinterColumn of the version.
//
// Mirrors convertor in
// k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor.
type customResourceTableConvertor struct {
	columns []crColumn
	// now is the clock of date cells (time.Now outside tests).
	now func() time.Time
}

// PrinterColumn is an additionalPrinterColumn as the table convertor needs
// it (apiextensions v1 CustomResourceColumnDefinition, without the import).
type PrinterColumn struct {
	Name, Type, Format, Description, JSONPath string
	Priority                                  int32
}

// newCustomResourceTableConvertor compiles the columns; with none, the
// table has an Age column (metadata.creationTimestamp), as upstream.
func newCustomResourceTableConvertor(cols []PrinterColumn, now func() time.Time) (*customResourceTableConvertor, error) {
	if len(cols) == 0 {
		cols = []PrinterColumn{{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp", Description: creationTimestampColumnDescription}}
	}
	c := &customResourceTableConvertor{now: now}
	c.columns = append(c.columns, crColumn{def: metav1.TableColumnDefinition{Name: "Name", Type: "string", Format: "name", Description: nameColumnDescription}})
	for _, col := range cols {
		p, err := compileColumnPath(col.JSONPath)
		if err != nil {
			return nil, fmt.Errorf("unrecognized column definition %q: %w", col.JSONPath, err)
		}
		desc := col.Description
		if desc == "" {
			desc = "Custom resource definition column (in JSONPath format): " + col.JSONPath
		}
		c.columns = append(c.columns, crColumn{
			def:  metav1.TableColumnDefinition{Name: col.Name, Type: col.Type, Format: col.Format, Description: desc, Priority: col.Priority},
			path: p,
		})
	}
	return c, nil
}

func (c *customResourceTableConvertor) ConvertToTable(_ context.Context, objs []scheme.Object) ([]metav1.TableColumnDefinition, [][]any, error) {
	defs := make([]metav1.TableColumnDefinition, len(c.columns))
	for i, col := range c.columns {
		defs[i] = col.def
	}
	rows := make([][]any, 0, len(objs))
	for _, obj := range objs {
		u, ok := obj.(*unstructured.Unstructured)
		if !ok {
			return nil, nil, fmt.Errorf("%T is not a custom resource", obj)
		}
		cells := make([]any, 0, len(c.columns))
		cells = append(cells, u.GetName())
		for _, col := range c.columns[1:] {
			v, found, err := col.path.Find(u.Object)
			if err != nil || !found {
				cells = append(cells, nil)
				continue
			}
			cells = append(cells, c.cellFor(col.def.Type, v))
		}
		rows = append(rows, cells)
	}
	return defs, rows, nil
}

// cellFor turns a JSON value into the cell of a column of the given type;
// a value of the wrong type is a nil cell. Dates are printed as ages
// ("5m", "3d"), as upstream does server-side.
//
// Mirrors cellForJSONValue in tableconvertor.go.
func (c *customResourceTableConvertor) cellFor(typ string, v any) any {
	if v == nil {
		return nil
	}
	switch typ {
	case "integer":
		switch n := v.(type) {
		case int64:
			return n
		case float64:
			return int64(n)
		}
	case "number":
		switch n := v.(type) {
		case int64:
			return float64(n)
		case float64:
			return n
		}
	case "boolean":
		if b, ok := v.(bool); ok {
			return b
		}
	case "string":
		switch s := v.(type) {
		case string:
			return s
		default:
			// upstream prints any value of a string column with the JSONPath printer.
			b, err := json.Marshal(s)
			if err != nil {
				return nil
			}
			return string(b)
		}
	case "date":
		if s, ok := v.(string); ok {
			t, err := time.Parse(time.RFC3339, s)
			if err != nil {
				return "<invalid>"
			}
			return duration.HumanDuration(c.now().Sub(t))
		}
	}
	return nil
}
