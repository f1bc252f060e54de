// Package docmap checks that the documentation's references to the code
// still hold, so that docs/map.md (the map from the seed articles to crdlab
// and upstream) cannot silently drift from the tree.
//
// Vocabulary:
//
//   - A reference is a code span (`…`) in Markdown that names something in
//     this repository: a Go declaration `path/file.go:Name` or
//     `path/file.go:Type.Member` (a method, an interface method or a struct
//     field), a file `path/file.go`, a notebook cell
//     `notebooks/NN-name.ipynb#cell-id`, or a directory `examples/NN-topic/`.
//     Paths are relative to the repository root and have at least one
//     slash: a bare `doc.go` is prose about some package, not a reference.
//   - An upstream reference has the same shape but starts with a module path
//     (its first element has a dot: `k8s.io/…`, `sigs.k8s.io/…`,
//     `go.etcd.io/…`). It is documentation, not checked: upstream's source
//     is not in this repository.
//   - A link is a Markdown link to a relative path; its target must exist.
//   - A diagram reference is a bare `path/file.go` or `path/file.go:Name`
//     in a diagram source (notebooks/diagrams/*.mmd, mermaid has no code
//     spans): DiagramRefs finds them, and each is checked as strictly as
//     docs/map.md's.
//   - Strict checking (docs/map.md, docs/questions.md) checks every
//     reference; elsewhere a path whose first element is not at the
//     repository root (`testdata/fuzz/`) is taken for prose and skipped.
//
// Differences from a link checker: only this repository is checked, never
// the network; anchors are checked only for notebook cells.
//
// Upstream: none; the map's upstream references point at kube-apiserver,
// client-go and apimachinery, which this package never reads.
package docmap
