// Package apitest is an in-memory HTTP server that answers the way crdlab's
// server does on the wire — JSON objects under
// /apis/<group>/<version>[/namespaces/<ns>]/<resource>[/<name>[/<subresource>]],
// errors as metav1.Status with upstream's reasons and codes, watches as a
// stream of {"type","object"} lines — so the client packages can be tested
// without the real server, which is built elsewhere in the tree.
//
// It is a test server for the client, not a model of crdlab's internals:
// any resource exists as soon as an object is created in it; every resource
// has a status subresource; versions are not converted; patches are merge
// patches only; label selectors are equality lists.
package apitest
