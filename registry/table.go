package registry

import (
	"context"
	"fmt"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
)

// TableConvertor prints objects (already encoded for the wire) as the
// columns and cells of a Table: what `kubectl get` shows.
//
// Mirrors k8s.io/apiserver/pkg/registry/rest.TableConvertor.
type TableConvertor interface {
	ConvertToTable(ctx context.Context, objs []scheme.Object) ([]metav1.TableColumnDefinition, [][]any, error)
}

// Descriptions of the Name and creation-time columns (upstream takes them
// from ObjectMeta's swagger docs).
const (
	NameColumnDescription              = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"
	CreationTimestampColumnDescription = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
)

// DefaultTableConvertor prints NAME and CREATED AT, as upstream does for
// resources without printers (kubectl get crd).
//
// Mirrors rest.defaultTableConvertor in
// k8s.io/apiserver/pkg/registry/rest/table.go.
type DefaultTableConvertor struct{}

// ConvertToTable prints one row per object.
func (DefaultTableConvertor) ConvertToTable(_ context.Context, objs []scheme.Object) ([]metav1.TableColumnDefinition, [][]any, error) {
	cols := []metav1.TableColumnDefinition{
		{Name: "Name", Type: "string", Format: "name", Description: NameColumnDescription},
		{Name: "Created At", Type: "date", Description: CreationTimestampColumnDescription},
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
