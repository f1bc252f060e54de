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

// The garbage collector's finalizers, which a delete's propagationPolicy
// adds.
const (
	// FinalizerOrphanDependents: the dependents are orphaned (their
	// ownerReferences to this object removed) before it goes.
	FinalizerOrphanDependents = "orphan"
	// FinalizerDeleteDependents: the dependents that block owner deletion
	// are deleted before this object goes (foreground deletion).
	FinalizerDeleteDependents = "foregroundDeletion"
)
