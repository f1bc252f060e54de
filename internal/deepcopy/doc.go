// Package deepcopy copies Go values that share no memory with the original.
//
// Upstream generates a DeepCopy method for every API type with deepcopy-gen
// (zz_generated.deepcopy.go). crdlab has few types and wants them readable, so
// one reflective function does the job: it follows pointers, slices, maps,
// structs, arrays and interfaces (JSON values held as any), and copies
// everything else by value.
//
// Differences from upstream: reflection is slower than generated code; the
// storage and handler hot paths copy Unstructured maps with CopyJSON, which
// needs no reflection.
package deepcopy
