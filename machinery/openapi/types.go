package openapi

// The shapes of an OpenAPI 3.0 document, as much of them as crdlab writes.
// Field names are the spec's; mirrors k8s.io/kube-openapi/pkg/spec3.

// document is a whole OpenAPI document. Mirrors spec3.OpenAPI.
type document struct {
	OpenAPI    string               `json:"openapi"`
	Info       info                 `json:"info"`
	Paths      map[string]*pathItem `json:"paths"`
	Components components           `json:"components"`
}

type info struct {
	Title   string `json:"title"`
	Version string `json:"version"`
}

type components struct {
	Schemas map[string]any `json:"schemas"`
}

// pathItem is the operations on one path. Mirrors spec3.Path.
type pathItem struct {
	Get        *operation  `json:"get,omitempty"`
	Put        *operation  `json:"put,omitempty"`
	Post       *operation  `json:"post,omitempty"`
	Delete     *operation  `json:"delete,omitempty"`
	Patch      *operation  `json:"patch,omitempty"`
	Parameters []parameter `json:"parameters,omitempty"`
}

// operation is one HTTP method on a path. Mirrors spec3.Operation.
type operation struct {
	Tags        []string            `json:"tags"`
	Description string              `json:"description"`
	OperationID string              `json:"operationId"`
	Parameters  []parameter         `json:"parameters,omitempty"`
	RequestBody *requestBody        `json:"requestBody,omitempty"`
	Responses   map[string]response `json:"responses"`
	// Action is the Kubernetes verb: get, list, post, put, patch, delete,
	// deletecollection.
	Action string `json:"x-kubernetes-action"`
	// GVK is an object here (a list in component schemas); kubectl reads
	// it to find the PATCH of a kind.
	GVK gvk `json:"x-kubernetes-group-version-kind"`
}

type gvk struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// parameter is a path or query parameter. Mirrors spec3.Parameter.
type parameter struct {
	Name        string         `json:"name"`
	In          string         `json:"in"`
	Description string         `json:"description"`
	Required    bool           `json:"required,omitempty"`
	Schema      map[string]any `json:"schema"`
}

type requestBody struct {
	Content  map[string]mediaType `json:"content"`
	Required bool                 `json:"required"`
}

type response struct {
	Description string               `json:"description"`
	Content     map[string]mediaType `json:"content,omitempty"`
}

type mediaType struct {
	Schema map[string]any `json:"schema"`
}
