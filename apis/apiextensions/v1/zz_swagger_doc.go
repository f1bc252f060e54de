// Code written by hand in the shape of upstream's generated
// types_swagger_doc_generated.go: one SwaggerDoc method per type.

package v1

// The descriptions of the apiextensions.k8s.io/v1 types and their fields,
// which /openapi/v3/apis/apiextensions.k8s.io/v1 serves (openapi.GoTypes
// reads them) and `kubectl explain crd.spec` prints. "" describes the type,
// any other key the field of that JSON name; TestSwaggerDoc checks that
// every key names a field and that every field has a description.
//
// Mirrors types_swagger_doc_generated.go in
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1, which
// upstream generates from the comments on the Go fields; the text is
// upstream's, shortened in places, with crdlab's differences noted.

func (CustomResourceDefinition) SwaggerDoc() map[string]string {
	return map[string]string{
		"":         "CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.",
		"metadata": "Standard object's metadata More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
		"spec":     "spec describes how the user wants the resources to appear",
		"status":   "status indicates the actual state of the CustomResourceDefinition",
	}
}

func (CustomResourceDefinitionList) SwaggerDoc() map[string]string {
	return map[string]string{
		"":         "CustomResourceDefinitionList is a list of CustomResourceDefinition objects.",
		"metadata": "Standard object's metadata More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
		"items":    "items list individual CustomResourceDefinition objects",
	}
}

func (CustomResourceDefinitionSpec) SwaggerDoc() map[string]string {
	return map[string]string{
		"":                      "CustomResourceDefinitionSpec describes how a user wants their resource to appear",
		"group":                 "group is the API group of the defined custom resource. The custom resources are served under `/apis/<group>/...`. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`).",
		"names":                 "names specify the resource and kind names for the custom resource.",
		"scope":                 "scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed values are `Cluster` and `Namespaced`.",
		"versions":              "versions is the list of all API versions of the defined custom resource. Version names are used to compute the order in which served versions are listed in API discovery. If the version string is \"kube-like\", it will sort above non \"kube-like\" version strings, which are ordered lexicographically. \"Kube-like\" versions start with a \"v\", then are followed by a number (the major version), then optionally the string \"alpha\" or \"beta\" and another number (the minor version). These are sorted first by GA > beta > alpha (where GA is a version with no suffix such as beta or alpha), and then by comparing major version, then minor version. An example sorted list of versions: v10, v2, v1, v11beta2, v10beta3, v3beta1, v12alpha1, v11alpha2, foo1, foo10.",
		"conversion":            "conversion defines conversion settings for the CRD.",
		"preserveUnknownFields": "preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage. apiVersion, kind, metadata and known fields inside metadata are always preserved. This field is deprecated in favor of setting `x-preserve-unknown-fields` to true in `spec.versions[*].schema.openAPIV3Schema`. See https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#field-pruning for details.",
	}
}

func (CustomResourceConversion) SwaggerDoc() map[string]string {
	return map[string]string{
		"":         "CustomResourceConversion describes how to convert different versions of a CR.",
		"strategy": "strategy specifies how custom resources are converted between versions. Allowed values are: - `\"None\"`: The converter only change the apiVersion and would not touch any other field in the custom resource. - `\"Webhook\"`: API Server will call to an external webhook to do the conversion. Additional information is needed for this option. This requires spec.preserveUnknownFields to be false, and spec.conversion.webhook to be set. (crdlab serves `None` only.)",
		"webhook":  "webhook describes how to call the conversion webhook. Required when `strategy` is set to `\"Webhook\"`.",
	}
}

func (WebhookConversion) SwaggerDoc() map[string]string {
	return map[string]string{
		"":                         "WebhookConversion describes how to call a conversion webhook",
		"clientConfig":             "clientConfig is the instructions for how to call the webhook if strategy is `Webhook`.",
		"conversionReviewVersions": "conversionReviewVersions is an ordered list of preferred `ConversionReview` versions the Webhook expects. The API server will use the first version in the list which it supports. If none of the versions specified in this list are supported by API server, conversion will fail for the custom resource.",
	}
}

func (WebhookClientConfig) SwaggerDoc() map[string]string {
	return map[string]string{
		"":         "WebhookClientConfig contains the information to make a TLS connection with the webhook.",
		"url":      "url gives the location of the webhook, in standard URL form (`scheme://host:port/path`). Exactly one of `url` or `service` must be specified.",
		"service":  "service is a reference to the service for this webhook. Either service or url must be specified. If the webhook is running within the cluster, then you should use `service`.",
		"caBundle": "caBundle is a PEM encoded CA bundle which will be used to validate the webhook's server certificate. If unspecified, system trust roots on the apiserver are used.",
	}
}

