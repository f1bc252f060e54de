package protobuf

import (
	"sync"
	"time"
)

// This file holds the descriptors: the field tables of upstream's
// generated.proto files, written out by hand. Field numbers are the
// protobuf ones; names are the Go types' JSON names (which differ from the
// proto names here and there: $schema, x-kubernetes-…).

// descriptorSet is every descriptor crdlab has, built once.
type descriptorSet struct {
	envelope, deleteOptions, customResourceDefinition *descriptor
	// builtin holds the built-in kinds, by "apiVersion/kind" (builtin.go).
	builtin map[string]*descriptor
}

// descriptors builds the set on first use; it is never changed after.
var descriptors = sync.OnceValue(newDescriptors)

// Shorthands for field tables.
func str(name string) field     { return field{name: name, kind: kindString} }
func optStr(name string) field  { return field{name: name, kind: kindString, optional: true} }
func strs(name string) field    { return field{name: name, kind: kindString, repeated: true} }
func boolean(name string) field { return field{name: name, kind: kindBool} }
func optBool(name string) field { return field{name: name, kind: kindBool, optional: true} }
func i64(name string) field     { return field{name: name, kind: kindInt64} }
func optI64(name string) field  { return field{name: name, kind: kindInt64, optional: true} }
func optI32(name string) field  { return field{name: name, kind: kindInt32, optional: true} }
func optF64(name string) field  { return field{name: name, kind: kindDouble, optional: true} }
func msg(name string, d *descriptor) field {
	return field{name: name, kind: kindMessage, msg: d}
}
func msgs(name string, d *descriptor) field {
	return field{name: name, kind: kindMessage, msg: d, repeated: true}
}
func msgMap(name string, d *descriptor) field {
	return field{name: name, kind: kindMessage, msg: d, isMap: true}
}

