// Package finalizer holds the CRDFinalizer: the controller that lets a
// deleted CRD go only after every one of its custom resources has gone.
//
// Vocabulary:
//   - Deleting a CRD does not remove it: the CRD storage sets
//     deletionTimestamp, adds the finalizer
//     customresourcecleanup.apiextensions.k8s.io and sets Terminating=True
//     (reason InstanceDeletionPending). The CRD lives on, Terminating,
//     until that finalizer is removed.
//   - While the CRD has a deletionTimestamp or Terminating is True, the
//     crdHandler refuses to create instances (403 Forbidden, "create not
//     allowed while custom resource definition is terminating"; a patch
//     that would create one too) but still lists, gets, updates and
//     deletes them.
//   - The finalizer then: sets Terminating=True, reason
//     InstanceDeletionInProgress ("CustomResource deletion is in
//     progress"); deletes the instances (a DeleteCollection, sent in
//     pages, per namespace a page of the list names, or one for a
//     cluster-scoped CRD); lists again until none remain; sets Terminating=False, reason
//     InstanceDeletionCompleted ("removed all instances"); and removes its
//     finalizer in the same status write, which deletes the CRD. Its
//     endpoint then answers 404.
//   - A CRD that was never Established never served an instance: it gets
//     Terminating=False, reason NeverEstablished, and goes at once.
//   - While instances remain (some have finalizers of their own, or a
//     create raced the Terminating condition) sync fails and the key is
//     retried with backoff; each try deletes what is left and lists again.
//
// Tracing: the queue is "crd_finalizer", the actor "finalizer"; its
// status events are listed in docs/controllers.md ("Tracing").
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/controller/finalizer/crd_finalizer.go
//     (CRDFinalizer, CRClientGetter, ListerCollectionDeleter, sync,
//     deleteInstances, addCustomResourceDefinition,
//     updateCustomResourceDefinition)
//   - k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition/etcd.go
//     ((*REST).Delete: the finalizer and InstanceDeletionPending)
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go
//     (forbidCreateAdmission: the 403 on create while terminating)
//
// Differences from upstream (in full in docs/controllers.md):
//   - Instances are listed (as metadata) and deleted through the metadata
//     client over loopback HTTP (MetadataCRClientGetter), not straight from the
//     crdHandler's storage: the controller stays on the client side of
//     the wire, as every other controller.
//   - Lists and deletes go in pages of 500 (limit and continue), and a
//     namespace is deleted as soon as a page names it (then the list
//     starts again). Upstream lists every instance first and deletes a
//     namespace's in one DeleteCollection, which holds every object until
//     its last delete and answers them all: for 5,000 instances that set
//     the server's peak heap (docs/crd-memory.md, "Deleting a CRD with its
//     instances").
//   - sync returns ErrInstancesRemain at once and the queue retries with
//     backoff, instead of polling every 5 s for up to a minute inside
//     sync (so the InstanceDeletionCheck reason is not used).
//   - The InstanceDeletionInProgress write is skipped when the CRD already
//     says so.
//
// A CRD whose group and plural are those of a built-in resource
// (customresourcedefinitions.apiextensions.k8s.io,
// apiservices.apiregistration.k8s.io) is finalized without touching
// instances (Terminating=False, OverlappingBuiltInResource), as upstream.
// Here that matters even more: its URL is the built-in's, so a
// DeleteCollection there would delete every CRD.
package finalizer
