package managedfields

import (
	"errors"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

// versionConverter lets the merge engine compare an object with entries
// written in another version: typed value → object → other version →
// typed value.
//
// Mirrors versionConverter in util/managedfields/internal/versionconverter.go.
type versionConverter struct {
	tc      TypeConverter
	convert ObjectConverter
}

var _ merge.Converter = (*versionConverter)(nil)

func (v *versionConverter) Convert(tv *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	if apiVersionOf(tv) == string(version) {
		return tv, nil
	}
	obj, err := v.tc.TypedToObject(tv)
	if err != nil {
		return tv, err
	}
	out, err := v.convert(obj, string(version))
	if err != nil {
		return tv, err
	}
	return v.tc.ObjectToTyped(out)
}

// IsMissingVersionError reports an error converting to a version the
// kind does not have (any more): its entries are dropped.
func (v *versionConverter) IsMissingVersionError(err error) bool {
	var nc *NoCorrespondingTypeError
	return errors.As(err, &nc)
}

// apiVersionOf reads a typed object's apiVersion ("" if none).
//
// Mirrors GroupVersionOfTypedValue in internal/typeconverter.go.
func apiVersionOf(tv *typed.TypedValue) string {
	v := tv.AsValue()
	if v == nil || !v.IsMap() {
		return ""
	}
	av, ok := v.AsMap().Get("apiVersion")
	if !ok || !av.IsString() {
		return ""
	}
	return av.AsString()
}

// rewriteAPIVersion is the conversion of a CRD's None strategy: the same
// object with another apiVersion. The copy is shallow: the merge engine
// only reads.
func rewriteAPIVersion(obj *unstructured.Unstructured, apiVersion string) (*unstructured.Unstructured, error) {
	m := make(map[string]any, len(obj.Object))
	for k, e := range obj.Object {
		m[k] = e
	}
	m["apiVersion"] = apiVersion
	return &unstructured.Unstructured{Object: m}, nil
}
