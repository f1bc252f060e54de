// Package controllertest holds the fakes the CRD controllers' unit tests
// share: an informer whose events a test fires by hand, and a CRD client
// that keeps CRDs in memory with the server's optimistic concurrency.
//
// These test one sync function at a time; the whole loop (client, watch,
// informer, every controller) is tested against a real server in package
// apiserver.
//
// Vocabulary: Informer is a SharedIndexInformer whose Add, Update and
// Delete fire the handlers synchronously; Client is a controller.CRDClient
// whose UpdateStatus behaves like the /status endpoint (409 on a stale
// resourceVersion, 404 on a missing CRD, deletion when the last finalizer
// of a deleted CRD goes) and records every write.
//
// Upstream: the fake clientset and informers of
// k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/fake,
// which upstream's controller tests use the same way.
//
// Differences from upstream: no object tracker or reactors; only what the
// controllers use — UpdateStatus, and an informer's handlers and cache.
package controllertest
