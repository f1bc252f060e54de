package registry

import (
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/crdlab/crdlab/machinery/openapi"
)

// Server-side apply asks two things of a resource's strategies, both
// optional; the handler reads them from the REST storage when it builds
// the resource's field manager (package machinery/managedfields).

// ResetFieldsStrategy is implemented by strategies that reset fields a
// write through their endpoint cannot set: status on the main resource,
// spec on /status. Per apiVersion; nobody becomes the owner of those
// fields by writing them there.
//
// Mirrors k8s.io/apiserver/pkg/registry/rest.ResetFieldsStrategy.
type ResetFieldsStrategy interface {
	GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set
}

// SchemaMarkersStrategy is implemented by the strategies of built-in kinds
// whose lists and maps do not merge as upstream's defaults say (lists
// atomic, maps and structs granular): status.conditions keyed by type, a
// set of finalizers. The markers go into the kind's OpenAPI schema
// (openapi.GoTypes.Markers), from which the field manager types it.
//
// Mirrors the +listType, +listMapKey, +mapType and +structType markers
// upstream writes on its Go types.
type SchemaMarkersStrategy interface {
	SchemaMarkers() openapi.Markers
}

// GetResetFields returns the reset fields of the update strategy, if it
// declares any.
//
// Mirrors (*Store).GetResetFields.
func (e *Store) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	if s, ok := e.UpdateStrategy.(ResetFieldsStrategy); ok {
		return s.GetResetFields()
	}
	return nil
}

// SchemaMarkers returns the schema markers of the create strategy (or
// else the update strategy), if it declares any.
func (e *Store) SchemaMarkers() openapi.Markers {
	for _, s := range []any{e.CreateStrategy, e.UpdateStrategy} {
		if m, ok := s.(SchemaMarkersStrategy); ok {
			return m.SchemaMarkers()
		}
	}
	return nil
}