func (ServiceReference) SwaggerDoc() map[string]string {
	return map[string]string{
		"":          "ServiceReference holds a reference to Service.legacy.k8s.io",
		"namespace": "namespace is the namespace of the service. Required",
		"name":      "name is the name of the service. Required",
		"path":      "path is an optional URL path at which the webhook will be contacted.",
		"port":      "port is an optional service port at which the webhook will be contacted. `port` should be a valid port number (1-65535, inclusive). Defaults to 443 for backward compatibility.",
	}
}

func (CustomResourceDefinitionVersion) SwaggerDoc() map[string]string {
	return map[string]string{
		"":                         "CustomResourceDefinitionVersion describes a version for CRD.",
		"name":                     "name is the version name, e.g. “v1”, “v2beta1”, etc. The custom resources are served under this version at `/apis/<group>/<version>/...` if `served` is true.",
		"served":                   "served is a flag enabling/disabling this version from being served via REST APIs",
		"storage":                  "storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.",
		"deprecated":               "deprecated indicates this version of the custom resource API is deprecated. When set to true, API requests to this version receive a warning header in the server response. Defaults to false.",
		"deprecationWarning":       "deprecationWarning overrides the default warning returned to API clients. May only be set when `deprecated` is true. The default warning indicates this version is deprecated and recommends use of the newest served version of equal or greater stability, if one exists.",
		"schema":                   "schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.",
		"subresources":             "subresources specify what subresources this version of the defined custom resource have.",
		"additionalPrinterColumns": "additionalPrinterColumns specifies additional columns returned in Table output. See https://kubernetes.io/docs/reference/using-api/api-concepts/#receiving-resources-as-tables for details. If no columns are specified, a single column displaying the age of the custom resource is used.",
		"selectableFields":         "selectableFields specifies paths to fields that may be used as field selectors. A maximum of 8 selectable fields are allowed. See https://kubernetes.io/docs/concepts/overview/working-with-objects/field-selectors",
	}
}

func (SelectableField) SwaggerDoc() map[string]string {
	return map[string]string{
		"":         "SelectableField specifies the JSON path of a field that may be used with field selectors.",
		"jsonPath": "jsonPath is a simple JSON path which is evaluated against each custom resource to produce a field selector value. Only JSON paths without the array notation are allowed. Must point to a field of type string, boolean or integer. If jsonPath refers to absent field in a resource, the jsonPath evaluates to an empty string. Must not point to metdata fields. Required.",
	}
}

func (CustomResourceColumnDefinition) SwaggerDoc() map[string]string {
	return map[string]string{
		"":            "CustomResourceColumnDefinition specifies a column for server side printing.",
		"name":        "name is a human readable name for the column.",
		"type":        "type is an OpenAPI type definition for this column. See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for details.",
		"format":      "format is an optional OpenAPI type definition for this column. The 'name' format is applied to the primary identifier column to assist in clients identifying column is the resource name. See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for details.",
		"description": "description is a human readable description of this column.",
		"priority":    "priority is an integer defining the relative importance of this column compared to others. Lower numbers are considered higher priority. Columns that may be omitted in limited space scenarios should be given a priority greater than 0.",
		"jsonPath":    "jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against each custom resource to produce the value for this column.",
	}
}

func (CustomResourceDefinitionNames) SwaggerDoc() map[string]string {
	return map[string]string{
		"":           "CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition",
		"plural":     "plural is the plural name of the resource to serve. The custom resources are served under `/apis/<group>/<version>/.../<plural>`. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`). Must be all lowercase.",
		"singular":   "singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.",
		"shortNames": "shortNames are short names for the resource, exposed in API discovery documents, and used by clients to support invocations like `kubectl get <shortname>`. It must be all lowercase.",
		"kind":       "kind is the serialized kind of the resource. It is normally CamelCase and singular. Custom resource instances will use this value as the `kind` attribute in API calls.",
		"listKind":   "listKind is the serialized kind of the list for this resource. Defaults to \"`kind`List\".",
		"categories": "categories is a list of grouped resources this custom resource belongs to (e.g. 'all'). This is published in API discovery documents, and used by clients to support invocations like `kubectl get all`.",
	}
}

