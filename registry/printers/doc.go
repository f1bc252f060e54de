// Package printers prints the built-in kinds as the rows of a Table, the
// server-side printing `kubectl get` shows: NAME, STATUS, AGE for
// Namespaces; NAME, TYPE, DATA, AGE for Secrets; and so on. It works on
// internal (hub) objects, so that both versions of an Event print alike.
// The server always fills every column; kubectl hides those with
// Priority > 0 unless asked for -o wide.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/printers/internalversion/printers.go
//     (AddHandlers: the column definitions; printNamespace, printSecret,
//     printConfigMap, printEvent, printLease)
//   - k8s.io/kubernetes/pkg/printers/storage (TableConvertor, always Wide)
//
// Differences from upstream: column descriptions are crdlab's own words.
package printers
