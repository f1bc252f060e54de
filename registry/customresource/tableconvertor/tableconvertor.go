package tableconvertor

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/duration"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
)

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

// Convertor prints a Name column and then one column per
// additionalPrinterColumn of the version.
//
// Mirrors convertor in
// k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor.
type Convertor struct {
	columns []crColumn
	// now is the clock of date cells (time.Now outside tests).
	now func() time.Time
}

var _ registry.TableConvertor = (*Convertor)(nil)

// PrinterColumn is an additionalPrinterColumn as the table convertor needs
// it (apiextensions v1 CustomResourceColumnDefinition, without the import).
type PrinterColumn struct {
	Name, Type, Format, Description, JSONPath string
	Priority                                  int32
}

// New compiles the columns; with none, the
// table has an Age column (metadata.creationTimestamp), as upstream.
func New(cols []PrinterColumn, now func() time.Time) (*Convertor, error) {
	if len(cols) == 0 {
		cols = []PrinterColumn{{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp", Description: registry.CreationTimestampColumnDescription}}
	}
	c := &Convertor{now: now}
	c.columns = append(c.columns, crColumn{def: metav1.TableColumnDefinition{Name: "Name", Type: "string", Format: "name", Description: registry.NameColumnDescription}})
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

// ConvertToTable prints one row per custom resource.
func (c *Convertor) ConvertToTable(_ context.Context, objs []scheme.Object) ([]metav1.TableColumnDefinition, [][]any, error) {
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
func (c *Convertor) cellFor(typ string, v any) any {
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
