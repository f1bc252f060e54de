package garbagecollector

import (
	"fmt"
	"sync"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// objectReference names an object of the graph: what an ownerReference
// says of it, plus its namespace.
//
// Mirrors objectReference in
// k8s.io/kubernetes/pkg/controller/garbagecollector/graph.go.
type objectReference struct {
	metav1.OwnerReference
	Namespace string
}

func (r objectReference) String() string {
	return fmt.Sprintf("[%s/%s, namespace: %s, name: %s, uid: %s]", r.APIVersion, r.Kind, r.Namespace, r.Name, r.UID)
}

// node is one object in the dependency graph: who owns it (owners, from
// its ownerReferences) and whom it owns (dependents, the nodes whose
// ownerReferences name it).
//
// The single GraphBuilder goroutine (processGraphChanges) is the only
// writer of nodes; the garbage collector's workers read them. A node's
// identity never changes: a virtual node that is observed with other
// coordinates is replaced by a clone.
//
// Mirrors node in graph.go (one lock for the fields instead of one
// each).
type node struct {
	identity objectReference

	mu sync.RWMutex // guards the fields below
	// dependents are the nodes that name this one in an ownerReference;
	// nil until the first (most objects own nothing, and a node is kept
	// for every object).
	dependents map[*node]struct{}
	// owners are the object's ownerReferences as last observed.
	owners []metav1.OwnerReference
	// beingDeleted: the object has a deletionTimestamp (a one-way trip).
	beingDeleted bool
	// deletingDependents: beingDeleted and the foregroundDeletion
	// finalizer — the owner waits for its blocking dependents to go.
	deletingDependents bool
	// virtual: the node stands for an owner some ownerReference names but
	// no informer has shown yet; the collector checks with the server
	// whether it exists.
	virtual bool
}

// String is the node's identity: what the queues' traces show.
func (n *node) String() string { return n.identity.String() }

// clone copies n (for replacing a virtual node's identity).
func (n *node) clone() *node {
	n.mu.RLock()
	defer n.mu.RUnlock()
	c := &node{
		identity:           n.identity,
		dependents:         make(map[*node]struct{}, len(n.dependents)),
		owners:             append([]metav1.OwnerReference(nil), n.owners...),
		beingDeleted:       n.beingDeleted,
		deletingDependents: n.deletingDependents,
		virtual:            n.virtual,
	}
	for d := range n.dependents {
		c.dependents[d] = struct{}{}
	}
	return c
}

func (n *node) markBeingDeleted() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.beingDeleted = true
}

func (n *node) isBeingDeleted() bool {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.beingDeleted
}

func (n *node) markDeletingDependents() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.deletingDependents = true
}

func (n *node) isDeletingDependents() bool {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.deletingDependents
}

func (n *node) markObserved() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.virtual = false
}

func (n *node) isObserved() bool {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return !n.virtual
}

func (n *node) setOwners(owners []metav1.OwnerReference) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.owners = owners
}

func (n *node) getOwners() []metav1.OwnerReference {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.owners
}

func (n *node) addDependent(d *node) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.dependents == nil {
		n.dependents = map[*node]struct{}{}
	}
	n.dependents[d] = struct{}{}
}

func (n *node) deleteDependent(d *node) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.dependents, d)
}

func (n *node) dependentsLength() int {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return len(n.dependents)
}

// getDependents returns a snapshot of n's dependents: the graph may
// change the moment it returns.
func (n *node) getDependents() []*node {
	n.mu.RLock()
	defer n.mu.RUnlock()
	out := make([]*node, 0, len(n.dependents))
	for d := range n.dependents {
		out = append(out, d)
	}
	return out
}

// blockingDependents returns the dependents whose ownerReference to n
// has blockOwnerDeletion: true — those a foreground deletion of n waits
// for.
//
// Mirrors (*node).blockingDependents.
func (n *node) blockingDependents() []*node {
	var out []*node
	for _, d := range n.getDependents() {
		for _, owner := range d.getOwners() {
			if owner.UID == n.identity.UID && owner.BlockOwnerDeletion != nil && *owner.BlockOwnerDeletion {
				out = append(out, d)
			}
		}
	}
	return out
}

// ownerReferenceCoordinates keeps only what identifies the owner (uid,
// name, kind, apiVersion).
func ownerReferenceCoordinates(ref metav1.OwnerReference) metav1.OwnerReference {
	return metav1.OwnerReference{UID: ref.UID, Name: ref.Name, Kind: ref.Kind, APIVersion: ref.APIVersion}
}

// uidToNode is the graph's index: every node by its object's UID.
//
// Mirrors concurrentUIDToNode in graph.go.
type uidToNode struct {
	mu    sync.RWMutex // guards nodes
	nodes map[metav1.UID]*node
}

func (m *uidToNode) Write(n *node) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nodes[n.identity.UID] = n
}

func (m *uidToNode) Read(uid metav1.UID) (*node, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, ok := m.nodes[uid]
	return n, ok
}

func (m *uidToNode) Delete(uid metav1.UID) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.nodes, uid)
}

func (m *uidToNode) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.nodes)
}
