package apiresource

import (
	"crypto/sha256"
	"encoding/base64"

	"github.com/crdlab/crdlab/scheme"
)

// Resource is what discovery says about one resource of a group version.
//
// Mirrors the fields that metav1.APIResource and apidiscoveryv2's
// APIResourceDiscovery share, with the subresources nested as in the
// latter.
type Resource struct {
	// Name is the plural, e.g. "crontabs".
	Name         string
	SingularName string
	Namespaced   bool
	Kind         string
	Verbs        []string
	ShortNames   []string
	Categories   []string
	// StorageVersionHash identifies the storage version (see
	// StorageVersionHash); may be empty.
	StorageVersionHash string
	Subresources       []Subresource
}

// Subresource is a subresource of a Resource: "status" or "scale".
type Subresource struct {
	Name string
	// Kind is the kind the subresource answers with; for scale it is
	// autoscaling/v1 Scale, for status the resource's own kind.
	Kind  scheme.GroupVersionKind
	Verbs []string
}

// StorageVersionHash returns the hash upstream advertises for a
// resource's storage version: the first 8 bytes of the SHA-256 of
// "<group>/<version>/<kind>", base64-encoded. The core group is "", so
// its input starts with "/".
//
// Mirrors k8s.io/apiserver/pkg/endpoints/discovery.StorageVersionHash.
func StorageVersionHash(group, version, kind string) string {
	sum := sha256.Sum256([]byte(group + "/" + version + "/" + kind))
	return base64.StdEncoding.EncodeToString(sum[:8])
}
