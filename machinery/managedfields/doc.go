// Package managedfields is server-side apply's bookkeeping: who owns which
// field of an object (metadata.managedFields), and the merge of an applied
// configuration into the stored object, with conflicts when it would
// change a field another manager owns.
//
// Vocabulary:
//   - manager: who writes ("kubectl", "helm", a controller); from
//     ?fieldManager= or, for non-apply writes, the User-Agent.
//   - entry (metav1.ManagedFieldsEntry): one manager's field set, with its
//     operation (Apply or Update), apiVersion, time and subresource. A
//     field set travels as FieldsV1, a JSON trie:
//     {"f:spec":{"f:ports":{"k:{\"port\":80}":{".":{}}}}}.
//   - typed schema: how each list and map merges. A TypeConverter holds
//     one, converted from OpenAPI models (ToSchemaFromOpenAPI: a CRD's
//     x-kubernetes-list-type atomic/set/map, x-kubernetes-map-type, the
//     markers of built-in types), or deduced from the object.
//   - FieldManager: one kind in one version and subresource. Update
//     records a create, update, patch, /status or /scale write; Apply
//     merges an apply and answers conflicts (NewConflictError: 409 with
//     one FieldManagerConflict cause per field).
//   - ScaleHandler: moves the replicas' owner between a parent and its
//     autoscaling/v1 Scale.
//
// Layout: fieldmanager.go tells the story of one write (Update, Apply),
// step by step; schemaconv.go and typeconverter.go type objects;
// managedfields.go encodes entries; lastapplied.go migrates client-side
// apply; capmanagers.go bounds Update entries; conflict.go words errors.
//
// The merge engine is sigs.k8s.io/structured-merge-diff/v6 (v6.4.2, what
// k8s.io v0.37.2 uses): the library upstream runs, not a k8s.io/* module.
// Its typed values, field sets and merge rules are server-side apply;
// writing them again would be a second, drifting copy of the very
// semantics clients depend on. Everything around it is written here.
//
// Upstream:
//   - k8s.io/apimachinery/pkg/util/managedfields (fieldmanager.go,
//     typeconverter.go, scalehandler.go) and its internal package
//     (fieldmanager.go, structuredmerge.go, managedfields.go, conflict.go,
//     capmanagers.go, skipnonapplied.go, stripmeta.go,
//     managedfieldsupdater.go, buildmanagerinfo.go, versioncheck.go,
//     lastappliedmanager.go, lastappliedupdater.go, versionconverter.go)
//   - k8s.io/kube-openapi/pkg/schemaconv (openapi.go, smd.go)
//
// Differences from upstream:
//   - Objects are Unstructured in the request's version; typed objects
//     (CRDs, built-in kinds) are turned into it by the caller.
//   - Update entries are tracked from every create (upstream's
//     DefaultTrackOnCreateProbability is 1 too); there is no sampling.
//   - Apply does not default: its result is decoded (pruned, defaulted,
//     validated) like any body by the caller.
//   - An applied object that does not fit the schema is a 400 (upstream:
//     a 500, kubernetes#139253).
//   - The default ObjectConverter rewrites apiVersion only, a CRD's None
//     conversion strategy (crdlab has no webhooks).
package managedfields
