// Command gencrds writes provider-shaped CRDs (package crdgen) for a test
// or benchmark outside this module — bench's "many CRDs" family, whose
// module does not require crdlab's — to a directory:
//
//	crds.jsonl   one CRD's JSON per line, CRD 0 first
//	index.json   per CRD: name, group, plural, kind, versions (storage
//	             last) and an instance with its required parameters
//
// Usage, from the repository root:
//
//	go run ./internal/crdgen/gencrds -n 500 -kib 265 -versions 2 -per-group 8 -out DIR
package main
