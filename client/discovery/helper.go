package discovery

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
)

// ErrGroupDiscoveryFailed says some group versions' resources could not be
// read; what could be read is returned with it, so a caller such as the
// namespace controller or the garbage collector can go on with a partial
// list.
//
// Mirrors discovery.ErrGroupDiscoveryFailed.
type ErrGroupDiscoveryFailed struct {
	// Groups is each group version that failed, with its error.
	Groups map[scheme.GroupVersion]error
}

func (e *ErrGroupDiscoveryFailed) Error() string {
	var groups []string
	for gv, err := range e.Groups {
		groups = append(groups, fmt.Sprintf("%s: %v", gv, err))
	}
	sort.Strings(groups)
	return "unable to retrieve the complete list of server APIs: " + strings.Join(groups, ", ")
}

// ServerPreferredResources returns each resource of the server once, in the
// version its group prefers (or, for a resource the preferred version does
// not have, the first version that has it), one APIResourceList per group
// version; subresources are left out. It reads every group version at once.
// If some fail, it returns the others with an *ErrGroupDiscoveryFailed.
//
// Mirrors discovery.ServerPreferredResources (without aggregated discovery).
func (d *DiscoveryClient) ServerPreferredResources(ctx context.Context) ([]*metav1.APIResourceList, error) {
	groups, err := d.ServerGroups(ctx)
	if err != nil {
		return nil, err
	}
	// Every group version's resources, read concurrently.
	var (
		mu      sync.Mutex // guards fetched and failed
		fetched = map[scheme.GroupVersion]*metav1.APIResourceList{}
		failed  = map[scheme.GroupVersion]error{}
		wg      sync.WaitGroup
	)
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			gv := scheme.GroupVersion{Group: g.Name, Version: v.Version}
			wg.Go(func() {
				list, err := d.ServerResourcesForGroupVersion(ctx, v.GroupVersion)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					failed[gv] = err
					return
				}
				fetched[gv] = list
			})
		}
	}
	wg.Wait()

	// Pick one version per group resource: the preferred one wins.
	type choice struct {
		version  string
		resource metav1.APIResource
	}
	chosen := map[scheme.GroupResource]choice{}
	var order []scheme.GroupResource
	var result []*metav1.APIResourceList
	lists := map[scheme.GroupVersion]*metav1.APIResourceList{}
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			gv := scheme.GroupVersion{Group: g.Name, Version: v.Version}
			list, ok := fetched[gv]
			if !ok {
				continue
			}
			out := &metav1.APIResourceList{GroupVersion: v.GroupVersion}
			lists[gv] = out
			result = append(result, out)
			for _, r := range list.APIResources {
				if strings.Contains(r.Name, "/") {
					continue
				}
				gr := scheme.GroupResource{Group: g.Name, Resource: r.Name}
				if _, seen := chosen[gr]; seen && v.Version != g.PreferredVersion.Version {
					continue
				}
				if _, seen := chosen[gr]; !seen {
					order = append(order, gr)
				}
				chosen[gr] = choice{version: v.Version, resource: r}
			}
		}
	}
	for _, gr := range order {
		c := chosen[gr]
		list := lists[scheme.GroupVersion{Group: gr.Group, Version: c.version}]
		list.APIResources = append(list.APIResources, c.resource)
	}
	if len(failed) > 0 {
		return result, &ErrGroupDiscoveryFailed{Groups: failed}
	}
	return result, nil
}

// ServerPreferredNamespacedResources is ServerPreferredResources with only
// the namespaced resources: what a namespace can hold.
//
// Mirrors discovery.ServerPreferredNamespacedResources.
func (d *DiscoveryClient) ServerPreferredNamespacedResources(ctx context.Context) ([]*metav1.APIResourceList, error) {
	all, err := d.ServerPreferredResources(ctx)
	return FilteredBy(func(_ string, r *metav1.APIResource) bool { return r.Namespaced }, all), err
}

// FilteredBy returns the lists with only the resources keep accepts (lists
// left empty are dropped). groupVersion is the list's.
//
// Mirrors discovery.FilteredBy.
func FilteredBy(keep func(groupVersion string, r *metav1.APIResource) bool, lists []*metav1.APIResourceList) []*metav1.APIResourceList {
	var out []*metav1.APIResourceList
	for _, list := range lists {
		filtered := &metav1.APIResourceList{GroupVersion: list.GroupVersion}
		for i := range list.APIResources {
			if keep(list.GroupVersion, &list.APIResources[i]) {
				filtered.APIResources = append(filtered.APIResources, list.APIResources[i])
			}
		}
		if len(filtered.APIResources) > 0 {
			out = append(out, filtered)
		}
	}
	return out
}

// SupportsAllVerbs returns a FilteredBy predicate: the resource has every
// verb of verbs.
//
// Mirrors discovery.SupportsAllVerbs.
func SupportsAllVerbs(verbs ...string) func(string, *metav1.APIResource) bool {
	return func(_ string, r *metav1.APIResource) bool {
		for _, v := range verbs {
			if !slices.Contains(r.Verbs, v) {
				return false
			}
		}
		return true
	}
}

// GroupVersionResources returns the group version resources of lists.
//
// Mirrors discovery.GroupVersionResources.
func GroupVersionResources(lists []*metav1.APIResourceList) (map[scheme.GroupVersionResource]struct{}, error) {
	out := map[scheme.GroupVersionResource]struct{}{}
	for _, list := range lists {
		gv, err := scheme.ParseGroupVersion(list.GroupVersion)
		if err != nil {
			return nil, err
		}
		for _, r := range list.APIResources {
			out[gv.WithResource(r.Name)] = struct{}{}
		}
	}
	return out, nil
}