func newDescriptors() descriptorSet {
	// k8s.io/apimachinery/pkg/runtime/generated.proto
	typeMeta := &descriptor{name: "TypeMeta", fields: map[int]field{1: str("apiVersion"), 2: str("kind")}}
	envelope := &descriptor{name: "Unknown", fields: map[int]field{
		1: msg("typeMeta", typeMeta),
		2: {name: "raw", kind: kindBytes},
		3: str("contentEncoding"),
		4: str("contentType"),
	}}

	// k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto
	t := &descriptor{name: "Time", fields: map[int]field{1: i64("seconds"), 2: {name: "nanos", kind: kindInt32}},
		toJSON: timeToJSON}
	ownerReference := &descriptor{name: "OwnerReference", fields: map[int]field{
		5: str("apiVersion"), 1: str("kind"), 3: str("name"), 4: str("uid"),
		6: optBool("controller"), 7: optBool("blockOwnerDeletion"),
	}}
	fieldsV1 := &descriptor{name: "FieldsV1", fields: map[int]field{1: {name: "Raw", kind: kindBytes}},
		toJSON: func(f map[string]any) (any, error) {
			b, _ := f["Raw"].([]byte)
			return rawJSON(b, "fieldsV1")
		}}
	managedFieldsEntry := &descriptor{name: "ManagedFieldsEntry", fields: map[int]field{
		1: str("manager"), 2: str("operation"), 3: str("apiVersion"), 4: msg("time", t),
		6: str("fieldsType"), 7: msg("fieldsV1", fieldsV1), 8: str("subresource"),
	}}
	objectMeta := &descriptor{name: "ObjectMeta", fields: map[int]field{
		1: str("name"), 2: str("generateName"), 3: str("namespace"), 4: str("selfLink"),
		5: str("uid"), 6: str("resourceVersion"), 7: i64("generation"),
		8: msg("creationTimestamp", t), 9: msg("deletionTimestamp", t),
		10: optI64("deletionGracePeriodSeconds"),
		11: {name: "labels", kind: kindString, isMap: true},
		12: {name: "annotations", kind: kindString, isMap: true},
		13: msgs("ownerReferences", ownerReference),
		14: strs("finalizers"),
		17: msgs("managedFields", managedFieldsEntry),
	}}
	preconditions := &descriptor{name: "Preconditions", fields: map[int]field{1: optStr("uid"), 2: optStr("resourceVersion")}}
	deleteOptions := &descriptor{name: "DeleteOptions", fields: map[int]field{
		1: optI64("gracePeriodSeconds"), 2: msg("preconditions", preconditions),
		3: optBool("orphanDependents"), 4: optStr("propagationPolicy"), 5: strs("dryRun"),
		6: optBool("ignoreStoreReadErrorWithClusterBreakingPotential"),
	}}

	// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/generated.proto
	jsonValue := &descriptor{name: "JSON", fields: map[int]field{1: {name: "raw", kind: kindBytes}},
		toJSON: func(f map[string]any) (any, error) {
			b, _ := f["raw"].([]byte)
			return rawJSON(b, "a JSON value")
		}}
	externalDocs := &descriptor{name: "ExternalDocumentation", fields: map[int]field{1: str("description"), 2: str("url")}}
	validationRule := &descriptor{name: "ValidationRule", fields: map[int]field{
		1: str("rule"), 2: str("message"), 3: str("messageExpression"), 4: optStr("reason"),
		5: str("fieldPath"), 6: optBool("optionalOldSelf"),
	}}
	props := &descriptor{name: "JSONSchemaProps"}
	propsOrArray := &descriptor{name: "JSONSchemaPropsOrArray",
		fields: map[int]field{1: msg("schema", props), 2: msgs("jSONSchemas", props)},
		// Mirrors (JSONSchemaPropsOrArray).MarshalJSON in marshal.go.
		toJSON: func(f map[string]any) (any, error) {
			if list, ok := f["jSONSchemas"].([]any); ok && len(list) > 0 {
				return list, nil
			}
			return f["schema"], nil
		}}
	propsOrBool := &descriptor{name: "JSONSchemaPropsOrBool",
		fields: map[int]field{1: boolean("allows"), 2: msg("schema", props)},
		// Mirrors (JSONSchemaPropsOrBool).MarshalJSON: the schema if any,
		// else the bool.
		toJSON: func(f map[string]any) (any, error) {
			if s, ok := f["schema"]; ok {
				return s, nil
			}
			allows, _ := f["allows"].(bool)
			return allows, nil
		}}
	propsOrStringArray := &descriptor{name: "JSONSchemaPropsOrStringArray",
		fields: map[int]field{1: msg("schema", props), 2: strs("property")},
		// Mirrors (JSONSchemaPropsOrStringArray).MarshalJSON.
		toJSON: func(f map[string]any) (any, error) {
			if list, ok := f["property"].([]any); ok && len(list) > 0 {
				return list, nil
			}
			return f["schema"], nil
		}}
	props.fields = map[int]field{
		1: str("id"), 2: str("$schema"), 3: str("$ref"), 4: str("description"),
		5: str("type"), 6: str("format"), 7: str("title"),
		8:  msg("default", jsonValue),
		9:  optF64("maximum"),
		10: boolean("exclusiveMaximum"),
		11: optF64("minimum"),
		12: boolean("exclusiveMinimum"),
		13: optI64("maxLength"), 14: optI64("minLength"),
		15: str("pattern"),
		16: optI64("maxItems"), 17: optI64("minItems"),
		18: boolean("uniqueItems"),
		19: optF64("multipleOf"),
		20: msgs("enum", jsonValue),
		21: optI64("maxProperties"), 22: optI64("minProperties"),
		23: strs("required"),
		24: msg("items", propsOrArray),
		25: msgs("allOf", props), 26: msgs("oneOf", props), 27: msgs("anyOf", props),
		28: msg("not", props),
		29: msgMap("properties", props),
		30: msg("additionalProperties", propsOrBool),
		31: msgMap("patternProperties", props),
		32: msgMap("dependencies", propsOrStringArray),
		33: msg("additionalItems", propsOrBool),
		34: msgMap("definitions", props),
		35: msg("externalDocs", externalDocs),
		36: msg("example", jsonValue),
		37: boolean("nullable"),
		38: optBool("x-kubernetes-preserve-unknown-fields"),
		39: boolean("x-kubernetes-embedded-resource"),
		40: boolean("x-kubernetes-int-or-string"),
		41: strs("x-kubernetes-list-map-keys"),
		42: optStr("x-kubernetes-list-type"),
		43: optStr("x-kubernetes-map-type"),
		44: msgs("x-kubernetes-validations", validationRule),
	}

	names := &descriptor{name: "CustomResourceDefinitionNames", fields: map[int]field{
		1: str("plural"), 2: str("singular"), 3: strs("shortNames"), 4: str("kind"),
		5: str("listKind"), 6: strs("categories"),
	}}
	validation := &descriptor{name: "CustomResourceValidation", fields: map[int]field{1: msg("openAPIV3Schema", props)}}
	subresourceStatus := &descriptor{name: "CustomResourceSubresourceStatus", fields: map[int]field{}}
	subresourceScale := &descriptor{name: "CustomResourceSubresourceScale", fields: map[int]field{
		1: str("specReplicasPath"), 2: str("statusReplicasPath"), 3: optStr("labelSelectorPath"),
	}}
	subresources := &descriptor{name: "CustomResourceSubresources", fields: map[int]field{
		1: msg("status", subresourceStatus), 2: msg("scale", subresourceScale),
	}}
	column := &descriptor{name: "CustomResourceColumnDefinition", fields: map[int]field{
		1: str("name"), 2: str("type"), 3: str("format"), 4: str("description"),
		5: {name: "priority", kind: kindInt32}, 6: str("jsonPath"),
	}}
	selectableField := &descriptor{name: "SelectableField", fields: map[int]field{1: str("jsonPath")}}
	version := &descriptor{name: "CustomResourceDefinitionVersion", fields: map[int]field{
		1: str("name"), 2: boolean("served"), 3: boolean("storage"),
		7: boolean("deprecated"), 8: optStr("deprecationWarning"),
		4: msg("schema", validation), 5: msg("subresources", subresources),
		6: msgs("additionalPrinterColumns", column),
		9: msgs("selectableFields", selectableField),
	}}
	serviceReference := &descriptor{name: "ServiceReference", fields: map[int]field{
		1: str("namespace"), 2: str("name"), 3: optStr("path"), 4: optI32("port"),
	}}
	clientConfig := &descriptor{name: "WebhookClientConfig", fields: map[int]field{
		3: optStr("url"), 1: msg("service", serviceReference), 2: {name: "caBundle", kind: kindBytes},
	}}
	webhook := &descriptor{name: "WebhookConversion", fields: map[int]field{
		2: msg("clientConfig", clientConfig), 3: strs("conversionReviewVersions"),
	}}
	conversion := &descriptor{name: "CustomResourceConversion", fields: map[int]field{
		1: str("strategy"), 2: msg("webhook", webhook),
	}}
	spec := &descriptor{name: "CustomResourceDefinitionSpec", fields: map[int]field{
		1: str("group"), 3: msg("names", names), 4: str("scope"),
		7: msgs("versions", version), 9: msg("conversion", conversion),
		10: boolean("preserveUnknownFields"),
	}}
	condition := &descriptor{name: "CustomResourceDefinitionCondition", fields: map[int]field{
		1: str("type"), 2: str("status"), 3: msg("lastTransitionTime", t),
		4: str("reason"), 5: str("message"), 6: i64("observedGeneration"),
	}}
	status := &descriptor{name: "CustomResourceDefinitionStatus", fields: map[int]field{
		1: msgs("conditions", condition), 2: msg("acceptedNames", names),
		3: strs("storedVersions"), 4: i64("observedGeneration"),
	}}
	crd := &descriptor{name: "CustomResourceDefinition", fields: map[int]field{
		1: msg("metadata", objectMeta), 2: msg("spec", spec), 3: msg("status", status),
	}}

	return descriptorSet{envelope: envelope, deleteOptions: deleteOptions, customResourceDefinition: crd,
		builtin: builtinDescriptors(objectMeta, t)}
}

// zeroTimeSeconds is time.Time{}.Unix(): a zero metav1.Time, should a
// client send one with seconds set.
const zeroTimeSeconds = -62135596800

// timeToJSON turns a Time message into metav1.Time's JSON: RFC 3339 in UTC,
// whole seconds. An empty message is the zero time, which JSON leaves out.
//
// Mirrors (*Time).Unmarshal in meta/v1/time_proto.go and (Time).MarshalJSON.
func timeToJSON(f map[string]any) (any, error) {
	s, _ := f["seconds"].(int64)
	n, _ := f["nanos"].(int64)
	if len(f) == 0 || (s == zeroTimeSeconds && n == 0) {
		return nil, nil
	}
	return time.Unix(s, n).UTC().Format(time.RFC3339), nil
}