func (CustomResourceDefinitionCondition) SwaggerDoc() map[string]string {
	return map[string]string{
		"":                   "CustomResourceDefinitionCondition contains details for the current condition of this CustomResourceDefinition.",
		"type":               "type is the type of the condition. Types include Established, NamesAccepted and Terminating.",
		"status":             "status is the status of the condition. Can be True, False, Unknown.",
		"lastTransitionTime": "lastTransitionTime last time the condition transitioned from one status to another.",
		"reason":             "reason is a unique, one-word, CamelCase reason for the condition's last transition.",
		"message":            "message is a human-readable message indicating details about last transition.",
		"observedGeneration": "observedGeneration represents the .metadata.generation that the condition was set based upon. For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date with respect to the current state of the instance.",
	}
}

func (CustomResourceDefinitionStatus) SwaggerDoc() map[string]string {
	return map[string]string{
		"":                   "CustomResourceDefinitionStatus indicates the state of the CustomResourceDefinition",
		"conditions":         "conditions indicate state for particular aspects of a CustomResourceDefinition",
		"acceptedNames":      "acceptedNames are the names that are actually being used to serve discovery. They may be different than the names in spec.",
		"storedVersions":     "storedVersions lists all versions of CustomResources that were ever persisted. Tracking these versions allows a migration path for stored versions in etcd. The field is mutable so a migration controller can finish a migration to another version (ensuring no old objects are left in storage), and then remove the rest of the versions from this list. Versions may not be removed from `spec.versions` while they exist in this list.",
		"observedGeneration": "The generation observed by the CRD controller.",
	}
}

func (CustomResourceValidation) SwaggerDoc() map[string]string {
	return map[string]string{
		"":                "CustomResourceValidation is a list of validation methods for CustomResources.",
		"openAPIV3Schema": "openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.",
	}
}

func (CustomResourceSubresources) SwaggerDoc() map[string]string {
	return map[string]string{
		"":       "CustomResourceSubresources defines the status and scale subresources for CustomResources.",
		"status": "status indicates the custom resource should serve a `/status` subresource. When enabled: 1. requests to the custom resource primary endpoint ignore changes to the `status` stanza of the object. 2. requests to the custom resource `/status` subresource ignore changes to anything other than the `status` stanza of the object.",
		"scale":  "scale indicates the custom resource should serve a `/scale` subresource that returns an `autoscaling/v1` Scale object.",
	}
}

func (CustomResourceSubresourceStatus) SwaggerDoc() map[string]string {
	return map[string]string{
		"": "CustomResourceSubresourceStatus defines how to serve the status subresource for CustomResources. Status is represented by the `.status` JSON path inside of a CustomResource. When set, * exposes a /status subresource for the custom resource * PUT requests to the /status subresource take a custom resource object, and ignore changes to anything except the status stanza * PUT/POST/PATCH requests to the custom resource ignore changes to the status stanza",
	}
}

func (CustomResourceSubresourceScale) SwaggerDoc() map[string]string {
	return map[string]string{
		"":                   "CustomResourceSubresourceScale defines how to serve the scale subresource for CustomResources.",
		"specReplicasPath":   "specReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `spec.replicas`. Only JSON paths without the array notation are allowed. Must be a JSON Path under `.spec`. If there is no value under the given path in the custom resource, the `/scale` subresource will return an error on GET.",
		"statusReplicasPath": "statusReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `status.replicas`. Only JSON paths without the array notation are allowed. Must be a JSON Path under `.status`. If there is no value under the given path in the custom resource, the `status.replicas` value in the `/scale` subresource will default to 0.",
		"labelSelectorPath":  "labelSelectorPath defines the JSON path inside of a custom resource that corresponds to Scale `status.selector`. Only JSON paths without the array notation are allowed. Must be a JSON Path under `.status` or `.spec`. Must be set to work with HorizontalPodAutoscaler. The field pointed by this JSON path must be a string field (not a complex selector struct) which contains a serialized label selector in string form. If there is no value under the given path in the custom resource, the `status.selector` value in the `/scale` subresource will default to the empty string.",
	}
}

