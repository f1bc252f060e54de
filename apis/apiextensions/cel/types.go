package cel

import (
	"fmt"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/crdlab/crdlab/apis/apiextensions/cel/library"
	"github.com/crdlab/crdlab/apis/apiextensions/structural"
)

// Sizes used to bound what a value can hold when the schema does not
// (a JSON string is at least "" and so on).
//
// Mirrors k8s.io/apiserver/pkg/cel/limits.go.
const (
	maxRequestSizeBytes = library.MaxRequestSizeBytes
	maxDurationSizeJSON = 32
	maxDatetimeSizeJSON = 32
	minDurationSizeJSON = 3
	jsonDateSize        = 12
	minDatetimeSizeJSON = 21
	minStringSize       = 2
	minBoolSize         = 4
	minNumberSize       = 1
	// nameMaxLength caps metadata.name (a DNS subdomain).
	nameMaxLength = 253
)

// DeclType is the CEL type of one schema node, with what the cost
// estimator needs to know about its size.
//
// An object has Fields (by escaped name), a map KeyType and ElemType, a
// list ElemType; anything else is a simple type. MaxElements is the most
// bytes (strings), items (lists) or entries (maps) a value can have;
// MinSerializedSize is the fewest bytes its JSON can take.
//
// Mirrors apiservercel.DeclType in k8s.io/apiserver/pkg/cel/types.go.
type DeclType struct {
	name              string
	Fields            map[string]*DeclField
	KeyType           *DeclType
	ElemType          *DeclType
	MaxElements       int64
	MinSerializedSize int64

	celType *cel.Type
}

// DeclField is a field of an object DeclType.
type DeclField struct {
	Name     string
	Type     *DeclType
	Required bool
}

func newListType(elem *DeclType, maxItems int64) *DeclType {
	return &DeclType{name: "list", ElemType: elem, MaxElements: maxItems, MinSerializedSize: 2, celType: cel.ListType(elem.celType)}
}

func newMapType(key, elem *DeclType, maxProperties int64) *DeclType {
	return &DeclType{name: "map", KeyType: key, ElemType: elem, MaxElements: maxProperties, MinSerializedSize: 2, celType: cel.MapType(key.celType, elem.celType)}
}

func newObjectType(name string, fields map[string]*DeclField) *DeclType {
	return &DeclType{name: name, Fields: fields, MinSerializedSize: 2, celType: cel.ObjectType(name)}
}

func newSimpleType(name string, t *cel.Type, minSize int64) *DeclType {
	return &DeclType{name: name, celType: t, MinSerializedSize: minSize}
}

var (
	stringDeclType = newSimpleType("string", cel.StringType, minStringSize)
	boolDeclType   = newSimpleType("bool", cel.BoolType, minBoolSize)
	intDeclType    = newSimpleType("int", cel.IntType, minNumberSize)
	doubleDeclType = newSimpleType("double", cel.DoubleType, minNumberSize)
)

// CelType is the type CEL checks expressions with.
func (t *DeclType) CelType() *cel.Type { return t.celType }

// TypeName is the object's name ("selfType123.spec"), or the kind of
// simple type.
func (t *DeclType) TypeName() string { return t.name }

func (t *DeclType) isList() bool   { return t.KeyType == nil && t.ElemType != nil && t.Fields == nil }
func (t *DeclType) isMap() bool    { return t.KeyType != nil && t.ElemType != nil && t.Fields == nil }
func (t *DeclType) isObject() bool { return t.KeyType == nil && t.ElemType == nil && t.Fields != nil }

