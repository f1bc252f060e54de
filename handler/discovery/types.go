package discovery

import (
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// GroupName and Version name the aggregated discovery types.
const (
	GroupName = "apidiscovery.k8s.io"
	Version   = "v2"
)

// APIGroupDiscoveryList is the aggregated answer of /apis: every group,
// with every version and its resources.
//
// Mirrors k8s.io/api/apidiscovery/v2.APIGroupDiscoveryList.
type APIGroupDiscoveryList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []APIGroupDiscovery `json:"items"`
}

// APIGroupDiscovery is one group; metadata.name is the group name.
//
// Mirrors k8s.io/api/apidiscovery/v2.APIGroupDiscovery.
type APIGroupDiscovery struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// Versions are ordered by preference: the first is the preferred one.
	Versions []APIVersionDiscovery `json:"versions,omitempty"`
}

// APIVersionDiscovery is one version of a group.
//
// Mirrors k8s.io/api/apidiscovery/v2.APIVersionDiscovery.
type APIVersionDiscovery struct {
	Version   string                 `json:"version"`
	Resources []APIResourceDiscovery `json:"resources,omitempty"`
	Freshness DiscoveryFreshness     `json:"freshness,omitempty"`
}

// APIResourceDiscovery is one resource of a version.
//
// Mirrors k8s.io/api/apidiscovery/v2.APIResourceDiscovery.
type APIResourceDiscovery struct {
	Resource         string                    `json:"resource"`
	ResponseKind     *GroupVersionKind         `json:"responseKind,omitempty"`
	Scope            ResourceScope             `json:"scope"`
	SingularResource string                    `json:"singularResource"`
	Verbs            []string                  `json:"verbs"`
	ShortNames       []string                  `json:"shortNames,omitempty"`
	Categories       []string                  `json:"categories,omitempty"`
	Subresources     []APISubresourceDiscovery `json:"subresources,omitempty"`
}

// APISubresourceDiscovery is one subresource (status, scale) of a resource.
//
// Mirrors k8s.io/api/apidiscovery/v2.APISubresourceDiscovery.
type APISubresourceDiscovery struct {
	Subresource   string             `json:"subresource"`
	ResponseKind  *GroupVersionKind  `json:"responseKind,omitempty"`
	AcceptedTypes []GroupVersionKind `json:"acceptedTypes,omitempty"`
	Verbs         []string           `json:"verbs"`
}

// GroupVersionKind is metav1.GroupVersionKind on the wire: all three
// fields always present.
type GroupVersionKind struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// ResourceScope is Cluster or Namespaced.
type ResourceScope string

// The scopes.
const (
	ScopeCluster   ResourceScope = "Cluster"
	ScopeNamespace ResourceScope = "Namespaced"
)

// DiscoveryFreshness says whether a version's document is up to date.
type DiscoveryFreshness string

// The freshness values.
const (
	DiscoveryFreshnessCurrent DiscoveryFreshness = "Current"
	DiscoveryFreshnessStale   DiscoveryFreshness = "Stale"
)
