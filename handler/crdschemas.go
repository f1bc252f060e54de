package handler

import (
	"fmt"
	"sync"
	"sync/atomic"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
)

// crdSchemas are the compiled schemas (Config.SchemaFor) of a CRD's served
// versions and of its storage version, compiled together on first use: the
// first request that reads or writes one of the CRD's objects (a create, a
// get, a list or watch event with an object), not when the serving info is
// built. A provider's controllers list and watch every one of its CRDs,
// most of which never get an object; compiling the schemas of a 265 KB
// CRD allocates about 5 MB and keeps about 0.05 MiB (docs/crd-memory.md).
// Until they are compiled they point at the CRD object the crdHandler
// holds (repoint follows it to a newer object with the same spec and
// names) and keep no copy of it.
//
// Upstream compiles them with the serving info (getOrCreateServingInfoFor:
// the structural schemas, validators, defaulters and pruners per version).
type crdSchemas struct {
	compile func(*apiextensionsv1.CustomResourceDefinition) (*compiledSchemas, error)
	// done is set once compiled (or failed): requests read it without
	// the lock.
	done atomic.Pointer[compiledSchemas]

	mu sync.Mutex // guards crd and the compiling
	// crd is what the schemas are compiled from; nil once they are.
	crd *apiextensionsv1.CustomResourceDefinition
}

// compiledSchemas are a CRD's compiled schemas.
type compiledSchemas struct {
	// byVersion holds a schema per version that has one (served, or the
	// storage version).
	byVersion      map[string]Schema
	storageVersion string
	// noDefaults says the storage version's schema sets no defaults, or
	// there is none.
	noDefaults bool
	// err says why they could not be compiled (then the rest is empty).
	err error
}

// newCRDSchemas returns crd's schemas, compiled on first use.
func (h *GenericAPIServer) newCRDSchemas(crd *apiextensionsv1.CustomResourceDefinition, storageVersion string) *crdSchemas {
	return &crdSchemas{crd: crd, compile: func(crd *apiextensionsv1.CustomResourceDefinition) (*compiledSchemas, error) {
		cs := &compiledSchemas{byVersion: map[string]Schema{}, storageVersion: storageVersion}
		for i := range crd.Spec.Versions {
			v := &crd.Spec.Versions[i]
			if (!v.Served && v.Name != storageVersion) || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil || h.cfg.SchemaFor == nil {
				continue
			}
			s, err := h.cfg.SchemaFor(crd, v.Name)
			if err != nil {
				return nil, fmt.Errorf("the schema of version %s of %s: %w", v.Name, crd.Name, err)
			}
			cs.byVersion[v.Name] = s
		}
		storage := cs.byVersion[storageVersion]
		if d, ok := storage.(defaultsReporter); storage == nil || ok && !d.HasDefaults() {
			cs.noDefaults = true
		}
		return cs, nil
	}}
}

// get returns the compiled schemas, compiling them the first time; an
// error is the compile's, every time.
func (s *crdSchemas) get() (*compiledSchemas, error) {
	if cs := s.done.Load(); cs != nil {
		return cs, cs.err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if cs := s.done.Load(); cs != nil {
		return cs, cs.err
	}
	cs, err := s.compile(s.crd)
	if err != nil {
		cs = &compiledSchemas{err: err}
	}
	s.crd = nil
	s.done.Store(cs)
	return cs, cs.err
}

// compiled reports whether the schemas have been compiled.
func (s *crdSchemas) compiled() bool { return s.done.Load() != nil }

// repoint makes schemas not compiled yet read crd, a newer object with
// the same spec and accepted names, so that the older object can go.
func (s *crdSchemas) repoint(crd *apiextensionsv1.CustomResourceDefinition) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done.Load() == nil {
		s.crd = crd
	}
}