// SchemaDeclType returns the CEL type of a schema node, or nil if it has
// none (no type and not int-or-string, an array without items…); fields
// without a type are left out of their object. At the root of a resource
// (isResourceRoot) the object also gets apiVersion, kind and
// metadata.name/generateName.
//
// Mirrors common.SchemaDeclType in k8s.io/apiserver/pkg/cel/common/schemas.go.
func SchemaDeclType(s *structural.Structural, isResourceRoot bool) *DeclType {
	if s == nil {
		return nil
	}
	if s.XIntOrString {
		// The smallest int-or-string is 0.
		dyn := newSimpleType("dyn", cel.DynType, 1)
		if s.MaxLength != nil {
			dyn.MaxElements = zeroIfNegative(*s.MaxLength) * 4
		} else {
			dyn.MaxElements = maxStringLength(s)
		}
		return dyn
	}
	if isResourceRoot {
		s = WithTypeAndObjectMeta(s)
	}
	switch s.Type {
	case "array":
		if s.Items == nil {
			return nil
		}
		items := SchemaDeclType(s.Items, s.Items.XEmbeddedResource)
		if items == nil {
			return nil
		}
		maxItems := (maxRequestSizeBytes - 2) / (items.MinSerializedSize + 1)
		if s.MaxItems != nil {
			maxItems = zeroIfNegative(*s.MaxItems)
		}
		return newListType(items, maxItems)
	case "object":
		if s.AdditionalProperties != nil {
			values := SchemaDeclType(s.AdditionalProperties, s.AdditionalProperties.XEmbeddedResource)
			if values == nil {
				return nil
			}
			maxProperties := (maxRequestSizeBytes - 2) / (values.MinSerializedSize + 6)
			if s.MaxProperties != nil {
				maxProperties = zeroIfNegative(*s.MaxProperties)
			}
			return newMapType(stringDeclType, values, maxProperties)
		}
		required := map[string]bool{}
		for _, r := range s.Required {
			required[r] = true
		}
		fields := make(map[string]*DeclField, len(s.Properties))
		minSize := int64(2)
		for name, prop := range s.Properties {
			ft := SchemaDeclType(prop, prop.XEmbeddedResource)
			if ft == nil {
				continue
			}
			if escaped, ok := Escape(name); ok {
				fields[escaped] = &DeclField{Name: escaped, Type: ft, Required: required[name]}
			}
			if required[name] && prop.Default == nil {
				minSize += int64(len(name)) + ft.MinSerializedSize + 4
			}
		}
		obj := newObjectType("object", fields)
		obj.MinSerializedSize = minSize
		return obj
	case "string":
		var t *DeclType
		switch s.Format {
		case "byte":
			t = newSimpleType("bytes", cel.BytesType, minStringSize)
			if s.MaxLength != nil {
				t.MaxElements = zeroIfNegative(*s.MaxLength)
			} else {
				t.MaxElements = maxStringLength(s)
			}
			return t
		case "duration":
			t = newSimpleType("duration", cel.DurationType, minDurationSizeJSON)
		case "date":
			t = newSimpleType("timestamp", cel.TimestampType, jsonDateSize)
		case "date-time":
			t = newSimpleType("timestamp", cel.TimestampType, minDatetimeSizeJSON)
		}
		if t != nil {
			t.MaxElements = maxStringLength(s)
			return t
		}
		t = newSimpleType("string", cel.StringType, minStringSize)
		switch {
		case s.MaxLength != nil:
			t.MaxElements = zeroIfNegative(*s.MaxLength) * 4
		case len(s.Enum) > 0:
			for _, e := range s.Enum {
				if es, ok := e.(string); ok && int64(len(es)) > t.MaxElements {
					t.MaxElements = int64(len(es))
				}
			}
		default:
			t.MaxElements = maxStringLength(s)
		}
		return t
	case "boolean":
		return boolDeclType
	case "number":
		return doubleDeclType
	case "integer":
		return intDeclType
	}
	return nil
}

// maxStringLength bounds a string that has no maxLength.
//
// Mirrors estimateMaxStringLengthPerRequest.
func maxStringLength(s *structural.Structural) int64 {
	if s.XIntOrString {
		return maxRequestSizeBytes - 2
	}
	switch s.Format {
	case "duration":
		return maxDurationSizeJSON
	case "date":
		return jsonDateSize
	case "date-time":
		return maxDatetimeSizeJSON
	}
	return maxRequestSizeBytes - 2
}

func zeroIfNegative(v int64) int64 {
	if v < 0 {
		return 0
	}
	return v
}

// WithTypeAndObjectMeta returns s with the fields every resource has
// (apiVersion, kind, and metadata with name and generateName capped at a
// DNS subdomain's length); s itself if it declares them already. The
// other metadata fields stay out of reach of rules, as upstream.
//
// Mirrors model.WithTypeAndObjectMeta in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model/schemas.go.
func WithTypeAndObjectMeta(s *structural.Structural) *structural.Structural {
	prop := func(s *structural.Structural, name string) *structural.Structural {
		if s == nil || s.Properties[name] == nil {
			return &structural.Structural{}
		}
		return s.Properties[name]
	}
	md := prop(s, "metadata")
	if s.Properties != nil && prop(s, "kind").Type == "string" && prop(s, "apiVersion").Type == "string" &&
		md.Type == "object" && md.Properties != nil && prop(md, "name").Type == "string" && prop(md, "generateName").Type == "string" {
		return s
	}
	out := *s
	out.Properties = make(map[string]*structural.Structural, len(s.Properties)+3)
	for k, v := range s.Properties {
		out.Properties[k] = v
	}
	out.Properties["kind"] = &structural.Structural{Type: "string"}
	out.Properties["apiVersion"] = &structural.Structural{Type: "string"}
	out.Properties["metadata"] = &structural.Structural{
		Type: "object",
		Properties: map[string]*structural.Structural{
			"name":         cappedString(prop(md, "name"), nameMaxLength),
			"generateName": cappedString(prop(md, "generateName"), nameMaxLength-1), // the generated suffix is at least 1 byte
		},
	}
	return &out
}

func cappedString(existing *structural.Structural, maxLength int64) *structural.Structural {
	if existing.MaxLength != nil && *existing.MaxLength < maxLength {
		maxLength = *existing.MaxLength
	}
	return &structural.Structural{Type: "string", MaxLength: &maxLength}
}

