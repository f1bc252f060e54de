// Package e2e checks crdlab's central claim: the tools Kubernetes users
// already have work against it unchanged. Its tests build the real kubectl
// (from k8s.io/kubectl/pkg/cmd, see cmd/kubectl) and crdlab, start
// `crdlab serve` as a separate process on a loopback port of its choosing
// (package internal/proc, shared with e2e/ui), and drive it
// with kubectl, client-go and a controller-runtime manager, exactly as a
// user would drive a cluster.
//
// It is a module of its own so that the main module never depends on
// k8s.io/*: everything Kubernetes lives here, pinned to one release line
// (k8s.io/* v0.37.x, controller-runtime v0.25.x).
//
// Vocabulary:
//   - server: one `crdlab serve` process with its own data dir, kubeconfig
//     and HOME (so kubectl's discovery cache starts empty); one per test
//     (TestKubectl, TestClientGo, TestControllerRuntime …), whose subtests
//     run in order and build on each other. CRDLAB_E2E_LOGS=1 prints each
//     server's request log even when its test passes.
//   - feature: one row of docs/compatibility.md — a kubectl command or
//     client-go feature a subtest tries. The row passes iff the subtest
//     passes; a subtest that checks a documented gap (crdlab answers with a
//     clear error, as upstream does when a feature is off) marks its row
//     "not supported" and says why.
//
// Run it with `make e2e`, or `cd e2e && go test -count=1 ./...` (go test
// cannot see that the binaries depend on the parent module, so a cached
// result would be stale). To regenerate docs/compatibility.md from a full
// run:
//
//	cd e2e && CRDLAB_WRITE_COMPAT=1 go test -count=1 ./...
//
// (or `go test -count=1 . -args -update-compat`). CI runs without writing.
//
// TestProtobufFixtures keeps the fixtures of crdlab's protobuf decoder
// (handler/protobuf/testdata) equal to what upstream's serializer writes;
// `go test -run TestProtobufFixtures . -args -update-protobuf-fixtures`
// rewrites them.
//
// TestReferenceBuiltinAPI (reference_test.go) sends the same requests to
// crdlab and to the real kube-apiserver v1.37.2 (built from the test-only
// module ../reference, run on /usr/bin/etcd) and compares the normalised
// answers: `make ref-chain`. Without -ref (CI) it compares crdlab with
// kube-apiserver's recorded answers, testdata/reference/builtin.json;
// `make ref-chain-update` rewrites them.
//
// Upstream: test/e2e and test/integration/apiextensions in kubernetes, which
// run the same clients against a real apiserver.
//
// The /ui page is tested apart, in e2e/ui, with Debian's Chromium.
//
// Differences from upstream: no cluster. Most tests talk plain HTTP to
// 127.0.0.1 without authentication, which kubectl and client-go accept as
// they would any API server URL; TestTLS runs the same clients over HTTPS
// with bearer tokens and the Static authorization policy.
package e2e
