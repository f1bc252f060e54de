package field

import (
	"strconv"
	"strings"
)

// Path is the path from the root of an object to one of its fields, such
// as spec.versions[0].name or metadata.labels[app]. Paths are immutable:
// Child, Index and Key return new paths sharing the parent.
//
// Mirrors k8s.io/apimachinery/pkg/util/validation/field.Path.
type Path struct {
	name   string // a field name; empty for an index or key step
	index  string // an index or a key, printed in brackets
	parent *Path  // nil at the root
}

// NewPath starts a path at the root field name, with optional more names.
func NewPath(name string, moreNames ...string) *Path {
	r := &Path{name: name}
	for _, n := range moreNames {
		r = &Path{name: n, parent: r}
	}
	return r
}

// Root returns the first step of p.
func (p *Path) Root() *Path {
	for ; p.parent != nil; p = p.parent {
	}
	return p
}

// Child returns p followed by the field names.
func (p *Path) Child(name string, moreNames ...string) *Path {
	r := NewPath(name, moreNames...)
	r.Root().parent = p
	return r
}

// Index returns p followed by [index].
func (p *Path) Index(index int) *Path {
	return &Path{index: strconv.Itoa(index), parent: p}
}

// Key returns p followed by [key].
func (p *Path) Key(key string) *Path {
	return &Path{index: key, parent: p}
}

// String renders the path as "spec.versions[0].name".
func (p *Path) String() string {
	if p == nil {
		return "<nil>"
	}
	var steps []*Path
	for q := p; q != nil; q = q.parent {
		steps = append(steps, q)
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		if s.parent != nil && len(s.name) > 0 {
			b.WriteString(".")
		}
		if len(s.name) > 0 {
			b.WriteString(s.name)
		} else {
			b.WriteString("[" + s.index + "]")
		}
	}
	return b.String()
}
