// Package discovery serves the documents clients read to learn what the
// server offers: /apis (every group and its versions), /apis/<group>,
// /apis/<group>/<version> (the resources of one version, their verbs,
// kinds, short names, categories and subresources), and the aggregated
// form of all of it in one answer that client-go asks for first
// (apidiscovery.k8s.io/v2 APIGroupDiscoveryList).
//
// Vocabulary: a Manager holds the discovery state: for each group version
// the Resources (machinery/apiresource) it serves. Its hooks,
// SetGroupVersion and RemoveGroupVersion, are called whenever CRDs change
// (by the discovery controller, through its ResourceManager interface);
// every document is built from that state on request. A Resource becomes a legacy metav1.APIResource
// (plus one "<plural>/<sub>" APIResource per Subresource) or an
// aggregated APIResourceDiscovery. Versions of a group are ordered by
// kube-aware version priority (v2 > v1 > v1beta2 > v1beta1 > v1alpha1 >
// other, lexically); the first is the group's preferred version.
//
// Upstream:
//   - k8s.io/api/apidiscovery/v2: types.go (the aggregated types)
//   - k8s.io/apiserver/pkg/endpoints/discovery: root.go, group.go,
//     version.go (legacy documents), aggregated/handler.go
//     (ResourceManager: AddGroupVersion, RemoveGroupVersion, the
//     negotiated /apis answer, ETag)
//   - (the version order, CompareKubeAwareVersionStrings, is
//     machinery/version's)
//   - k8s.io/apiextensions-apiserver/pkg/apiserver:
//     customresource_discovery.go (versionDiscoveryHandler,
//     groupDiscoveryHandler)
//
// Differences from upstream: one Manager holds both legacy and aggregated
// state (upstream keeps them in separate handlers that the discovery
// controller updates one by one); /api is not served here (crdlab has no
// core group: the caller answers it 404, which client-go tolerates); no
// per-group-version ETag and no "Stale" freshness (every version is
// served by this process, so it is always "Current"). The /apis
// documents are kept encoded between changes (upstream keeps the
// aggregated one decoded and encodes it per request), and, once a client
// that accepts gzip asks for one, compressed as well, whatever its size
// (upstream compresses an answer over 128 KiB per request and sends a
// smaller one plain; a kept document costs no compression per request):
// 2,000 real-size CRDs' aggregated document is 2.1 MB, 134 KB compressed,
// their legacy list 73 KB, 4 KB compressed.
package discovery
