// Package apiresource is the vocabulary of discovery: what a server says
// about one resource it serves (a Resource, with its Subresources) and
// the hash that names the resource's storage version. The discovery
// controller (controller/discovery) writes Resources, and the server's
// discovery documents (handler/discovery) are built from them; both import
// this package, neither imports the other.
//
// Vocabulary:
//
//   - A Resource is one resource of a group version: its plural Name,
//     singular, kind, scope (Namespaced), verbs, short names, categories
//     and subresources. It becomes one metav1.APIResource in
//     /apis/<group>/<version> (plus one "<plural>/<sub>" entry per
//     Subresource) and one APIResourceDiscovery in aggregated discovery.
//   - A Subresource is "status" or "scale", with the kind it answers with.
//   - The storage version hash lets a client (the storage version migrator)
//     notice that a resource's storage version changed, without saying
//     which version it is.
//
// Upstream:
//   - k8s.io/apimachinery/pkg/apis/meta/v1/types.go (APIResource)
//   - k8s.io/api/apidiscovery/v2/types.go (APIResourceDiscovery,
//     APISubresourceDiscovery)
//   - k8s.io/apiserver/pkg/endpoints/discovery/storageversionhash.go
//     (StorageVersionHash)
//
// Differences from upstream: upstream's discovery controller builds both
// wire forms itself (a []metav1.APIResource and a
// []apidiscoveryv2.APIResourceDiscovery); crdlab's builds one Resource
// per resource and the handler renders both forms from it.
package apiresource
