package apiserver

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/apis/builtin"
	"github.com/crdlab/crdlab/scheme"
)

// ResourceConfig says which group versions, and which resources in them,
// the server serves.
//
// A resource is enabled if it is explicitly enabled, or if its group
// version is enabled and the resource is not explicitly disabled.
//
// Mirrors k8s.io/apiserver/pkg/server/storage.ResourceConfig.
type ResourceConfig struct {
	// GroupVersionConfigs holds the explicit on/off of group versions.
	GroupVersionConfigs map[scheme.GroupVersion]bool
	// ResourceConfigs holds the explicit on/off of single resources.
	ResourceConfigs map[scheme.GroupVersionResource]bool
}

// NewResourceConfig returns a config with nothing enabled.
func NewResourceConfig() *ResourceConfig {
	return &ResourceConfig{
		GroupVersionConfigs: map[scheme.GroupVersion]bool{},
		ResourceConfigs:     map[scheme.GroupVersionResource]bool{},
	}
}

// DefaultAPIResourceConfig is what crdlab serves without --runtime-config:
// apiextensions.k8s.io/v1. v1beta1 is off unless asked for with
// apiextensions.k8s.io/v1beta1=true, a crdlab-only switch.
//
// Mirrors DefaultAPIResourceConfigSource in
// k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go, with one
// difference: upstream's enables v1beta1 and v1, and it is upstream's New
// that installs CRD storage for v1 only (since 1.22), so no
// --runtime-config serves v1beta1 CRDs there.
//
// The built-in groups of the kube-apiserver link (v1 of core,
// events.k8s.io, coordination.k8s.io, authorization.k8s.io and
// authentication.k8s.io) are on, as kube-apiserver's
// DefaultAPIResourceConfigSource (pkg/controlplane/instance.go) enables
// the stable versions.
func DefaultAPIResourceConfig() *ResourceConfig {
	c := NewResourceConfig()
	c.EnableVersions(apiextensionsv1.SchemeGroupVersion)
	c.EnableVersions(builtin.GroupVersions...)
	return c
}

// EnableVersions turns group versions on.
func (c *ResourceConfig) EnableVersions(versions ...scheme.GroupVersion) {
	for _, gv := range versions {
		c.GroupVersionConfigs[gv] = true
	}
}

// DisableVersions turns group versions off.
func (c *ResourceConfig) DisableVersions(versions ...scheme.GroupVersion) {
	for _, gv := range versions {
		c.GroupVersionConfigs[gv] = false
	}
}

// EnableResources turns single resources on.
func (c *ResourceConfig) EnableResources(resources ...scheme.GroupVersionResource) {
	for _, r := range resources {
		c.ResourceConfigs[r] = true
	}
}

// DisableResources turns single resources off.
func (c *ResourceConfig) DisableResources(resources ...scheme.GroupVersionResource) {
	for _, r := range resources {
		c.ResourceConfigs[r] = false
	}
}

// VersionEnabled reports whether a group version is on.
func (c *ResourceConfig) VersionEnabled(gv scheme.GroupVersion) bool {
	return c.GroupVersionConfigs[gv]
}

// ResourceEnabled reports whether a resource is served: an explicit
// setting of the resource wins, otherwise its group version decides.
func (c *ResourceConfig) ResourceEnabled(gvr scheme.GroupVersionResource) bool {
	if enabled, ok := c.ResourceConfigs[gvr]; ok {
		return enabled
	}
	return c.VersionEnabled(gvr.GroupVersion())
}

// ParseRuntimeConfig reads the --runtime-config flag: comma-separated
// key=value pairs such as "apiextensions.k8s.io/v1beta1=true,api/all=false".
// A key without a value means true.
//
// Mirrors cliflag.ConfigurationMap and getRuntimeConfigValue in
// k8s.io/apiserver/pkg/server/resourceconfig/helpers.go.
func ParseRuntimeConfig(s string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, pair := range strings.Split(s, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		key, value, hasValue := strings.Cut(pair, "=")
		key = strings.TrimSpace(key)
		if key == "" {
			return nil, fmt.Errorf("invalid runtime-config entry %q: empty key", pair)
		}
		enabled := true
		if hasValue && strings.TrimSpace(value) != "" {
			b, err := strconv.ParseBool(strings.TrimSpace(value))
			if err != nil {
				return nil, fmt.Errorf("invalid value of %s: %s, err: %v", key, value, err)
			}
			enabled = b
		}
		out[key] = enabled
	}
	return out, nil
}

// versionLevel is the stability of a version name: v1 is GA, v1beta1 beta,
// v1alpha1 alpha.
func versionLevel(version string) string {
	switch {
	case strings.Contains(version, "alpha"):
		return "alpha"
	case strings.Contains(version, "beta"):
		return "beta"
	default:
		return "ga"
	}
}

// MergeAPIResourceConfigs applies runtime-config overrides to defaults.
// Keys are "api/all", "api/ga", "api/beta", "api/alpha" (every registered
// version of that stability), "<group>/<version>" or
// "<group>/<version>/<resource>"; registered lists the group versions the
// server knows, and an unknown one is an error. Broad keys apply before
// narrow ones, so "api/all=false,apiextensions.k8s.io/v1=true" serves just
// v1.
//
// Mirrors MergeAPIResourceConfigs in k8s.io/apiserver/pkg/server/resourceconfig/helpers.go.
func MergeAPIResourceConfigs(defaults *ResourceConfig, overrides map[string]bool, registered []scheme.GroupVersion) (*ResourceConfig, error) {
	c := NewResourceConfig()
	for gv, on := range defaults.GroupVersionConfigs {
		c.GroupVersionConfigs[gv] = on
	}
	for r, on := range defaults.ResourceConfigs {
		c.ResourceConfigs[r] = on
	}
	known := map[scheme.GroupVersion]bool{}
	for _, gv := range registered {
		known[gv] = true
	}

	// api/all first, then api/<level>, then the specific keys.
	if on, ok := overrides["api/all"]; ok {
		for _, gv := range registered {
			c.GroupVersionConfigs[gv] = on
		}
	}
	for _, level := range []string{"ga", "beta", "alpha"} {
		if on, ok := overrides["api/"+level]; ok {
			for _, gv := range registered {
				if versionLevel(gv.Version) == level {
					c.GroupVersionConfigs[gv] = on
				}
			}
		}
	}
	keys := make([]string, 0, len(overrides))
	for k := range overrides {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var unknown []string
	for _, key := range keys {
		if strings.HasPrefix(key, "api/") {
			switch key {
			case "api/all", "api/ga", "api/beta", "api/alpha":
				continue
			}
		}
		on := overrides[key]
		parts := strings.Split(key, "/")
		switch len(parts) {
		case 2:
			gv := scheme.GroupVersion{Group: parts[0], Version: parts[1]}
			if !known[gv] {
				unknown = append(unknown, key)
				continue
			}
			c.GroupVersionConfigs[gv] = on
		case 3:
			gvr := scheme.GroupVersionResource{Group: parts[0], Version: parts[1], Resource: parts[2]}
			if !known[gvr.GroupVersion()] {
				unknown = append(unknown, key)
				continue
			}
			c.ResourceConfigs[gvr] = on
		default:
			return nil, fmt.Errorf("invalid key %s", key)
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("unknown api groups %s", strings.Join(unknown, ","))
	}
	return c, nil
}
