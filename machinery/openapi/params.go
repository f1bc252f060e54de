package openapi

// The parameters of the REST operations, with upstream's names, types and
// (shortened) descriptions. Mirrors the query parameters the endpoints
// installer derives from ListOptions, CreateOptions, UpdateOptions,
// PatchOptions and DeleteOptions.

func queryParam(name, typ, description string) parameter {
	return parameter{Name: name, In: "query", Description: description,
		Schema: map[string]any{"type": typ, "uniqueItems": true}}
}

func pathParam(name, description string) parameter {
	return parameter{Name: name, In: "path", Description: description, Required: true,
		Schema: map[string]any{"type": "string", "uniqueItems": true}}
}

const fieldValidationDescription = "fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. This is the default behavior prior to v1.23. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default in v1.23+ - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered."

var (
	pAllowWatchBookmarks  = queryParam("allowWatchBookmarks", "boolean", "allowWatchBookmarks requests watch events with type \"BOOKMARK\". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server's discretion. Clients should not assume bookmarks are returned at any specific interval, nor may they assume the server will send any BOOKMARK event during a session. If this is not a watch, this field is ignored.")
	pContinue             = queryParam("continue", "string", "The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue) and the server may reject a continue value it does not recognize.")
	pDryRun               = queryParam("dryRun", "string", "When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed")
	pFieldManager         = queryParam("fieldManager", "string", "fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.")
	pFieldManagerPatch    = queryParam("fieldManager", "string", "fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint. This field is required for apply requests (application/apply-patch) but optional for non-apply patch types (JsonPatch, MergePatch, StrategicMergePatch).")
	pFieldSelector        = queryParam("fieldSelector", "string", "A selector to restrict the list of returned objects by their fields. Defaults to everything.")
	pFieldValidation      = queryParam("fieldValidation", "string", fieldValidationDescription)
	pForce                = queryParam("force", "boolean", "Force is going to \"force\" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.")
	pGracePeriodSeconds   = queryParam("gracePeriodSeconds", "integer", "The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.")
	pLabelSelector        = queryParam("labelSelector", "string", "A selector to restrict the list of returned objects by their labels. Defaults to everything.")
	pLimit                = queryParam("limit", "integer", "limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results.")
	pOrphanDependents     = queryParam("orphanDependents", "boolean", "Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the \"orphan\" finalizer will be added to/removed from the object's finalizers list. Either this field or PropagationPolicy may be set, but not both.")
	pPropagationPolicy    = queryParam("propagationPolicy", "string", "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.")
	pResourceVersion      = queryParam("resourceVersion", "string", "resourceVersion sets a constraint on what resource versions a request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset")
	pResourceVersionMatch = queryParam("resourceVersionMatch", "string", "resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset")
	pSendInitialEvents    = queryParam("sendInitialEvents", "boolean", "`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection. Once all such events have been sent, a synthetic \"Bookmark\" event  will be sent. The bookmark will report the ResourceVersion (RV) corresponding to the set of objects, and be marked with `\"k8s.io/initial-events-end\": \"true\"` annotation.")
	pTimeoutSeconds       = queryParam("timeoutSeconds", "integer", "Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.")
	pWatch                = queryParam("watch", "boolean", "Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.")
	pPretty               = queryParam("pretty", "string", "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).")
	pNamespace            = pathParam("namespace", "object name and auth scope, such as for teams and projects")
)

// The parameter sets of each verb.
var (
	listParams = []parameter{pAllowWatchBookmarks, pContinue, pFieldSelector, pLabelSelector, pLimit,
		pResourceVersion, pResourceVersionMatch, pSendInitialEvents, pTimeoutSeconds, pWatch}
	createParams           = []parameter{pDryRun, pFieldManager, pFieldValidation}
	updateParams           = []parameter{pDryRun, pFieldManager, pFieldValidation}
	patchParams            = []parameter{pDryRun, pFieldManagerPatch, pFieldValidation, pForce}
	deleteParams           = []parameter{pDryRun, pGracePeriodSeconds, pOrphanDependents, pPropagationPolicy}
	deleteCollectionParams = []parameter{pContinue, pDryRun, pFieldSelector, pGracePeriodSeconds, pLabelSelector, pLimit,
		pOrphanDependents, pPropagationPolicy, pResourceVersion, pResourceVersionMatch, pSendInitialEvents, pTimeoutSeconds}
)
