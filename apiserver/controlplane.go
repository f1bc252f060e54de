package apiserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/apis/authentication"
	authenticationv1 "github.com/crdlab/crdlab/apis/authentication/v1"
	"github.com/crdlab/crdlab/apis/authorization"
	authorizationv1 "github.com/crdlab/crdlab/apis/authorization/v1"
	"github.com/crdlab/crdlab/apis/coordination"
	coordinationv1 "github.com/crdlab/crdlab/apis/coordination/v1"
	"github.com/crdlab/crdlab/apis/core"
	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/apis/events"
	eventsv1 "github.com/crdlab/crdlab/apis/events/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apiserver/authn"
	"github.com/crdlab/crdlab/apiserver/authz"
	"github.com/crdlab/crdlab/handler"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/coordination/lease"
	"github.com/crdlab/crdlab/registry/core/configmap"
	"github.com/crdlab/crdlab/registry/core/event"
	"github.com/crdlab/crdlab/registry/core/namespace"
	"github.com/crdlab/crdlab/registry/core/secret"
	"github.com/crdlab/crdlab/registry/selfreview"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// Instance is the kube-apiserver link of the server chain: the built-in
// kinds crdlab serves (namespaces, secrets, configmaps and events in
// /api/v1; events.k8s.io, coordination.k8s.io, and the self-reviews of
// authorization.k8s.io and authentication.k8s.io). What it does not serve
// goes to its delegate, the apiextensions link.
//
// Mirrors Instance in k8s.io/kubernetes/pkg/controlplane/instance.go.
type Instance struct {
	GenericAPIServer *handler.GenericAPIServer
	// namespaces is the namespaces storage: the lifecycle admission and
	// the system namespaces hook read and write it directly.
	namespaces *namespace.REST
}

// restStorageProvider builds the APIGroupInfo of one built-in group; ok
// is false when the resource config turns every version of it off.
//
// Mirrors RESTStorageProvider in pkg/controlplane/apiserver/options and
// pkg/registry/<group>/rest/storage_<group>.go.
type restStorageProvider func(opts registry.StoreOptions) (info handler.APIGroupInfo, ok bool, err error)

