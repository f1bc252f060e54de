package openapi

// The schemas of the meta types a custom resource document refers to,
// keyed by their upstream names. Hand-written with the fields kubectl
// explain shows most; descriptions are upstream's first sentences.

const metaPrefix = "io.k8s.apimachinery.pkg.apis.meta.v1."

// The names of the meta schemas.
const (
	objectMetaName    = metaPrefix + "ObjectMeta"
	listMetaName      = metaPrefix + "ListMeta"
	statusName        = metaPrefix + "Status"
	statusDetailsName = metaPrefix + "StatusDetails"
	statusCauseName   = metaPrefix + "StatusCause"
	deleteOptionsName = metaPrefix + "DeleteOptions"
	preconditionsName = metaPrefix + "Preconditions"
	patchName         = metaPrefix + "Patch"
	timeName          = metaPrefix + "Time"
	ownerRefName      = metaPrefix + "OwnerReference"
	managedFieldsName = metaPrefix + "ManagedFieldsEntry"
	fieldsV1Name      = metaPrefix + "FieldsV1"
	shardInfoName     = metaPrefix + "ShardInfo"
	scaleName         = "io.k8s.api.autoscaling.v1.Scale"
	scaleSpecName     = "io.k8s.api.autoscaling.v1.ScaleSpec"
	scaleStatusName   = "io.k8s.api.autoscaling.v1.ScaleStatus"
)

func ref(name string) map[string]any {
	return map[string]any{"$ref": "#/components/schemas/" + name}
}

// refProp is a property holding another schema: OpenAPI 3.0 ignores the
// siblings of a $ref, so the reference goes in a one-element allOf, as
// kube-openapi writes it. Its default {} is what kube-openapi's generated
// definitions give a Go struct field (Status.metadata, Scale.spec).
func refProp(name, description string) map[string]any {
	return map[string]any{"allOf": []any{ref(name)}, "default": map[string]any{}, "description": description}
}

// refField is refProp without the default: upstream's Time fields, and
// the metadata of a custom resource, its list and its embedded resources
// (builder.go in apiextensions' OpenAPI controller sets none there).
func refField(name, description string) map[string]any {
	return map[string]any{"allOf": []any{ref(name)}, "description": description}
}

func withDefault(s map[string]any, d any) map[string]any {
	s["default"] = d
	return s
}

func withListType(s map[string]any, t string) map[string]any {
	s["x-kubernetes-list-type"] = t
	return s
}

func prop(typ, description string) map[string]any {
	return map[string]any{"type": typ, "description": description}
}

func stringMap(description string) map[string]any {
	return map[string]any{"type": "object", "description": description,
		"additionalProperties": map[string]any{"type": "string"}}
}

func arrayOf(items map[string]any, description string) map[string]any {
	return map[string]any{"type": "array", "description": description, "items": items}
}

func int64Prop(description string) map[string]any {
	return map[string]any{"type": "integer", "format": "int64", "description": description}
}

func int32Prop(description string) map[string]any {
	return map[string]any{"type": "integer", "format": "int32", "description": description}
}

// The descriptions of apiVersion, kind and metadata, word for word
// upstream's.
const (
	apiVersionDescription = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	kindDescription       = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
	metadataDescription   = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
	listMetaDescription   = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
	// The descriptions of an embedded resource's apiVersion and kind.
	embeddedAPIVersionDescription = "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	embeddedKindDescription       = "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
)

func withGVK(s map[string]any, group, version, kind string) map[string]any {
	s["x-kubernetes-group-version-kind"] = []any{map[string]any{"group": group, "kind": kind, "version": version}}
	return s
}

