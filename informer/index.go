package informer

import (
	"fmt"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// Indexer is a Store that also keeps indices: for each named IndexFunc, a map
// from every value the function returns to the keys of the objects that gave
// it. An informer's Indexer always has the namespace index, so "every object
// in namespace ns" is a map lookup, not a scan.
//
// Consistency: an index query sees exactly the objects the store holds at
// that moment; indices are updated under the same lock as the objects.
//
// Mirrors k8s.io/client-go/tools/cache.Indexer (index.go).
type Indexer interface {
	Store
	// Index returns the objects that share at least one indexed value
	// with obj under the index named indexName.
	Index(indexName string, obj any) ([]any, error)
	// IndexKeys returns the keys of the objects whose indexName index
	// function returned indexedValue.
	IndexKeys(indexName, indexedValue string) ([]string, error)
	// ListIndexFuncValues returns every value the indexName index function
	// has returned for a stored object.
	ListIndexFuncValues(indexName string) []string
	// ByIndex returns the objects whose indexName index function returned
	// indexedValue.
	ByIndex(indexName, indexedValue string) ([]any, error)
	// GetIndexers returns the index functions, by name.
	GetIndexers() Indexers
	// AddIndexers adds index functions. It fails if the store already holds
	// items or a name is taken: an informer's indexers are all added before
	// it starts.
	AddIndexers(newIndexers Indexers) error
}

// IndexFunc computes the values an object is indexed under: none, one (the
// usual case) or several.
//
// Mirrors k8s.io/client-go/tools/cache.IndexFunc.
type IndexFunc func(obj any) ([]string, error)

// Indexers maps an index name to its IndexFunc.
type Indexers map[string]IndexFunc

// Index maps an indexed value to the set of keys of the objects indexed
// under it.
type Index map[string]map[string]struct{}

// Indices maps an index name to its Index.
type Indices map[string]Index

// NamespaceIndex is the name of the index MetaNamespaceIndexFunc fills.
//
// Mirrors k8s.io/client-go/tools/cache.NamespaceIndex.
const NamespaceIndex = "namespace"

// MetaNamespaceIndexFunc indexes an object by its namespace ("" for a
// cluster-scoped one).
//
// Mirrors k8s.io/client-go/tools/cache.MetaNamespaceIndexFunc.
func MetaNamespaceIndexFunc(obj any) ([]string, error) {
	m, ok := metav1.Accessor(obj)
	if !ok {
		return nil, fmt.Errorf("%w: %T", ErrNoMetadata, obj)
	}
	return []string{m.GetNamespace()}, nil
}
