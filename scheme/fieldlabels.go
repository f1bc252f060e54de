package scheme

// FieldLabelConversionFunc maps a field selector key (and value) of one
// kind in one version to the field its storage selects on, or rejects it.
//
// Mirrors runtime.FieldLabelConversionFunc.
type FieldLabelConversionFunc func(label, value string) (internalLabel, internalValue string, err error)

// AddFieldLabelConversionFunc registers fn for gvk: events.k8s.io/v1
// Events are selected by "regarding.name", which core stores as
// "involvedObject.name".
//
// Mirrors (*runtime.Scheme).AddFieldLabelConversionFunc.
func (s *Scheme) AddFieldLabelConversionFunc(gvk GroupVersionKind, fn FieldLabelConversionFunc) {
	s.fieldLabelConversions[gvk] = fn
}

// ConvertFieldLabel maps label with gvk's function; a kind without one
// keeps its labels as they are (its storage rejects those it cannot
// select on).
//
// Mirrors (*runtime.Scheme).ConvertFieldLabel, whose default accepts
// metadata.name and metadata.namespace only.
func (s *Scheme) ConvertFieldLabel(gvk GroupVersionKind, label, value string) (string, string, error) {
	if fn, ok := s.fieldLabelConversions[gvk]; ok {
		return fn(label, value)
	}
	return label, value, nil
}