// metaSchemas returns the meta schemas every group-version document holds;
// scale adds the autoscaling/v1 Scale ones.
func metaSchemas(scale bool) map[string]any {
	m := map[string]any{
		objectMetaName: map[string]any{
			"description": "ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.",
			"type":        "object",
			"properties": map[string]any{
				"annotations":                stringMap("Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/annotations"),
				"creationTimestamp":          refField(timeName, "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC."),
				"deletionGracePeriodSeconds": int64Prop("Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set. May only be shortened. Read-only."),
				"deletionTimestamp":          refField(timeName, "DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. This field is set by the server when a graceful deletion is requested by the user, and is not directly settable by a client."),
				"finalizers": map[string]any{"type": "array", "items": map[string]any{"type": "string"},
					"description":            "Must be empty before the object is deleted from the registry. Each entry is an identifier for the responsible component that will remove the entry from the list.",
					"x-kubernetes-list-type": "set", "x-kubernetes-patch-strategy": "merge"},
				"generateName": prop("string", "GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided."),
				"generation":   int64Prop("A sequence number representing a specific generation of the desired state. Populated by the system. Read-only."),
				"labels":       stringMap("Map of string keys and values that can be used to organize and categorize (scope and select) objects. May match selectors of replication controllers and services. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels"),
				"managedFields": map[string]any{"type": "array", "items": ref(managedFieldsName),
					"description":            "ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow. This is mostly for internal housekeeping, and users typically shouldn't need to set or understand this field.",
					"x-kubernetes-list-type": "atomic"},
				"name":      prop("string", "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"),
				"namespace": prop("string", "Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the \"default\" namespace, but \"default\" is the canonical representation. Not all objects are required to be scoped to a namespace - the value of this field for those objects will be empty. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces"),
				"ownerReferences": map[string]any{"type": "array", "items": ref(ownerRefName),
					"description":            "List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected.",
					"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"uid"},
					"x-kubernetes-patch-merge-key": "uid", "x-kubernetes-patch-strategy": "merge"},
				"resourceVersion": prop("string", "An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency"),
				"selfLink":        prop("string", "Deprecated: selfLink is a legacy read-only field that is no longer populated by the system."),
				"uid":             prop("string", "UID is the unique in time and space value for this object. It is typically generated by the server on successful creation of a resource and is not allowed to change on PUT operations. Populated by the system. Read-only. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids"),
			},
		},
		listMetaName: map[string]any{
			"description": "ListMeta describes metadata that synthetic resources must have, including lists and various status objects.",
			"type":        "object",
			"properties": map[string]any{
				"continue":           prop("string", "continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available."),
				"remainingItemCount": int64Prop("remainingItemCount is the number of subsequent items in the list which are not included in this list response."),
				"resourceVersion":    prop("string", "String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed. Value must be treated as opaque by clients and passed unmodified back to the server. Populated by the system. Read-only."),
				"selfLink":           prop("string", "Deprecated: selfLink is a legacy read-only field that is no longer populated by the system."),
				"shardInfo":          refField(shardInfoName, "shardInfo is set when the list is a filtered subset of the full collection, as selected by a shard selector on the request. This is an alpha field."),
			},
		},
		shardInfoName: map[string]any{
			"description": "ShardInfo describes the shard selector that was applied to produce a list response.",
			"type":        "object",
			"required":    []any{"selector"},
			"properties": map[string]any{
				"selector": map[string]any{"type": "string", "default": "", "description": "selector is the shard selector string from the request."},
			},
		},
		timeName: map[string]any{
			"description": "Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.",
			"type":        "string", "format": "date-time",
		},
		ownerRefName: map[string]any{
			"description": "OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.",
			"type":        "object",
			"required":    []any{"apiVersion", "kind", "name", "uid"},
			"properties": map[string]any{
				"apiVersion":         withDefault(prop("string", "API version of the referent."), ""),
				"blockOwnerDeletion": prop("boolean", "If true, AND if the owner has the \"foregroundDeletion\" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed."),
				"controller":         prop("boolean", "If true, this reference points to the managing controller."),
				"kind":               withDefault(prop("string", "Kind of the referent. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"), ""),
				"name":               withDefault(prop("string", "Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"), ""),
				"uid":                withDefault(prop("string", "UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids"), ""),
			},
			"x-kubernetes-map-type": "atomic",
		},
		managedFieldsName: map[string]any{
			"description": "ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.",
			"type":        "object",
			"properties": map[string]any{
				"apiVersion":  prop("string", "APIVersion defines the version of this resource that this field set applies to."),
				"fieldsType":  prop("string", "FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: \"FieldsV1\""),
				"fieldsV1":    refField(fieldsV1Name, "FieldsV1 holds the first JSON version format as described in the \"FieldsV1\" type."),
				"manager":     prop("string", "Manager is an identifier of the workflow managing these fields."),
				"operation":   prop("string", "Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'."),
				"subresource": prop("string", "Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource."),
				"time":        refField(timeName, "Time is the timestamp of when the ManagedFields entry was added."),
			},
		},
		fieldsV1Name: map[string]any{
			"description": "FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.",
			"type":        "object",
		},
		statusName: withGVK(map[string]any{
			"description": "Status is a return value for calls that don't return other objects.",
			"type":        "object",
			"properties": map[string]any{
				"apiVersion": prop("string", apiVersionDescription),
				"code":       int32Prop("Suggested HTTP return code for this status, 0 if not set."),
				"details": map[string]any{"allOf": []any{ref(statusDetailsName)},
					"description": "Extended data associated with the reason.  Each reason may define its own extended details. This field is optional and the data returned is not guaranteed to conform to any schema except that defined by the reason type."},
				"kind":     prop("string", kindDescription),
				"message":  prop("string", "A human-readable description of the status of this operation."),
				"metadata": refProp(listMetaName, listMetaDescription),
				"reason":   prop("string", "A machine-readable description of why this operation is in the \"Failure\" status. If this value is empty there is no information available."),
				"status":   prop("string", "Status of the operation. One of: \"Success\" or \"Failure\". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status"),
			},
		}, "", "v1", "Status"),
		statusDetailsName: map[string]any{
			"description": "StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response.",
			"type":        "object",
			"properties": map[string]any{
				"causes": map[string]any{"type": "array", "items": ref(statusCauseName),
					"description":            "The Causes array includes more details associated with the StatusReason failure. Not all StatusReasons may provide detailed causes.",
					"x-kubernetes-list-type": "atomic"},
				"group":             prop("string", "The group attribute of the resource associated with the status StatusReason."),
				"kind":              prop("string", "The kind attribute of the resource associated with the status StatusReason."),
				"name":              prop("string", "The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described)."),
				"retryAfterSeconds": int32Prop("If specified, the time in seconds before the operation should be retried."),
				"uid":               prop("string", "UID of the resource. (when there is a single resource which can be described)."),
			},
		},
		statusCauseName: map[string]any{
			"description": "StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.",
			"type":        "object",
			"properties": map[string]any{
				"field":   prop("string", "The field of the resource that has caused this error, as named by its JSON serialization."),
				"message": prop("string", "A human-readable description of the cause of the error.  This field may be presented as-is to a reader."),
				"reason":  prop("string", "A machine-readable description of the cause of the error. If this value is empty there is no information available."),
			},
		},
		deleteOptionsName: map[string]any{
			"description": "DeleteOptions may be provided when deleting an API object.",
			"type":        "object",
			"properties": map[string]any{
				"apiVersion":         prop("string", apiVersionDescription),
				"dryRun":             withListType(arrayOf(map[string]any{"type": "string"}, "When present, indicates that modifications should not be persisted."), "atomic"),
				"gracePeriodSeconds": int64Prop("The duration in seconds before the object should be deleted."),
				"ignoreStoreReadErrorWithClusterBreakingPotential": prop("boolean", "if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error."),
				"kind":              prop("string", kindDescription),
				"orphanDependents":  prop("boolean", "Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7."),
				"preconditions":     map[string]any{"allOf": []any{ref(preconditionsName)}, "description": "Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned."},
				"propagationPolicy": prop("string", "Whether and how garbage collection will be performed."),
			},
		},
		preconditionsName: map[string]any{
			"description": "Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.",
			"type":        "object",
			"properties": map[string]any{
				"resourceVersion": prop("string", "Specifies the target ResourceVersion"),
				"uid":             prop("string", "Specifies the target UID."),
			},
		},
		patchName: map[string]any{
			"description": "Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.",
			"type":        "object",
		},
	}
	if scale {
		m[scaleName] = withGVK(map[string]any{
			"description": "Scale represents a scaling request for a resource.",
			"type":        "object",
			"properties": map[string]any{
				"apiVersion": prop("string", apiVersionDescription),
				"kind":       prop("string", kindDescription),
				"metadata":   refProp(objectMetaName, metadataDescription),
				"spec":       refProp(scaleSpecName, "spec defines the behavior of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status."),
				"status":     refProp(scaleStatusName, "status is the current status of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status. Read-only."),
			},
		}, "autoscaling", "v1", "Scale")
		m[scaleSpecName] = map[string]any{
			"description": "ScaleSpec describes the attributes of a scale subresource.",
			"type":        "object",
			"properties":  map[string]any{"replicas": int32Prop("replicas is the desired number of instances for the scaled object.")},
		}
		m[scaleStatusName] = map[string]any{
			"description": "ScaleStatus represents the current status of a scale subresource.",
			"type":        "object",
			"required":    []any{"replicas"},
			"properties": map[string]any{
				"replicas": map[string]any{"type": "integer", "format": "int32", "default": 0, "description": "replicas is the actual number of observed instances of the scaled object."},
				"selector": prop("string", "selector is the label query over pods that should match the replicas count. This is same as the label selector but in the string format to avoid introspection by the clients."),
			},
		}
	}
	return m
}
