package discovery

import (
	"net/http"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler/negotiation"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/scheme"
)

// The legacy core group ("") is served apart: /api lists its versions
// (APIVersions, or an aggregated document with the one group) and
// /api/<version> its resources, while /apis leaves it out.

// LegacyVersions returns the versions of the core group, preferred first.
func (m *Manager) LegacyVersions() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return sortedVersions(m.groups[""])
}

// ServeLegacyAPI answers /api: the aggregated document of the core group
// if the client asks for it, else APIVersions; 404 if the core group is
// not served.
//
// Mirrors legacyRootAPIHandler in endpoints/discovery/legacy.go and the
// legacy half of the aggregated discovery handler.
func (m *Manager) ServeLegacyAPI(w http.ResponseWriter, r *http.Request) {
	opts, err := negotiation.Negotiate(r.Header.Get("Accept"), aggregatedAllowed)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	versions := m.LegacyVersions()
	if len(versions) == 0 {
		responsewriters.WriteError(w, notFound())
		return
	}
	w.Header().Add("Vary", "Accept")
	if opts.Convert != nil {
		doc := m.aggregated(func(g string) bool { return g == "" })
		if opts.Convert.Version != Version {
			doc.APIVersion = GroupName + "/" + opts.Convert.Version
		}
		responsewriters.WriteObject(w, opts, http.StatusOK, doc)
		return
	}
	responsewriters.WriteObject(w, opts, http.StatusOK, &metav1.APIVersions{
		TypeMeta:                   metav1.TypeMeta{Kind: "APIVersions"},
		Versions:                   versions,
		ServerAddressByClientCIDRs: []metav1.ServerAddressByClientCIDR{{ClientCIDR: "0.0.0.0/0", ServerAddress: r.Host}},
	})
}

// ServeLegacyGroupVersion answers /api/<version>: the resources of the
// core group in that version, or 404.
func (m *Manager) ServeLegacyGroupVersion(w http.ResponseWriter, r *http.Request, version string) {
	m.ServeGroupVersion(w, r, scheme.GroupVersion{Version: version})
}
