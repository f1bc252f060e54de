// Package archtest keeps crdlab's dependency rules by test, not by memory.
//
// Vocabulary: a group is the first element of a package path under the
// module (storage, handler, controller, …; machinery/labels belongs to the
// group machinery, apis/meta/v1 to apis). An edge is an import of
// production code (test files excluded) from one group to another. A rule
// forbids a group to import another group, or a package prefix to import
// another prefix.
//
// TestDependencyRules fails when a forbidden edge appears: each failure
// names the rule, the importing package and the imported one.
// TestArchitectureGraph recomputes the group graph and compares it with the
// one drawn in docs/architecture.md (between the "archtest:graph" markers);
// `go test ./internal/archtest -update` rewrites that block after an
// intended change, so the drawing cannot drift from the code.
// TestNoKubernetesImports checks every module of the repository: only the
// test-only modules (e2e, bench) may depend on k8s.io/*.
//
// The tests shell out to `go list`, the same tool that builds the code, so
// they see exactly what the compiler sees.
//
// Upstream: kubernetes keeps its rules in hack/verify-imports.sh and
// staging/publishing/import-restrictions.yaml (import-boss); this is the
// same idea in one Go test.
package archtest
