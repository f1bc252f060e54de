package scheme

import (
	"fmt"
	"reflect"
	"sort"
)

// Scheme is the resource registry: it knows which Go type serves each kind in
// each version, how to convert between versions and how to default them.
//
// A Scheme is built by registration at start-up and is safe for concurrent
// use only after registration has ended: nothing locks the maps below.
//
// Mirrors k8s.io/apimachinery/pkg/runtime.Scheme.
type Scheme struct {
	// gvkToType maps each registered kind to the Go struct type serving it.
	gvkToType map[GroupVersionKind]reflect.Type
	// typeToGVK maps a Go type back to its kinds (one type may serve a kind
	// in several versions, as the meta option types do).
	typeToGVK map[reflect.Type][]GroupVersionKind
	// conversions holds the registered conversion functions by (from, to) type.
	conversions map[typePair]ConversionFunc
	// defaulters holds one defaulting function per external type.
	defaulters map[reflect.Type]func(Object)
	// versionPriority lists each group's external versions, preferred first.
	versionPriority map[string][]string
	// observedVersions lists every registered version in registration order.
	observedVersions []GroupVersion
	// fieldLabelConversions maps the field selector keys of a kind to the
	// fields its storage selects on (fieldlabels.go).
	fieldLabelConversions map[GroupVersionKind]FieldLabelConversionFunc
}

type typePair struct{ from, to reflect.Type }

// ConversionFunc converts in (a pointer to the source type) into out (a
// pointer to the destination type). It must not keep references to in.
type ConversionFunc func(in, out Object) error

// NewScheme returns an empty scheme.
func NewScheme() *Scheme {
	return &Scheme{
		gvkToType:       map[GroupVersionKind]reflect.Type{},
		typeToGVK:       map[reflect.Type][]GroupVersionKind{},
		conversions:     map[typePair]ConversionFunc{},
		defaulters:      map[reflect.Type]func(Object){},
		versionPriority: map[string][]string{},

		fieldLabelConversions: map[GroupVersionKind]FieldLabelConversionFunc{},
	}
}

// AddKnownTypes registers each object's struct type under its Go type name
// as the kind, in gv. The objects must be pointers to structs. Registering
// the same kind twice with another type is a programmer error and panics.
func (s *Scheme) AddKnownTypes(gv GroupVersion, types ...Object) {
	s.addObservedVersion(gv)
	for _, obj := range types {
		t := reflect.TypeOf(obj)
		if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
			panic(fmt.Sprintf("scheme: all types must be pointers to structs, got %v", t))
		}
		s.AddKnownTypeWithName(gv.WithKind(t.Elem().Name()), obj)
	}
}

// AddKnownTypeWithName registers obj's type as gvk.
func (s *Scheme) AddKnownTypeWithName(gvk GroupVersionKind, obj Object) {
	s.addObservedVersion(gvk.GroupVersion())
	t := reflect.TypeOf(obj)
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("scheme: all types must be pointers to structs, got %v", t))
	}
	t = t.Elem()
	if old, ok := s.gvkToType[gvk]; ok && old != t {
		panic(fmt.Sprintf("scheme: double registration of different types for %v: old=%v, new=%v", gvk, old, t))
	}
	s.gvkToType[gvk] = t
	for _, existing := range s.typeToGVK[t] {
		if existing == gvk {
			return
		}
	}
	s.typeToGVK[t] = append(s.typeToGVK[t], gvk)
}

func (s *Scheme) addObservedVersion(gv GroupVersion) {
	if gv.Version == "" || gv.Version == APIVersionInternal {
		return
	}
	for _, o := range s.observedVersions {
		if o == gv {
			return
		}
	}
	s.observedVersions = append(s.observedVersions, gv)
}

// SetVersionPriority records the external versions of a group, most
// preferred first (the first is what clients get by default).
func (s *Scheme) SetVersionPriority(versions ...GroupVersion) error {
	if len(versions) == 0 {
		return nil
	}
	group := versions[0].Group
	var vs []string
	for _, gv := range versions {
		if gv.Group != group {
			return fmt.Errorf("scheme: SetVersionPriority: versions of more than one group: %v", versions)
		}
		vs = append(vs, gv.Version)
	}
	s.versionPriority[group] = vs
	return nil
}

// PrioritizedVersionsForGroup returns the group's external versions,
// preferred first.
func (s *Scheme) PrioritizedVersionsForGroup(group string) []GroupVersion {
	var out []GroupVersion
	for _, v := range s.versionPriority[group] {
		out = append(out, GroupVersion{Group: group, Version: v})
	}
	for _, gv := range s.observedVersions {
		if gv.Group != group {
			continue
		}
		found := false
		for _, o := range out {
			found = found || o == gv
		}
		if !found {
			out = append(out, gv)
		}
	}
	return out
}

// IsVersionRegistered reports whether any kind is registered in gv.
func (s *Scheme) IsVersionRegistered(gv GroupVersion) bool {
	for gvk := range s.gvkToType {
		if gvk.GroupVersion() == gv {
			return true
		}
	}
	return false
}

// IsGroupRegistered reports whether any kind is registered in group.
func (s *Scheme) IsGroupRegistered(group string) bool {
	for gvk := range s.gvkToType {
		if gvk.Group == group {
			return true
		}
	}
	return false
}

// Recognizes reports whether gvk is registered.
func (s *Scheme) Recognizes(gvk GroupVersionKind) bool {
	_, ok := s.gvkToType[gvk]
	return ok
}

