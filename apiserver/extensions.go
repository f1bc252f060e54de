package apiserver

import (
	"github.com/crdlab/crdlab/apis/apiextensions"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/apis/apiextensions/v1beta1"
	"github.com/crdlab/crdlab/handler"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/customresourcedefinition"
	"github.com/crdlab/crdlab/storage"
)

// CustomResourceDefinitions is the apiextensions link of the server
// chain: the customresourcedefinitions API, and the crdHandler that serves
// the custom resources of every CRD. What it does not serve goes to its
// delegate, the end of the chain.
//
// Mirrors CustomResourceDefinitions in
// k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go.
type CustomResourceDefinitions struct {
	GenericAPIServer *handler.GenericAPIServer
}

// newCustomResourceDefinitions builds the apiextensions link in front of
// delegationTarget.
//
// Mirrors completedConfig.New in
// k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go, the snippet
// seed 002 quotes, line for line: a generic server, an APIGroupInfo,
// storage["customresourcedefinitions"] and ["…/status"], InstallAPIGroup;
// then the crdHandler on the link's mux.
func (c *completedConfig) newCustomResourceDefinitions(genericConfig handler.CompletedConfig, backend storage.Backend,
	delegationTarget handler.DelegationTarget) (*CustomResourceDefinitions, error) {
	genericServer, err := genericConfig.New("apiextensions-apiserver", delegationTarget)
	if err != nil {
		return nil, err
	}

	s := &CustomResourceDefinitions{
		GenericAPIServer: genericServer,
	}

	// What the REST API of the group is made of: a storage per resource,
	// by version.
	apiResourceConfig := c.ResourceConfig
	apiGroupInfo := handler.NewDefaultAPIGroupInfo(apiextensions.GroupName, c.scheme, genericConfig.Codecs)

	// The storage of each resource (one, shared by the versions).
	customResourceDefinitionStorage, customResourceDefinitionStatusStorage := customresourcedefinition.NewREST(backend, c.scheme)
	customResourceDefinitionStorage.EnableGarbageCollection = c.garbageCollection()

	storage := map[string]registry.Storage{}
	// customresourcedefinitions
	if resource := "customresourcedefinitions"; apiResourceConfig.ResourceEnabled(apiextensionsv1.SchemeGroupVersion.WithResource(resource)) {
		storage[resource] = customResourceDefinitionStorage
		storage[resource+"/status"] = customResourceDefinitionStatusStorage
	}
	if len(storage) > 0 {
		apiGroupInfo.VersionedResourcesStorageMap[apiextensionsv1.SchemeGroupVersion.Version] = storage
	}
	// crdlab only: apiextensions.k8s.io/v1beta1 when --runtime-config
	// turns it on (upstream ≥ 1.22 cannot serve it at all).
	if resource := "customresourcedefinitions"; apiResourceConfig.ResourceEnabled(v1beta1.SchemeGroupVersion.WithResource(resource)) {
		apiGroupInfo.VersionedResourcesStorageMap[v1beta1.SchemeGroupVersion.Version] = map[string]registry.Storage{
			resource: customResourceDefinitionStorage, resource + "/status": customResourceDefinitionStatusStorage,
		}
	}

	if len(apiGroupInfo.VersionedResourcesStorageMap) > 0 {
		if err := s.GenericAPIServer.InstallAPIGroup(&apiGroupInfo); err != nil {
			return nil, err
		}
	}

	// Custom resources: every /apis/<group>/<version>/… path the group
	// above does not claim goes to the crdHandler, and from it to the
	// delegate when no CRD serves it.
	handler.NewCRDHandler(s.GenericAPIServer)
	return s, nil
}
