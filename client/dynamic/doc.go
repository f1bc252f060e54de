// Package dynamic reads and writes any resource of a server — custom
// resources above all, which have no Go type — as unstructured objects
// (JSON maps). crdlab's controllers use it to reach the instances of a CRD,
// e.g. the finalizer deleting every CronTab of a CRD being deleted.
//
// Vocabulary: a resource is named by a scheme.GroupVersionResource
// ({stable.example.com v1 crontabs}); Resource(gvr) gives a client over all
// namespaces (or of a cluster-scoped resource), .Namespace(ns) narrows it.
// Objects are *unstructured.Unstructured, lists *unstructured.UnstructuredList,
// watch events carry *unstructured.Unstructured (ERROR events a
// *metav1.Status). subresources ("status", "scale") follow the name in the
// path. Errors from the server are *apierrors.StatusError.
//
// The paths are /apis/<group>/<version>[/namespaces/<ns>]/<resource>[/<name>[/<subresource>]]
// (or /api/<version>/… for the core group), built on an unversioned
// client.RESTClient with AbsPath.
//
// Upstream:
//   - k8s.io/client-go/dynamic/interface.go (Interface, ResourceInterface,
//     NamespaceableResourceInterface)
//   - k8s.io/client-go/dynamic/simple.go (DynamicClient, NewForConfig,
//     dynamicResourceClient; makeURLSegments is client.ResourcePath)
//
// Differences from upstream:
//   - Not implemented: NewForConfigAndClient, the fake client, and
//     dynamicinformer / dynamiclister.
//   - A namespace, name or subresource with "/" or "%", or "." / "..", is
//     refused before sending (upstream's validateNamespaceWithOptionalName
//     checks the namespace and the name, not subresources).
//   - A list without timeoutSeconds keeps the Config's Timeout.
package dynamic
