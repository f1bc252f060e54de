package tableconvertor

import (
	"github.com/crdlab/crdlab/machinery/jsonpath"
)

// jsonPathColumn evaluates a printer column's JSONPath with package
// jsonpath; the first value found fills the cell, as upstream's table
// convertor takes results[0][0].
type jsonPathColumn struct{ p *jsonpath.JSONPath }

// compileColumnPath parses a printer column's JSONPath.
func compileColumnPath(p string) (columnPath, error) {
	jp, err := jsonpath.Parse(p)
	if err != nil {
		return nil, err
	}
	return jsonPathColumn{jp}, nil
}

func (c jsonPathColumn) Find(obj map[string]any) (any, bool, error) {
	vs, err := c.p.Execute(obj)
	if err != nil || len(vs) == 0 {
		return nil, false, err
	}
	return vs[0], true, nil
}
