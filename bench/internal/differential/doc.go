// Package differential sends the same CRDs and custom resources to crdlab
// and to the upstream apiextensions-apiserver (v0.37.2, on etcd) and
// reports every difference in their answers: status code, reason, the
// causes of a 422 (type, field, message), warnings, and the object stored.
//
// Vocabulary:
//   - A Case is one file of testdata/: a list of Steps, usually a CRD
//     first and then custom resources written against it. Its Tier is
//     "ci" (run by go test, in make test) or "full" (run by make
//     differential as well).
//   - A Step is one request: createCRD, updateCRD, create, update (a PUT of
//     the given object over the stored one, with the stored
//     resourceVersion) or patch (a JSON merge patch). Expect says what the
//     corpus author meant ("ok" or "invalid"); upstream's answer must agree,
//     which keeps the corpus honest.
//   - An Outcome is one server's answer to a Step, normalized: volatile
//     metadata dropped, causes sorted (upstream lists them in map order),
//     CEL's per-compilation type names (selfType123) made one.
//   - A Diff is a Step whose two Outcomes differ.
//
// There are two corpora:
//   - The own corpus (testdata/, corpus.go) is written for crdlab: CRDs
//     shaped like those of gateway-api, cert-manager, cluster-api,
//     crossplane and kyverno, using every schema feature and CEL library
//     upstream supports, with valid and invalid objects for each.
//   - The real corpus (realcrds.go) is the CRDs real projects ship in their
//     Go modules, which the test-only module bench/realcrds requires; they
//     are read from the module cache (no file is copied into this
//     repository). A RealCase per CRD: create it, then custom resources
//     generated from its schema (generate.go: minimal, full, every bound
//     broken, wrong types, nulls, unknown fields, every scalar changed;
//     updates and a patch) and the project's own examples. Projects lists
//     them, and which CRDs are in the ci tier.
//
// Every CRD-creating step of all cases runs first and the harness waits
// for them to be Established, so that upstream's two-second pause after a
// CRD becomes Established is paid once, not once per case.
package differential
