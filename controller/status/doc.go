// Package status holds the NamingConditionController: the controller that
// decides which names a CRD is served under. It reads spec.names, checks
// them against the names the other CRDs of the same group have already
// been given, and writes the outcome to status.acceptedNames and the
// NamesAccepted condition.
//
// Vocabulary:
//   - Requested names are spec.names (plural, singular, shortNames, kind,
//     listKind, categories); accepted names are status.acceptedNames, the
//     names the server actually serves. They differ while a change is
//     pending or conflicts.
//   - Within a group, resource names (plurals, singulars and short names)
//     share one namespace and kinds (kinds and list kinds) another. A
//     requested name is "equal to accepted or fresh" when the CRD already
//     holds it or no CRD of the group does; otherwise it conflicts, and the
//     CRD keeps its old accepted name there.
//   - NamesAccepted is True (reason NoConflicts) when every requested name
//     is accepted, else False with the reason of the last conflict found:
//     PluralConflict, SingularConflict, ShortNamesConflict, KindConflict or
//     ListKindConflict, and the message `"<name>" is already in use`.
//   - Established is set here only on the way in: False (NotAccepted, "not
//     all names are accepted") until names are accepted, then False
//     (Installing, "the initial names have been accepted") for the
//     establishing controller to turn True. Once True it is never touched
//     here.
//
// Releasing a name (a CRD deleted, or renamed) can un-block another CRD of
// the group, so after every write and every delete the controller queues
// the group's other CRDs again.
//
// The read-your-writes problem: with one worker syncing CRD a then CRD b of
// the same group, b's sync may read the informer's cache before a's new
// accepted names have come back through the watch, and accept a name a has
// just taken. A mutation cache (the accepted names this controller wrote,
// used while they are newer than the cache's copies) closes that window.
//
// Several workers: upstream runs one, so that no two decisions overlap.
// crdlab's workers decide one at a time too (a mutex around reading the
// group's names and deciding), but send their status writes side by side:
// a write on its way holds the names it is giving (inFlight) as well as
// the CRD's old ones until it is answered, and then the group is queued
// again. A burst of real-size CRDs otherwise waits for one status write
// at a time: at 2,000 CRDs the last NamesAccepted came about 50 s after
// the last create (docs/crd-memory.md, "Session 24").
//
// Tracing: with controller.Options.Tracer set, the controller's queue
// ("crd_naming_condition_controller") emits workqueue events and each sync
// a "sync" event (actor "naming"); each status write is a "status" event,
// "NamesAccepted=True (NoConflicts), Established=False (Installing)" or
// NamesAccepted=False with the conflict's reason.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/controller/status/naming_controller.go
//     (NamingConditionController, getAcceptedNamesForGroup,
//     calculateNamesAndConditions, equalToAcceptedOrFresh, sync,
//     requeueAllOtherGroupCRDs)
//   - k8s.io/client-go/tools/cache/mutation_cache.go
//     (NewIntegerResourceVersionMutationCache)
//
// Differences from upstream:
//   - The mutation cache is a small map in this package, and keeps only
//     the accepted names written (upstream's keeps the whole written CRD,
//     schemas and all, for 60 s). An entry goes when the informer's copy
//     is as new (crdlab's resourceVersions are the store's integer
//     revisions, as etcd's) or the CRD is gone.
//   - Run runs the workers it is given (the server: four); upstream's
//     runs one. sync is cut in two around the status write (decide,
//     settle), and a failed write also queues the group again (its
//     names may have turned another CRD away meanwhile). Errors go to
//     the slog logger, not utilruntime.HandleError.
package status
