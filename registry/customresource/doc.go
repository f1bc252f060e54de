// Package customresource is the REST storage of the custom resources of one
// CRD: a registry.Store of unstructured objects plus the /status and
// /scale subresources. The handler builds one per CRD (per storage
// version), with the CRD's schema checks passed in, and converts objects
// between the served versions and the storage version around every call.
//
// Vocabulary: the storage version is the one version of the CRD objects
// are stored in (and handed to this package in); the status subresource
// splits writes in two — the main endpoint cannot change .status, /status
// can change nothing else; the scale subresource reads and writes replica
// counts at the JSON paths the CRD names; generation counts the changes of
// everything but metadata (and, with the status subresource, status);
// selectable fields are the CRD's selectableFields, usable in field
// selectors next to metadata.name and metadata.namespace.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/registry/customresource: etcd.go
//     (NewStorage, StatusREST, ScaleREST, scaleFromCustomResource,
//     scaleUpdatedObjectInfo), strategy.go (customResourceStrategy),
//     status_strategy.go (statusStrategy), validator.go
//     (customResourceValidator)
//   - customresource_handler.go: crConverter.ConvertFieldLabel (which
//     field selector names are allowed)
//
// Differences from upstream:
//   - One storage per CRD in its storage version, not one per served
//     version: the handler converts. Selectable fields are therefore read
//     from the storage-version object.
//   - Schema validation (OpenAPI, list types, embedded resources, CEL
//     rules) is passed in as functions returning Status causes
//     (Config.Validator, Config.ValidateUpdate): the handler owns the
//     compiled schemas of each version.
//   - The status endpoint validates the whole object with Config's
//     validator (upstream uses a status-only schema validator).
//   - No table convertor, no categories or short names (the handler's
//     discovery knows them).
//   - ValidateUpdate does not repeat the metadata update checks that
//     registry.BeforeUpdate already runs, so no error is reported twice.
package customresource
