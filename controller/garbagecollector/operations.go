package garbagecollector

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/scheme"
)

// restMapping is where the objects of a kind are served.
type restMapping struct {
	resource   scheme.GroupVersionResource
	namespaced bool
}

// restMapper finds the resource of an ownerReference's apiVersion and
// kind, from the last discovery Sync read. A kind maps to its group's
// preferred version, whatever version the reference names: every served
// version reads and deletes the same object.
//
// Stands for upstream's RESTMapper (a DeferredDiscoveryRESTMapper).
type restMapper struct {
	mu    sync.RWMutex // guards kinds
	kinds map[scheme.GroupKind]restMapping
}

// reset rebuilds the mapping from discovery's lists.
func (m *restMapper) reset(lists []*metav1.APIResourceList) {
	kinds := map[scheme.GroupKind]restMapping{}
	for _, list := range lists {
		gv, err := scheme.ParseGroupVersion(list.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range list.APIResources {
			kinds[scheme.GroupKind{Group: gv.Group, Kind: r.Kind}] = restMapping{resource: gv.WithResource(r.Name), namespaced: r.Namespaced}
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.kinds = kinds
}

// restMappingError says a kind is not (yet) served: a CRD discovery has
// not shown, or a kind crdlab does not serve (Pods, Deployments …).
//
// Mirrors restMappingError in errors.go.
type restMappingError struct{ kind, version string }

func (e *restMappingError) Error() string {
	return fmt.Sprintf("unable to get REST mapping for %s/%s", e.version, e.kind)
}

// apiResource returns the resource of apiVersion and kind, and whether
// it is namespaced.
//
// Mirrors (*GarbageCollector).apiResource in operations.go.
func (m *restMapper) apiResource(apiVersion, kind string) (scheme.GroupVersionResource, bool, error) {
	gv, err := scheme.ParseGroupVersion(apiVersion)
	if err != nil {
		return scheme.GroupVersionResource{}, false, &restMappingError{kind: kind, version: apiVersion}
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	mapping, ok := m.kinds[scheme.GroupKind{Group: gv.Group, Kind: kind}]
	if !ok {
		return scheme.GroupVersionResource{}, false, &restMappingError{kind: kind, version: apiVersion}
	}
	return mapping.resource, mapping.namespaced, nil
}

// resourceDefaultNamespace is ns for a namespaced resource, "" otherwise.
func resourceDefaultNamespace(namespaced bool, ns string) string {
	if namespaced {
		return ns
	}
	return ""
}

// getObject reads item from the server.
//
// Mirrors (*GarbageCollector).getObject.
func (gc *GarbageCollector) getObject(ctx context.Context, item objectReference) (metav1.Object, error) {
	resource, namespaced, err := gc.restMapper.apiResource(item.APIVersion, item.Kind)
	if err != nil {
		return nil, err
	}
	ns := resourceDefaultNamespace(namespaced, item.Namespace)
	if namespaced && ns == "" {
		// Only a cluster-scoped object's reference to a namespaced owner
		// leads here.
		return nil, errNamespacedOwnerOfClusterScopedObject
	}
	return gc.metadataClient.Resource(resource).Namespace(ns).Get(ctx, item.Name, metav1.GetOptions{})
}

// deleteObject deletes item with policy, on condition that it still has
// its UID and, if resourceVersion is set, that version. If it changed
// meanwhile but its ownerReferences did not, the delete is tried again
// without the version, so that busy objects are still collected.
//
// Mirrors (*GarbageCollector).deleteObject.
func (gc *GarbageCollector) deleteObject(ctx context.Context, item objectReference, resourceVersion string, owners []metav1.OwnerReference, policy metav1.DeletionPropagation) error {
	resource, namespaced, err := gc.restMapper.apiResource(item.APIVersion, item.Kind)
	if err != nil {
		return err
	}
	uid := item.UID
	pre := metav1.Preconditions{UID: &uid}
	if resourceVersion != "" {
		pre.ResourceVersion = &resourceVersion
	}
	c := gc.metadataClient.Resource(resource).Namespace(resourceDefaultNamespace(namespaced, item.Namespace))
	err = c.Delete(ctx, item.Name, metav1.DeleteOptions{Preconditions: &pre, PropagationPolicy: &policy})
	if apierrors.IsConflict(err) && resourceVersion != "" {
		live, liveErr := c.Get(ctx, item.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(liveErr) {
			return liveErr
		}
		if liveErr == nil && live.GetUID() == item.UID && live.GetResourceVersion() != resourceVersion &&
			reflect.DeepEqual(live.GetOwnerReferences(), owners) {
			return gc.deleteObject(ctx, item, "", nil, policy)
		}
	}
	return err
}

// metadataPatch is a JSON merge patch of an object's ownerReferences or
// finalizers, conditional on its resourceVersion. A nil list is written
// as null, which removes the field.
//
// Mirrors objectForPatch and objectForFinalizersPatch in patch.go.
type metadataPatch struct {
	Metadata struct {
		ResourceVersion string                   `json:"resourceVersion"`
		OwnerReferences *[]metav1.OwnerReference `json:"ownerReferences,omitempty"`
		Finalizers      *[]string                `json:"finalizers,omitempty"`
	} `json:"metadata"`
}

// maxPatchTries bounds the read-patch loops that meet Conflicts (upstream:
// retry.DefaultBackoff, 4 steps); after that the queue retries later.
const maxPatchTries = 4

// patchMetadata reads item, lets change compute the patch from it
// (nothing to change: nil), and sends it as a JSON merge patch conditional
// on the resourceVersion read, again on Conflict.
//
// Upstream tries a strategic merge patch first and falls back to this
// (custom resources have no strategic merge); crdlab always sends this one.
func (gc *GarbageCollector) patchMetadata(ctx context.Context, item objectReference, change func(obj metav1.Object) *metadataPatch) error {
	resource, namespaced, err := gc.restMapper.apiResource(item.APIVersion, item.Kind)
	if err != nil {
		return err
	}
	c := gc.metadataClient.Resource(resource).Namespace(resourceDefaultNamespace(namespaced, item.Namespace))
	for range maxPatchTries {
		obj, err := c.Get(ctx, item.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if obj.GetUID() != item.UID {
			return apierrors.NewNotFound(resource.GroupResource(), item.Name)
		}
		p := change(obj)
		if p == nil {
			return nil
		}
		p.Metadata.ResourceVersion = obj.GetResourceVersion()
		body, err := json.Marshal(p)
		if err != nil {
			return err
		}
		_, err = c.Patch(ctx, item.Name, client.MergePatchType, body, metav1.PatchOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
	}
	return fmt.Errorf("updateMaxRetries(%d) has reached. The garbage collector will retry later for %s", maxPatchTries, item)
}

// removeOwnerReferences removes item's ownerReferences to the owners
// uids.
//
// Mirrors the deleteOwnerRefJSONMergePatch patches of attemptToDeleteItem
// and orphanDependents.
func (gc *GarbageCollector) removeOwnerReferences(ctx context.Context, item *node, uids []metav1.UID) error {
	return gc.patchMetadata(ctx, item.identity, func(obj metav1.Object) *metadataPatch {
		refs := obj.GetOwnerReferences()
		kept := slices.DeleteFunc(slices.Clone(refs), func(r metav1.OwnerReference) bool { return slices.Contains(uids, r.UID) })
		if len(kept) == len(refs) {
			return nil
		}
		if len(kept) == 0 {
			kept = nil
		}
		p := &metadataPatch{}
		p.Metadata.OwnerReferences = &kept
		return p
	})
}

// unblockOwnerReferences sets blockOwnerDeletion false on every
// ownerReference of item.
//
// Mirrors (*GarbageCollector).unblockOwnerReferencesJSONMergePatch.
func (gc *GarbageCollector) unblockOwnerReferences(ctx context.Context, item *node) error {
	return gc.patchMetadata(ctx, item.identity, func(obj metav1.Object) *metadataPatch {
		refs := slices.Clone(obj.GetOwnerReferences())
		f := false
		for i := range refs {
			refs[i].BlockOwnerDeletion = &f
		}
		p := &metadataPatch{}
		p.Metadata.OwnerReferences = &refs
		return p
	})
}

// removeFinalizer removes finalizer from owner (gone already: done).
//
// Mirrors (*GarbageCollector).removeFinalizer.
func (gc *GarbageCollector) removeFinalizer(ctx context.Context, owner *node, finalizer string) error {
	err := gc.patchMetadata(ctx, owner.identity, func(obj metav1.Object) *metadataPatch {
		fs := obj.GetFinalizers()
		if !slices.Contains(fs, finalizer) {
			return nil
		}
		kept := slices.DeleteFunc(slices.Clone(fs), func(f string) bool { return f == finalizer })
		if len(kept) == 0 {
			kept = nil
		}
		p := &metadataPatch{}
		p.Metadata.Finalizers = &kept
		return p
	})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
