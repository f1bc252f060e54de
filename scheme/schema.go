package scheme

import (
	"fmt"
	"strings"
)

// GroupVersion names one version of an API group, e.g. apps/v1. The legacy
// core group has the empty name, so its GroupVersion prints as just "v1".
//
// Mirrors k8s.io/apimachinery/pkg/runtime/schema.GroupVersion.
type GroupVersion struct {
	Group   string
	Version string
}

// String returns "group/version", or "version" for the core group.
func (gv GroupVersion) String() string {
	if gv.Group == "" {
		return gv.Version
	}
	return gv.Group + "/" + gv.Version
}

// WithKind returns the GroupVersionKind of kind in gv.
func (gv GroupVersion) WithKind(kind string) GroupVersionKind {
	return GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: kind}
}

// WithResource returns the GroupVersionResource of resource in gv.
func (gv GroupVersion) WithResource(resource string) GroupVersionResource {
	return GroupVersionResource{Group: gv.Group, Version: gv.Version, Resource: resource}
}

// ParseGroupVersion parses the apiVersion field of an object: "v1",
// "apps/v1". The empty string parses to the empty GroupVersion.
func ParseGroupVersion(apiVersion string) (GroupVersion, error) {
	switch strings.Count(apiVersion, "/") {
	case 0:
		return GroupVersion{Version: apiVersion}, nil
	case 1:
		i := strings.Index(apiVersion, "/")
		gv := GroupVersion{Group: apiVersion[:i], Version: apiVersion[i+1:]}
		if gv.Group == "" || gv.Version == "" {
			return GroupVersion{}, fmt.Errorf("unexpected GroupVersion string: %q", apiVersion)
		}
		return gv, nil
	default:
		return GroupVersion{}, fmt.Errorf("unexpected GroupVersion string: %q", apiVersion)
	}
}

// GroupVersionKind names a kind in one version of a group: apps/v1, Kind=Deployment.
//
// Mirrors k8s.io/apimachinery/pkg/runtime/schema.GroupVersionKind.
type GroupVersionKind struct {
	Group   string
	Version string
	Kind    string
}

// GroupVersion drops the kind.
func (gvk GroupVersionKind) GroupVersion() GroupVersion {
	return GroupVersion{Group: gvk.Group, Version: gvk.Version}
}

// GroupKind drops the version.
func (gvk GroupVersionKind) GroupKind() GroupKind {
	return GroupKind{Group: gvk.Group, Kind: gvk.Kind}
}

// ToAPIVersionAndKind returns the two TypeMeta fields of gvk.
func (gvk GroupVersionKind) ToAPIVersionAndKind() (apiVersion, kind string) {
	return gvk.GroupVersion().String(), gvk.Kind
}

// Empty reports whether gvk is the zero value.
func (gvk GroupVersionKind) Empty() bool { return gvk == GroupVersionKind{} }

func (gvk GroupVersionKind) String() string {
	return gvk.GroupVersion().String() + ", Kind=" + gvk.Kind
}

// FromAPIVersionAndKind builds a GroupVersionKind from TypeMeta fields.
// An unparsable apiVersion yields a GroupVersionKind with only Kind set.
func FromAPIVersionAndKind(apiVersion, kind string) GroupVersionKind {
	gv, err := ParseGroupVersion(apiVersion)
	if err != nil {
		return GroupVersionKind{Kind: kind}
	}
	return gv.WithKind(kind)
}

// GroupKind is a kind without a version: it names the same concept across
// every version of its group.
type GroupKind struct {
	Group string
	Kind  string
}

func (gk GroupKind) String() string {
	if gk.Group == "" {
		return gk.Kind
	}
	return gk.Kind + "." + gk.Group
}

// WithVersion returns the GroupVersionKind of gk at version.
func (gk GroupKind) WithVersion(version string) GroupVersionKind {
	return GroupVersionKind{Group: gk.Group, Version: version, Kind: gk.Kind}
}

// GroupVersionResource names a resource (the plural lower-case word in a URL)
// in one version of a group.
type GroupVersionResource struct {
	Group    string
	Version  string
	Resource string
}

// GroupResource drops the version.
func (gvr GroupVersionResource) GroupResource() GroupResource {
	return GroupResource{Group: gvr.Group, Resource: gvr.Resource}
}

// GroupVersion drops the resource.
func (gvr GroupVersionResource) GroupVersion() GroupVersion {
	return GroupVersion{Group: gvr.Group, Version: gvr.Version}
}

func (gvr GroupVersionResource) String() string {
	return gvr.GroupVersion().String() + ", Resource=" + gvr.Resource
}

// GroupResource is a resource without a version, e.g. crontabs.stable.example.com.
type GroupResource struct {
	Group    string
	Resource string
}

func (gr GroupResource) String() string {
	if gr.Group == "" {
		return gr.Resource
	}
	return gr.Resource + "." + gr.Group
}

// WithVersion returns the GroupVersionResource of gr at version.
func (gr GroupResource) WithVersion(version string) GroupVersionResource {
	return GroupVersionResource{Group: gr.Group, Version: version, Resource: gr.Resource}
}

// APIVersionInternal is the version name of a group's internal (hub) version.
// Objects are never written to the wire or to storage in it.
const APIVersionInternal = "__internal"