// maybeAssignTypeName names the object types of t and below it after their
// path from name ("selfType1.spec.ports.@idx"); objects already named keep
// their name.
//
// Mirrors (*DeclType).MaybeAssignTypeName.
func (t *DeclType) maybeAssignTypeName(name string) *DeclType {
	switch {
	case t.isObject():
		updated := false
		if t.name != "object" {
			name = t.name
		} else {
			updated = true
		}
		fields := make(map[string]*DeclField, len(t.Fields))
		for fn, f := range t.Fields {
			if !f.Type.isNamed() {
				// A scalar keeps its type: no name to make.
				fields[fn] = f
				continue
			}
			ft := f.Type.maybeAssignTypeName(name + "." + fn)
			if ft != f.Type {
				updated = true
				f = &DeclField{Name: fn, Type: ft, Required: f.Required}
			}
			fields[fn] = f
		}
		if !updated {
			return t
		}
		out := newObjectType(name, fields)
		out.MinSerializedSize = t.MinSerializedSize
		return out
	case t.isMap():
		elem := t.ElemType.maybeAssignTypeName(name + ".@elem")
		if elem == t.ElemType {
			return t
		}
		return newMapType(t.KeyType, elem, t.MaxElements)
	case t.isList():
		elem := t.ElemType.maybeAssignTypeName(name + ".@idx")
		if elem == t.ElemType {
			return t
		}
		return newListType(elem, t.MaxElements)
	}
	return t
}

// isNamed reports whether t is an object, a map or a list: a type
// maybeAssignTypeName names, and the type provider registers.
func (t *DeclType) isNamed() bool { return t.isObject() || t.isMap() || t.isList() }

// uniqueSelfTypeName is the name given to self's type: it changes on every
// compilation so that no rule can come to depend on it.
//
// Mirrors generateUniqueSelfTypeName in compilation.go.
func uniqueSelfTypeName() string {
	return fmt.Sprintf("selfType%d", time.Now().Nanosecond())
}

// typeProvider makes the object types of one DeclType tree known to the
// CEL checker: their fields and the fields' types.
//
// Mirrors apiservercel.DeclTypeProvider.
type typeProvider struct {
	types.Provider
	types.Adapter
	decls map[string]*DeclType
}

var _ types.Provider = (*typeProvider)(nil)

// newTypeProvider is the provider of the types decls (typeDecls) over
// the base provider of env. decls is only read: the providers of one
// tree's environments (New and Stored) share it.
func newTypeProvider(decls map[string]*DeclType, env *cel.Env) *typeProvider {
	p := &typeProvider{Provider: env.CELTypeProvider(), Adapter: types.DefaultTypeAdapter, decls: decls}
	if a, ok := env.CELTypeProvider().(types.Adapter); ok {
		p.Adapter = a
	}
	return p
}

// typeDecls registers root and every object, map and list under it by
// path.
func typeDecls(root *DeclType) map[string]*DeclType {
	decls := map[string]*DeclType{}
	registerType(decls, root.name, root)
	return decls
}

func registerType(decls map[string]*DeclType, path string, t *DeclType) {
	switch {
	case t.isObject():
		decls[t.name] = t
		for name, f := range t.Fields {
			// A scalar registers nothing: no path to make for it.
			if f.Type.isNamed() {
				registerType(decls, path+"."+name, f.Type)
			}
		}
	case t.isMap():
		registerType(decls, path+".@elem", t.ElemType)
		decls[path] = t
	case t.isList():
		registerType(decls, path+".@idx", t.ElemType)
		decls[path] = t
	}
}

func (p *typeProvider) FindStructType(name string) (*types.Type, bool) {
	if t, ok := p.decls[name]; ok {
		return types.NewTypeTypeWithParam(t.celType), true
	}
	return p.Provider.FindStructType(name)
}

func (p *typeProvider) FindStructFieldNames(string) ([]string, bool) { return []string{}, false }

// FindStructFieldType answers a field's type; a reserved word may be
// written as is (self.namespace for a field escaped as __namespace__).
func (p *typeProvider) FindStructFieldType(name, field string) (*types.FieldType, bool) {
	t, ok := p.decls[name]
	if !ok {
		return p.Provider.FindStructFieldType(name, field)
	}
	f, ok := t.Fields[field]
	if !ok && reservedSymbols[field] {
		f, ok = t.Fields["__"+field+"__"]
	}
	if ok {
		return &types.FieldType{Type: f.Type.celType}, true
	}
	if t.isMap() {
		return &types.FieldType{Type: t.ElemType.celType}, true
	}
	return nil, false
}

func (p *typeProvider) NativeToValue(v any) ref.Val { return p.Adapter.NativeToValue(v) }

// envOptions installs the provider.
func (p *typeProvider) envOptions() []cel.EnvOption {
	return []cel.EnvOption{cel.CustomTypeProvider(p), cel.CustomTypeAdapter(p)}
}