func (JSONSchemaProps) SwaggerDoc() map[string]string {
	return map[string]string{
		"":                                     "JSONSchemaProps is a JSON-Schema following Specification Draft 4 (http://json-schema.org/).",
		"id":                                   "id is the schema's identifier (JSON Schema draft 4).",
		"$schema":                              "$schema is the URI of the JSON Schema dialect.",
		"$ref":                                 "$ref refers to another schema. Not allowed in a CustomResourceDefinition.",
		"description":                          "description is a human readable description of the field, which `kubectl explain` prints.",
		"type":                                 "type is the JSON type of the value: object, array, string, integer, number or boolean.",
		"format":                               "format is an OpenAPI v3 format string. Unknown formats are ignored. The following formats are validated: bsonobjectid, uri, email, hostname, ipv4, ipv6, cidr, mac, uuid, uuid3, uuid4, uuid5, isbn, isbn10, isbn13, creditcard, ssn, hexcolor, rgbcolor, byte, password, date, duration, datetime.",
		"title":                                "title is a short human readable title of the field.",
		"default":                              "default is a default value for undefined object fields. Defaulting requires spec.preserveUnknownFields to be false.",
		"maximum":                              "maximum is the largest allowed value of a number.",
		"exclusiveMaximum":                     "exclusiveMaximum makes maximum itself not allowed.",
		"minimum":                              "minimum is the smallest allowed value of a number.",
		"exclusiveMinimum":                     "exclusiveMinimum makes minimum itself not allowed.",
		"maxLength":                            "maxLength is the largest allowed length of a string.",
		"minLength":                            "minLength is the smallest allowed length of a string.",
		"pattern":                              "pattern is a regular expression a string must match.",
		"maxItems":                             "maxItems is the largest allowed number of items of an array.",
		"minItems":                             "minItems is the smallest allowed number of items of an array.",
		"uniqueItems":                          "uniqueItems forbids two equal items in an array (only false is allowed in a structural schema; use x-kubernetes-list-type: set).",
		"multipleOf":                           "multipleOf requires a number to be a multiple of it.",
		"enum":                                 "enum lists the allowed values.",
		"maxProperties":                        "maxProperties is the largest allowed number of properties of an object.",
		"minProperties":                        "minProperties is the smallest allowed number of properties of an object.",
		"required":                             "required lists the properties an object must have.",
		"items":                                "items is the schema of the items of an array.",
		"allOf":                                "allOf lists schemas the value must all match.",
		"oneOf":                                "oneOf lists schemas of which the value must match exactly one.",
		"anyOf":                                "anyOf lists schemas of which the value must match at least one.",
		"not":                                  "not is a schema the value must not match.",
		"properties":                           "properties are the schemas of an object's fields, by name.",
		"additionalProperties":                 "additionalProperties is the schema of the values of an object whose keys are not known in advance (a map); mutually exclusive with properties.",
		"patternProperties":                    "patternProperties are schemas for the properties whose names match a regular expression. Not allowed in a structural schema.",
		"dependencies":                         "dependencies are the schemas or property lists that a property requires. Not allowed in a structural schema.",
		"additionalItems":                      "additionalItems is the schema of items beyond those items lists. Not allowed in a structural schema.",
		"definitions":                          "definitions are named schemas for $ref. Not allowed in a CustomResourceDefinition.",
		"externalDocs":                         "externalDocs points at more documentation.",
		"example":                              "example is an example value.",
		"nullable":                             "nullable allows null as a value: it is kept rather than pruned or defaulted.",
		"x-kubernetes-preserve-unknown-fields": "x-kubernetes-preserve-unknown-fields stops the API server decoding step from pruning fields which are not specified in the validation schema. This affects fields recursively, but switches back to normal pruning behaviour if nested properties or additionalProperties are specified in the schema. This can either be true or undefined. False is forbidden.",
		"x-kubernetes-embedded-resource":       "x-kubernetes-embedded-resource defines that the value is an embedded Kubernetes runtime.Object, with TypeMeta and ObjectMeta. The type must be object. It is allowed to further restrict the embedded object. kind, apiVersion and metadata are validated automatically. x-kubernetes-preserve-unknown-fields is allowed to be true, but does not have to be if the object is fully specified (up to kind, apiVersion, metadata).",
		"x-kubernetes-int-or-string":           "x-kubernetes-int-or-string specifies that this value is either an integer or a string. If this is true, an empty type is allowed and type as child of anyOf is permitted if following one of the following patterns: 1) anyOf: - type: integer - type: string 2) allOf: - anyOf: - type: integer - type: string - ... zero or more",
		"x-kubernetes-list-map-keys":           "x-kubernetes-list-map-keys annotates an array with the x-kubernetes-list-type `map` by specifying the keys used as the index of the map. This tag MUST only be used on lists that have the \"x-kubernetes-list-type\" extension set to \"map\". Also, the values specified for this attribute must be a scalar typed field of the child structure (no nesting is supported). The properties specified must either be required or have a default value, to ensure those properties are present for all list items.",
		"x-kubernetes-list-type":               "x-kubernetes-list-type annotates an array to further describe its topology. This extension must only be used on lists and may have 3 possible values: 1) `atomic`: the list is treated as a single entity, like a scalar. Atomic lists will be entirely replaced when updated. This extension may be used on any type of list (struct, scalar, ...). 2) `set`: Sets are lists that must not have multiple items with the same value. Each value must be a scalar, an object with x-kubernetes-map-type `atomic` or an array with x-kubernetes-list-type `atomic`. 3) `map`: These lists are like maps in that their elements have a non-index key used to identify them. Order is preserved upon merge. The map tag must only be used on a list with elements of type object. Defaults to atomic for arrays.",
		"x-kubernetes-map-type":                "x-kubernetes-map-type annotates an object to further describe its topology. This extension must only be used when type is object and may have 2 possible values: 1) `granular`: These maps are actual maps (key-value pairs) and each fields are independent from each other (they can each be manipulated by separate actors). This is the default behaviour for all maps. 2) `atomic`: the list is treated as a single entity, like a scalar. Atomic maps will be entirely replaced when updated.",
		"x-kubernetes-validations":             "x-kubernetes-validations describes a list of validation rules written in the CEL expression language. (crdlab stores the rules but does not run them.)",
	}
}

