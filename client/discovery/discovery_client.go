package discovery

import (
	"context"
	"encoding/json"
	"errors"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
)

// DiscoveryClient asks a server which groups, versions and resources it
// serves, from the legacy (aggregated-less) discovery documents.
//
// Mirrors k8s.io/client-go/discovery.DiscoveryClient.
type DiscoveryClient struct {
	restClient *client.RESTClient
}

// NewDiscoveryClientForConfig returns a DiscoveryClient for config (whose
// GroupVersion and APIPath are ignored).
//
// Mirrors discovery.NewDiscoveryClientForConfig.
func NewDiscoveryClientForConfig(config *client.Config) (*DiscoveryClient, error) {
	rc, err := client.UnversionedRESTClientFor(config)
	if err != nil {
		return nil, err
	}
	return NewDiscoveryClient(rc), nil
}

// NewDiscoveryClient returns a DiscoveryClient over rc, which should be
// unversioned.
func NewDiscoveryClient(rc *client.RESTClient) *DiscoveryClient {
	return &DiscoveryClient{restClient: rc}
}

// ServerGroups returns every group with its versions: the legacy core group
// (from /api, named "") first when the server has one, then /apis. A server
// without /api (as crdlab, which serves no core group) is fine.
//
// Mirrors (*discovery.DiscoveryClient).ServerGroups.
func (d *DiscoveryClient) ServerGroups(ctx context.Context) (*metav1.APIGroupList, error) {
	versions := &metav1.APIVersions{}
	err := d.restClient.Get().AbsPath("/api").SetHeader("Accept", client.ContentTypeJSON).Do(ctx).Into(versions)
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsForbidden(err) {
		return nil, err
	}
	groups := &metav1.APIGroupList{}
	err = d.restClient.Get().AbsPath("/apis").SetHeader("Accept", client.ContentTypeJSON).Do(ctx).Into(groups)
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsForbidden(err) {
		return nil, err
	}
	if len(versions.Versions) > 0 {
		core := metav1.APIGroup{Name: ""}
		for _, v := range versions.Versions {
			core.Versions = append(core.Versions, metav1.GroupVersionForDiscovery{GroupVersion: v, Version: v})
		}
		core.PreferredVersion = core.Versions[0]
		groups.Groups = append([]metav1.APIGroup{core}, groups.Groups...)
	}
	return groups, nil
}

// ErrGroupVersionRequired says ServerResourcesForGroupVersion got "".
var ErrGroupVersionRequired = errors.New("groupVersion shouldn't be empty")

// ServerResourcesForGroupVersion returns the resources of one group version
// ("stable.example.com/v1", or "v1" for the core group), subresources
// included as "crontabs/status".
//
// Mirrors (*discovery.DiscoveryClient).ServerResourcesForGroupVersion.
func (d *DiscoveryClient) ServerResourcesForGroupVersion(ctx context.Context, groupVersion string) (*metav1.APIResourceList, error) {
	if groupVersion == "" {
		return nil, ErrGroupVersionRequired
	}
	p := "/apis/" + groupVersion
	if groupVersion == "v1" {
		p = "/api/v1"
	}
	resources := &metav1.APIResourceList{}
	err := d.restClient.Get().AbsPath(p).SetHeader("Accept", client.ContentTypeJSON).Do(ctx).Into(resources)
	if err != nil {
		// A server without the core group answers 404 on /api/v1: empty.
		if groupVersion == "v1" && (apierrors.IsNotFound(err) || apierrors.IsForbidden(err)) {
			return &metav1.APIResourceList{GroupVersion: groupVersion}, nil
		}
		return nil, err
	}
	resources.GroupVersion = groupVersion
	return resources, nil
}

// ServerVersion returns what /version says.
//
// Mirrors (*discovery.DiscoveryClient).ServerVersion.
func (d *DiscoveryClient) ServerVersion(ctx context.Context) (*metav1.VersionInfo, error) {
	body, err := d.restClient.Get().AbsPath("/version").DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	info := &metav1.VersionInfo{}
	if err := json.Unmarshal(body, info); err != nil {
		return nil, err
	}
	return info, nil
}
