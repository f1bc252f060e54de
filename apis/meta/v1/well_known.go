package v1

// Namespaces every cluster has (kube-node-lease is core/v1's
// NamespaceNodeLease).
//
// Mirrors the constants of the same names in
// k8s.io/apimachinery/pkg/apis/meta/v1/types.go.
const (
	// NamespaceDefault is where objects go when no namespace is given.
	NamespaceDefault = "default"
	// NamespaceAll is the namespace of a request across every namespace.
	NamespaceAll = ""
	// NamespaceNone is the namespace of cluster-scoped objects.
	NamespaceNone = ""
	// NamespaceSystem is the namespace of the system's own objects.
	NamespaceSystem = "kube-system"
	// NamespacePublic is readable by everyone.
	NamespacePublic = "kube-public"
)