func (ValidationRule) SwaggerDoc() map[string]string {
	return map[string]string{
		"":                  "ValidationRule describes a validation rule written in the CEL expression language.",
		"rule":              "Rule represents the expression which will be evaluated by CEL. ref: https://github.com/google/cel-spec The Rule is scoped to the location of the x-kubernetes-validations extension in the schema. The `self` variable in the CEL expression is bound to the scoped value.",
		"message":           "Message represents the message displayed when validation fails. The message is required if the Rule contains line breaks. The message must not contain line breaks. If unset, the message is \"failed rule: {Rule}\".",
		"messageExpression": "MessageExpression declares a CEL expression that evaluates to the validation failure message that is returned when this rule fails. Since messageExpression is used as a failure message, it must evaluate to a string. If both message and messageExpression are present on a rule, then messageExpression will be used if validation fails.",
		"reason":            "reason provides a machine-readable validation failure reason that is returned to the caller when a request fails this validation rule. The currently supported reasons are: \"FieldValueInvalid\", \"FieldValueForbidden\", \"FieldValueRequired\", \"FieldValueDuplicate\". If not set, default to use \"FieldValueInvalid\".",
		"fieldPath":         "fieldPath represents the field path returned when the validation fails. It must be a relative JSON path (i.e. with array notation) scoped to the location of this x-kubernetes-validations extension in the schema and refer to an existing field.",
		"optionalOldSelf":   "optionalOldSelf is used to opt a transition rule into evaluation even when the object is first created, or if the old object is missing the value.",
	}
}

func (ExternalDocumentation) SwaggerDoc() map[string]string {
	return map[string]string{
		"":            "ExternalDocumentation allows referencing an external resource for extended documentation.",
		"description": "description of the external documentation.",
		"url":         "url of the external documentation.",
	}
}

func (JSON) SwaggerDoc() map[string]string {
	return map[string]string{
		"": "JSON represents any valid JSON value. These types are supported: bool, int64, float64, string, []interface{}, map[string]interface{} and nil.",
	}
}

func (JSONSchemaPropsOrArray) SwaggerDoc() map[string]string {
	return map[string]string{
		"": "JSONSchemaPropsOrArray represents a value that can either be a JSONSchemaProps or an array of JSONSchemaProps. Mainly here for serialization purposes.",
	}
}

func (JSONSchemaPropsOrBool) SwaggerDoc() map[string]string {
	return map[string]string{
		"": "JSONSchemaPropsOrBool represents JSONSchemaProps or a boolean value. Defaults to true for the boolean property.",
	}
}

func (JSONSchemaPropsOrStringArray) SwaggerDoc() map[string]string {
	return map[string]string{
		"": "JSONSchemaPropsOrStringArray represents a JSONSchemaProps or a string array.",
	}
}
