package handler

// This file holds the schemas every kind's OpenAPI document shares:
// apiVersion, kind and metadata (ObjectMeta and the types it uses), which
// upstream's builder adds to each CRD's schema, so that `kubectl explain
// <kind>` lists them and `kubectl explain <kind>.metadata.labels` works.
//
// Mirrors addTypeMetaProperties in
// k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder/builder.go
// and the ObjectMeta definitions of k8s.io/apimachinery/pkg/apis/meta/v1
// (descriptions from its swagger docs, shortened).

// objectMetaSchemaName is ObjectMeta's key in components.schemas, as
// upstream names it.
const objectMetaSchemaName = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"

const (
	apiVersionDescription = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	kindDescription       = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
	metadataDescription   = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
)

// componentRef is a reference to a schema in components.schemas.
func componentRef(name string) map[string]any {
	return map[string]any{"$ref": "#/components/schemas/" + name}
}

// withTypeMeta returns a copy of a kind's schema with the apiVersion, kind
// and metadata properties upstream adds (metadata replaces whatever the
// CRD's schema says of it, as upstream: only name and generateName may be
// restricted there, and those restrictions are not documented).
func withTypeMeta(schema map[string]any) map[string]any {
	out := make(map[string]any, len(schema)+1)
	for k, v := range schema {
		out[k] = v
	}
	props := map[string]any{}
	if p, ok := schema["properties"].(map[string]any); ok {
		for k, v := range p {
			props[k] = v
		}
	}
	props["apiVersion"] = map[string]any{"type": "string", "description": apiVersionDescription}
	props["kind"] = map[string]any{"type": "string", "description": kindDescription}
	// OpenAPI v3 ignores siblings of a $ref: wrap it in allOf, as
	// upstream's v3 documents do.
	props["metadata"] = map[string]any{"allOf": []any{componentRef(objectMetaSchemaName)}, "description": metadataDescription}
	out["properties"] = props
	if _, ok := out["type"]; !ok {
		out["type"] = "object"
	}
	return out
}

// metaSchemas are the schemas metadata refers to, by component name.
func metaSchemas() map[string]any {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	timeRef := func(desc string) map[string]any {
		return map[string]any{"allOf": []any{componentRef("io.k8s.apimachinery.pkg.apis.meta.v1.Time")}, "description": desc}
	}
	stringMap := func(desc string) map[string]any {
		return map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string", "default": ""}, "description": desc}
	}
	listOf := func(item any, desc string) map[string]any {
		return map[string]any{"type": "array", "items": item, "description": desc}
	}
	return map[string]any{
		objectMetaSchemaName: map[string]any{
			"type":        "object",
			"description": "ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.",
			"properties": map[string]any{
				"annotations":                stringMap("Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata. They are not queryable and should be preserved when modifying objects. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/annotations"),
				"creationTimestamp":          timeRef(creationTimestampColumnDescription),
				"deletionGracePeriodSeconds": map[string]any{"type": "integer", "format": "int64", "description": "Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set. May only be shortened. Read-only."},
				"deletionTimestamp":          timeRef("DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. This field is set by the server when a graceful deletion is requested by the user, and is not directly settable by a client. Populated by the system when a graceful deletion is requested. Read-only."),
				"finalizers":                 listOf(map[string]any{"type": "string", "default": ""}, "Must be empty before the object is deleted from the registry. Each entry is an identifier for the responsible component that will remove the entry from the list. If the deletionTimestamp of the object is non-nil, entries in this list can only be removed."),
				"generateName":               str("GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#idempotency"),
				"generation":                 map[string]any{"type": "integer", "format": "int64", "description": "A sequence number representing a specific generation of the desired state. Populated by the system. Read-only."},
				"labels":                     stringMap("Map of string keys and values that can be used to organize and categorize (scope and select) objects. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels"),
				"managedFields":              listOf(map[string]any{"allOf": []any{componentRef("io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry")}, "default": map[string]any{}}, "ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow. This is mostly for internal housekeeping, and users typically shouldn't need to set or understand this field."),
				"name":                       str(nameColumnDescription),
				"namespace":                  str("Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the \"default\" namespace, but \"default\" is the canonical representation. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces"),
				"ownerReferences":            listOf(map[string]any{"allOf": []any{componentRef("io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference")}, "default": map[string]any{}}, "List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected."),
				"resourceVersion":            str("An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency"),
				"selfLink":                   str("Deprecated: selfLink is a legacy read-only field that is no longer populated by the system."),
				"uid":                        str("UID is the unique in time and space value for this object. It is typically generated by the server on successful creation of a resource and is not allowed to change on PUT operations. Populated by the system. Read-only. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids"),
			},
		},
		"io.k8s.apimachinery.pkg.apis.meta.v1.Time": map[string]any{
			"type": "string", "format": "date-time",
			"description": "Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.",
		},
		"io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference": map[string]any{
			"type":                  "object",
			"description":           "OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.",
			"required":              []any{"apiVersion", "kind", "name", "uid"},
			"x-kubernetes-map-type": "atomic",
			"properties": map[string]any{
				"apiVersion":         str("API version of the referent."),
				"blockOwnerDeletion": map[string]any{"type": "boolean", "description": "If true, AND if the owner has the \"foregroundDeletion\" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed."},
				"controller":         map[string]any{"type": "boolean", "description": "If true, this reference points to the managing controller."},
				"kind":               str("Kind of the referent. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"),
				"name":               str("Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"),
				"uid":                str("UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids"),
			},
		},
		"io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry": map[string]any{
			"type":        "object",
			"description": "ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.",
			"properties": map[string]any{
				"apiVersion":  str("APIVersion defines the version of this resource that this field set applies to."),
				"fieldsType":  str("FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: \"FieldsV1\""),
				"fieldsV1":    map[string]any{"type": "object", "description": "FieldsV1 holds the first JSON version format as described in the \"FieldsV1\" type."},
				"manager":     str("Manager is an identifier of the workflow managing these fields."),
				"operation":   str("Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'."),
				"subresource": str("Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource."),
				"time":        timeRef("Time is the timestamp of when the ManagedFields entry was added."),
			},
		},
	}
}