// newKubeAPIServer builds the kube-apiserver link in front of
// delegationTarget.
//
// Mirrors (CompletedConfig).New in pkg/controlplane/instance.go: the
// legacy core group (InstallLegacyAPI), then one RESTStorageProvider per
// group (InstallAPIs).
func (c *completedConfig) newKubeAPIServer(genericConfig handler.CompletedConfig, backend storage.Backend, acc *access,
	delegationTarget handler.DelegationTarget) (*Instance, error) {
	genericServer, err := genericConfig.New("kube-apiserver", delegationTarget)
	if err != nil {
		return nil, err
	}
	s := &Instance{GenericAPIServer: genericServer}
	opts := registry.StoreOptions{Backend: backend, Scheme: c.scheme, EnableGarbageCollection: c.garbageCollection()}

	// The legacy core group, /api/v1.
	legacy, ok, err := c.legacyRESTStorage(s, opts)
	if err != nil {
		return nil, fmt.Errorf("core/v1: %w", err)
	}
	if ok {
		if err := s.GenericAPIServer.InstallLegacyAPIGroup(&legacy); err != nil {
			return nil, err
		}
	}
	// The named groups, /apis/<group>/<version>.
	for _, provider := range []restStorageProvider{
		c.eventsRESTStorage,
		c.coordinationRESTStorage,
		c.authorizationRESTStorage(acc),
		c.authenticationRESTStorage,
	} {
		info, ok, err := provider(opts)
		if err != nil {
			return nil, err
		}
		if ok {
			if err := s.GenericAPIServer.InstallAPIGroup(&info); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// enabled returns the storages of the resources the resource config
// serves in gv.
func (c *completedConfig) enabled(gv scheme.GroupVersion, storages map[string]registry.Storage) map[string]registry.Storage {
	out := map[string]registry.Storage{}
	for path, st := range storages {
		resource, _, _ := strings.Cut(path, "/")
		if c.ResourceConfig.ResourceEnabled(gv.WithResource(resource)) {
			out[path] = st
		}
	}
	return out
}

// legacyRESTStorage is the core group: namespaces (with /status and
// /finalize), secrets, configmaps, events.
//
// Mirrors (LegacyRESTStorageProvider).NewLegacyRESTStorage in
// pkg/registry/core/rest/storage_core.go.
func (c *completedConfig) legacyRESTStorage(s *Instance, opts registry.StoreOptions) (handler.APIGroupInfo, bool, error) {
	info := handler.NewDefaultAPIGroupInfo(core.GroupName, c.scheme, scheme.NewCodecFactory(c.scheme))
	opts.StorageVersion = corev1.SchemeGroupVersion
	namespaceStorage, namespaceStatusStorage, namespaceFinalizeStorage, err := namespace.NewREST(c.scheme, opts)
	if err != nil {
		return info, false, err
	}
	s.namespaces = namespaceStorage
	secretStorage, err := secret.NewREST(c.scheme, opts)
	if err != nil {
		return info, false, err
	}
	configMapStorage, err := configmap.NewREST(c.scheme, opts)
	if err != nil {
		return info, false, err
	}
	eventStorage, err := c.eventStorage(opts)
	if err != nil {
		return info, false, err
	}
	storage := c.enabled(corev1.SchemeGroupVersion, map[string]registry.Storage{
		"namespaces":          namespaceStorage,
		"namespaces/status":   namespaceStatusStorage,
		"namespaces/finalize": namespaceFinalizeStorage,
		"secrets":             secretStorage,
		"configmaps":          configMapStorage,
		"events":              eventStorage,
	})
	if len(storage) == 0 {
		return info, false, nil
	}
	info.VersionedResourcesStorageMap[corev1.SchemeGroupVersion.Version] = storage
	return info, true, nil
}

// eventStorage is the one storage of Events, shared by core/v1 and
// events.k8s.io/v1 (stored as core/v1 under /registry/events).
func (c *completedConfig) eventStorage(opts registry.StoreOptions) (*event.REST, error) {
	if c.events == nil {
		opts.StorageVersion = corev1.SchemeGroupVersion
		rest, err := event.NewREST(c.scheme, opts, c.EventTTL)
		if err != nil {
			return nil, err
		}
		c.events = rest
	}
	return c.events, nil
}

// eventsRESTStorage is events.k8s.io/v1: the same storage as core/v1's
// events, seen through the other version.
//
// Mirrors pkg/registry/events/rest/storage_events.go.
func (c *completedConfig) eventsRESTStorage(opts registry.StoreOptions) (handler.APIGroupInfo, bool, error) {
	info := handler.NewDefaultAPIGroupInfo(events.GroupName, c.scheme, scheme.NewCodecFactory(c.scheme))
	st, err := c.eventStorage(opts)
	if err != nil {
		return info, false, err
	}
	storage := c.enabled(eventsv1.SchemeGroupVersion, map[string]registry.Storage{"events": st})
	if len(storage) == 0 {
		return info, false, nil
	}
	info.VersionedResourcesStorageMap[eventsv1.SchemeGroupVersion.Version] = storage
	return info, true, nil
}

// coordinationRESTStorage is coordination.k8s.io/v1: leases.
//
// Mirrors pkg/registry/coordination/rest/storage_coordination.go.
func (c *completedConfig) coordinationRESTStorage(opts registry.StoreOptions) (handler.APIGroupInfo, bool, error) {
	info := handler.NewDefaultAPIGroupInfo(coordination.GroupName, c.scheme, scheme.NewCodecFactory(c.scheme))
	opts.StorageVersion = coordinationv1.SchemeGroupVersion
	leaseStorage, err := lease.NewREST(c.scheme, opts)
	if err != nil {
		return info, false, err
	}
	storage := c.enabled(coordinationv1.SchemeGroupVersion, map[string]registry.Storage{"leases": leaseStorage})
	if len(storage) == 0 {
		return info, false, nil
	}
	info.VersionedResourcesStorageMap[coordinationv1.SchemeGroupVersion.Version] = storage
	return info, true, nil
}

// authorizationRESTStorage is authorization.k8s.io/v1: the self-reviews,
// answered by the server's authorizer (--authorization-mode).
//
// Mirrors pkg/registry/authorization/rest/storage_authorization.go.
func (c *completedConfig) authorizationRESTStorage(acc *access) restStorageProvider {
	return func(registry.StoreOptions) (handler.APIGroupInfo, bool, error) {
		info := handler.NewDefaultAPIGroupInfo(authorization.GroupName, c.scheme, scheme.NewCodecFactory(c.scheme))
		storage := c.enabled(authorizationv1.SchemeGroupVersion, map[string]registry.Storage{
			"selfsubjectaccessreviews": &selfreview.AccessReviewREST{Review: acc.reviewAccess},
			"selfsubjectrulesreviews":  &selfreview.RulesReviewREST{Rules: acc.reviewRules},
		})
		if len(storage) == 0 {
			return info, false, nil
		}
		info.VersionedResourcesStorageMap[authorizationv1.SchemeGroupVersion.Version] = storage
		return info, true, nil
	}
}

// authenticationRESTStorage is authentication.k8s.io/v1:
// selfsubjectreviews, answered with the user the authenticator found.
//
// Mirrors pkg/registry/authentication/rest/storage_authentication.go.
func (c *completedConfig) authenticationRESTStorage(registry.StoreOptions) (handler.APIGroupInfo, bool, error) {
	info := handler.NewDefaultAPIGroupInfo(authentication.GroupName, c.scheme, scheme.NewCodecFactory(c.scheme))
	storage := c.enabled(authenticationv1.SchemeGroupVersion, map[string]registry.Storage{
		"selfsubjectreviews": &selfreview.SubjectReviewREST{WhoAmI: whoAmI},
	})
	if len(storage) == 0 {
		return info, false, nil
	}
	info.VersionedResourcesStorageMap[authenticationv1.SchemeGroupVersion.Version] = storage
	return info, true, nil
}

// reviewAccess answers a SelfSubjectAccessReview with the authorizer's
// decision for the request's user.
//
// Mirrors (*REST).Create in pkg/registry/authorization/selfsubjectaccessreview.
func (a *access) reviewAccess(ctx context.Context, spec *authorization.SelfSubjectAccessReviewSpec) (authorization.SubjectAccessReviewStatus, error) {
	u, ok := authn.UserFrom(ctx)
	if !ok {
		return authorization.SubjectAccessReviewStatus{}, apierrors.NewBadRequest("no user present on request")
	}
	attrs := authz.Attributes{User: u}
	if ra := spec.ResourceAttributes; ra != nil {
		attrs.IsResourceRequest = true
		attrs.Verb, attrs.APIGroup, attrs.APIVersion = ra.Verb, ra.Group, ra.Version
		attrs.Namespace, attrs.Resource, attrs.Subresource, attrs.Name = ra.Namespace, ra.Resource, ra.Subresource, ra.Name
	} else {
		attrs.Verb, attrs.Path = spec.NonResourceAttributes.Verb, spec.NonResourceAttributes.Path
	}
	d, reason, err := a.authorizer.Authorize(ctx, attrs)
	st := authorization.SubjectAccessReviewStatus{Allowed: d == authz.Allow, Denied: d == authz.Deny, Reason: reason}
	if err != nil {
		st.EvaluationError = err.Error()
	}
	return st, nil
}

// reviewRules answers a SelfSubjectRulesReview with the rules the
// authorizer knows for the request's user in namespace.
//
// Mirrors (*REST).Create in pkg/registry/authorization/selfsubjectrulesreview.
func (a *access) reviewRules(ctx context.Context, namespace string) (authorization.SubjectRulesReviewStatus, error) {
	u, ok := authn.UserFrom(ctx)
	if !ok {
		return authorization.SubjectRulesReviewStatus{}, apierrors.NewBadRequest("no user present on request")
	}
	rr, ok := a.authorizer.(authz.RuleResolver)
	if !ok {
		return authorization.SubjectRulesReviewStatus{Incomplete: true}, nil
	}
	st, err := rr.RulesFor(ctx, u, namespace)
	if err != nil {
		st.Incomplete, st.EvaluationError = true, err.Error()
	}
	return st, nil
}

// whoAmI answers a SelfSubjectReview with the request's user.
//
// Mirrors (*REST).Create in pkg/registry/authentication/selfsubjectreview.
func whoAmI(ctx context.Context) (authentication.UserInfo, error) {
	u, ok := authn.UserFrom(ctx)
	if !ok {
		return authentication.UserInfo{}, apierrors.NewBadRequest("no user present on request")
	}
	return authentication.UserInfo{Username: u.Name, UID: u.UID, Groups: u.Groups}, nil
}

// systemNamespaces are the namespaces every cluster has from the start.
//
// Mirrors the SystemNamespaces of pkg/controlplane/controller/systemnamespaces.
var systemNamespaces = []string{metav1.NamespaceSystem, metav1.NamespacePublic, metav1.NamespaceDefault, core.NamespaceNodeLease}

// ensureSystemNamespaces creates the system namespaces that are missing.
//
// Mirrors (*Controller).sync of the system namespaces controller, which
// kube-apiserver runs as a post-start hook (upstream then checks every
// minute; crdlab once, at start).
func (s *Instance) ensureSystemNamespaces(ctx context.Context) error {
	for _, name := range systemNamespaces {
		_, err := s.namespaces.Create(ctx, &core.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, nil, nil)
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating namespace %s: %w", name, err)
		}
	}
	return nil
}

// namespaceGetter reads a namespace from storage (consistently): the
// NamespaceLifecycle admission's lookup.
func (s *Instance) namespaceGetter(ctx context.Context, name string) (*core.Namespace, error) {
	obj, err := s.namespaces.Get(registry.WithNamespace(ctx, ""), name, &metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	return obj.(*core.Namespace), nil
}
