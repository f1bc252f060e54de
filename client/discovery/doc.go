// Package discovery asks a server what it serves: the groups and their
// versions (ServerGroups), the resources of one group version with their
// verbs and subresources (ServerResourcesForGroupVersion), and its version
// (ServerVersion). It is how a client learns that a new CRD's resource has
// appeared — crdlab's discovery controller publishes exactly these
// documents for every established CRD.
//
// Vocabulary: the legacy core group is served under /api (an APIVersions
// document) and has the name ""; every named group under /apis (an
// APIGroupList), each version under /apis/<group>/<version> (an
// APIResourceList). A server without the core group answers 404 on /api, which
// ServerGroups accepts.
//
// Upstream:
//   - k8s.io/client-go/discovery/discovery_client.go (DiscoveryClient,
//     NewDiscoveryClientForConfig, ServerGroups,
//     ServerResourcesForGroupVersion, ServerVersion,
//     ServerPreferredResources, ServerPreferredNamespacedResources,
//     ErrGroupDiscoveryFailed) and helper.go (FilteredBy,
//     SupportsAllVerbs, GroupVersionResources): helper.go here
//
// Differences from upstream:
//   - Legacy discovery only: no aggregated discovery (apidiscovery.k8s.io
//     v2, chosen upstream by the answer's Content-Type), no OpenAPI, no
//     cache (upstream's memory and disk caches), no
//     ServerGroupsAndResources. ServerPreferredResources is a method (upstream:
//     a function over the interface, with retries).
//   - Methods take a context.
package discovery