// KnownTypes returns the kinds registered in gv and their Go types.
func (s *Scheme) KnownTypes(gv GroupVersion) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for gvk, t := range s.gvkToType {
		if gvk.GroupVersion() == gv {
			out[gvk.Kind] = t
		}
	}
	return out
}

// New returns a new, empty object of the kind gvk.
func (s *Scheme) New(gvk GroupVersionKind) (Object, error) {
	t, ok := s.gvkToType[gvk]
	if !ok {
		return nil, &NotRegisteredError{GVK: gvk}
	}
	return reflect.New(t).Interface().(Object), nil
}

// ObjectKinds returns every kind obj's Go type is registered as, sorted so
// that the result is stable.
func (s *Scheme) ObjectKinds(obj Object) ([]GroupVersionKind, error) {
	t := reflect.TypeOf(obj)
	if t == nil || t.Kind() != reflect.Pointer {
		return nil, fmt.Errorf("scheme: %T is not a pointer to a struct", obj)
	}
	gvks, ok := s.typeToGVK[t.Elem()]
	if !ok {
		return nil, &NotRegisteredError{Type: t.Elem()}
	}
	out := append([]GroupVersionKind(nil), gvks...)
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out, nil
}

// AddConversionFunc registers fn to convert objects of from's type into
// objects of to's type.
func (s *Scheme) AddConversionFunc(from, to Object, fn ConversionFunc) {
	s.conversions[typePair{reflect.TypeOf(from), reflect.TypeOf(to)}] = fn
}

// AddTypeDefaultingFunc registers fn to default objects of obj's type.
func (s *Scheme) AddTypeDefaultingFunc(obj Object, fn func(Object)) {
	s.defaulters[reflect.TypeOf(obj)] = fn
}

// Default applies the defaulting function registered for obj's type, if any.
func (s *Scheme) Default(obj Object) {
	if fn, ok := s.defaulters[reflect.TypeOf(obj)]; ok {
		fn(obj)
	}
}

// Convert converts in into out with the registered conversion function.
// Same types are copied.
func (s *Scheme) Convert(in, out Object) error {
	fromT, toT := reflect.TypeOf(in), reflect.TypeOf(out)
	if fromT == toT {
		reflect.ValueOf(out).Elem().Set(reflect.ValueOf(in.DeepCopyObject()).Elem())
		return nil
	}
	fn, ok := s.conversions[typePair{fromT, toT}]
	if !ok {
		return &ConversionNotRegisteredError{From: fromT, To: toT}
	}
	return fn(in, out)
}

// ConvertToVersion converts in to the kind of the same group in version
// target, going through the internal (hub) version as upstream does:
// external → internal → external. The result has its apiVersion/kind set
// unless target is the internal version. in is not modified.
func (s *Scheme) ConvertToVersion(in Object, target GroupVersion) (Object, error) {
	kinds, err := s.ObjectKinds(in)
	if err != nil {
		return nil, err
	}
	// One Go type may be registered in several groups (core.Event is the
	// internal Event of both "" and events.k8s.io): start from its kind
	// in the target's version, else in the target's group.
	from := kinds[0]
	for _, k := range kinds {
		if k.Group == target.Group && from.Group != target.Group {
			from = k
		}
		if k.GroupVersion() == target {
			from = k
			break
		}
	}
	if from.Group != target.Group {
		return nil, fmt.Errorf("scheme: cannot convert %v to group %q", from, target.Group)
	}
	targetGVK := target.WithKind(from.Kind)
	if !s.Recognizes(targetGVK) {
		return nil, &NotRegisteredError{GVK: targetGVK}
	}
	if from.Version == target.Version {
		out := in.DeepCopyObject()
		setKind(out, targetGVK)
		return out, nil
	}
	// Step 1: to the hub, unless we are already there.
	hub := in
	if from.Version != APIVersionInternal {
		hubGVK := from.GroupKind().WithVersion(APIVersionInternal)
		hub, err = s.New(hubGVK)
		if err != nil {
			return nil, err
		}
		if err := s.Convert(in, hub); err != nil {
			return nil, err
		}
	}
	// Step 2: from the hub to the target, unless the target is the hub.
	if target.Version == APIVersionInternal {
		setKind(hub, targetGVK) // hub objects carry no apiVersion/kind
		return hub, nil
	}
	out, err := s.New(targetGVK)
	if err != nil {
		return nil, err
	}
	if err := s.Convert(hub, out); err != nil {
		return nil, err
	}
	setKind(out, targetGVK)
	return out, nil
}

func setKind(obj Object, gvk GroupVersionKind) {
	if gvk.Version == APIVersionInternal {
		obj.GetObjectKind().SetGroupVersionKind(GroupVersionKind{})
		return
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
}

// NotRegisteredError says a kind (or a Go type) is not in the scheme.
type NotRegisteredError struct {
	GVK  GroupVersionKind
	Type reflect.Type
}

func (e *NotRegisteredError) Error() string {
	if e.Type != nil {
		return fmt.Sprintf("no kind is registered for the type %v in scheme", e.Type)
	}
	if e.GVK.Kind == "" {
		return fmt.Sprintf("no kind is registered for version %q in scheme", e.GVK.GroupVersion().String())
	}
	return fmt.Sprintf("no kind %q is registered for version %q in scheme", e.GVK.Kind, e.GVK.GroupVersion().String())
}

// ConversionNotRegisteredError says no function converts between two types.
type ConversionNotRegisteredError struct {
	From, To reflect.Type
}

func (e *ConversionNotRegisteredError) Error() string {
	return fmt.Sprintf("converting (%v) to (%v): no conversion function registered", e.From, e.To)
}
