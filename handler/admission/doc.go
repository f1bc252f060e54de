// Package admission is the step between a decoded request and the
// registry where the server may still refuse a write for reasons that are
// not the object's own: the namespace it goes into is missing or being
// deleted, the namespace is one that may never be deleted.
//
// Vocabulary: an admission plugin (Interface) sees the Attributes of a
// write — operation, kind, resource, namespace, name, the object — and
// returns nil or an API error. The handler hands the plugin to the
// registry as the create, update and delete validation functions
// (ValidateObjectFunc), so that a plugin sees the object exactly as it is
// about to be written, as upstream's validating admission does.
//
// The one plugin here, NamespaceLifecycle (lifecycle.go), is upstream's:
// creates in a missing namespace are 404 `namespaces "x" not found`,
// creates in a Terminating one 403 with a NamespaceTerminating cause, and
// deleting default, kube-system or kube-public is 403.
//
// Upstream:
//   - k8s.io/apiserver/pkg/admission: interfaces.go (Attributes,
//     Operation, ValidationInterface), errors.go (NewForbidden)
//   - k8s.io/apiserver/pkg/registry/rest/create.go
//     (AdmissionToValidateObjectFunc)
//   - k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go
//
// Differences from upstream: no mutating admission, no webhooks, no
// plugin configuration; one plugin, so no chain of plugins (upstream's
// chain.go).
package admission
