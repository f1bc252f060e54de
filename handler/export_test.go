package handler

import "github.com/crdlab/crdlab/scheme"

// TypeConverterBuilt reports whether the serving info the crdHandler holds
// for the CRD named name has built its type converter (server-side
// apply's typed schema); ok is false if there is no serving info.
func TypeConverterBuilt(c *CRDHandler, name string) (built, ok bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	crd, found := c.crds[name]
	if !found {
		return false, false
	}
	info, found := c.infos[crd.UID]
	if !found || info.typeConverter == nil {
		return false, false
	}
	return info.typeConverter.built(), true
}

// OpenAPIBuilds returns how many OpenAPI documents h has built.
func OpenAPIBuilds(h *GenericAPIServer) int {
	h.cfg.openapi.mu.Lock()
	defer h.cfg.openapi.mu.Unlock()
	return h.cfg.openapi.builds
}

// SchemasCompiled reports whether the serving info the crdHandler holds for
// the CRD named name has compiled its versions' schemas; ok is false if
// there is no serving info.
func SchemasCompiled(c *CRDHandler, name string) (compiled, ok bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	crd, found := c.crds[name]
	if !found {
		return false, false
	}
	info, found := c.infos[crd.UID]
	if !found || info.schemas == nil {
		return false, false
	}
	return info.schemas.compiled(), true
}

// ReadWholeForUpdates makes the field manager of the scope of resource in
// gv read both objects of a create or update whole, with toWire, as
// before updates had their own reader (endpoints.FieldManager.WithUpdateWire):
// what TestCRDFieldManager_VersionsElided compares with.
func ReadWholeForUpdates(h *GenericAPIServer, gv scheme.GroupVersion, resource string) {
	h.groups[gv][resource].FieldManager.WithUpdateWire(nil)
}
