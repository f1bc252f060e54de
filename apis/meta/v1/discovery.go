package v1

// APIVersions lists the versions of the legacy core group (/api).
type APIVersions struct {
	TypeMeta                   `json:",inline"`
	Versions                   []string                    `json:"versions"`
	ServerAddressByClientCIDRs []ServerAddressByClientCIDR `json:"serverAddressByClientCIDRs"`
}

// ServerAddressByClientCIDR tells a client which address to use.
type ServerAddressByClientCIDR struct {
	ClientCIDR    string `json:"clientCIDR"`
	ServerAddress string `json:"serverAddress"`
}

// APIGroupList is the answer of /apis.
type APIGroupList struct {
	TypeMeta `json:",inline"`
	Groups   []APIGroup `json:"groups"`
}

// APIGroup is one group and its versions (/apis/{group}).
type APIGroup struct {
	TypeMeta                   `json:",inline"`
	Name                       string                      `json:"name"`
	Versions                   []GroupVersionForDiscovery  `json:"versions"`
	PreferredVersion           GroupVersionForDiscovery    `json:"preferredVersion,omitempty"`
	ServerAddressByClientCIDRs []ServerAddressByClientCIDR `json:"serverAddressByClientCIDRs,omitempty"`
}

// GroupVersionForDiscovery is "group/version" and "version".
type GroupVersionForDiscovery struct {
	GroupVersion string `json:"groupVersion"`
	Version      string `json:"version"`
}

// APIResourceList is the answer of /apis/{group}/{version}.
type APIResourceList struct {
	TypeMeta     `json:",inline"`
	GroupVersion string        `json:"groupVersion"`
	APIResources []APIResource `json:"resources"`
}

// APIResource describes one resource (or subresource, "crontabs/status").
type APIResource struct {
	Name               string   `json:"name"`
	SingularName       string   `json:"singularName"`
	Namespaced         bool     `json:"namespaced"`
	Group              string   `json:"group,omitempty"`
	Version            string   `json:"version,omitempty"`
	Kind               string   `json:"kind"`
	Verbs              []string `json:"verbs"`
	ShortNames         []string `json:"shortNames,omitempty"`
	Categories         []string `json:"categories,omitempty"`
	StorageVersionHash string   `json:"storageVersionHash,omitempty"`
}
