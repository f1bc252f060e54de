package endpoints

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler/negotiation"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
)

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

// tableConvertor prints the scope's objects: its Table, or
// registry.DefaultTableConvertor.
func (s *RequestScope) tableConvertor() registry.TableConvertor {
	if s.Table != nil {
		return s.Table
	}
	return registry.DefaultTableConvertor{}
}

// buildTable prints objs as a Table of the target version, each row
// carrying the object as include says: its PartialObjectMetadata
// (Metadata), the whole object (Object) or nothing (None).
//
// Mirrors asTable in k8s.io/apiserver/pkg/endpoints/handlers/response.go.
func buildTable(ctx context.Context, tc registry.TableConvertor, objs []scheme.Object, lm metav1.ListMeta, include string, target negotiation.Target) (*metav1.Table, error) {
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
			ManagedFields: m.GetManagedFields(),
		},
	}
}
