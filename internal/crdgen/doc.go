// Package crdgen makes CustomResourceDefinitions the size and shape of the
// ones infrastructure providers install — Crossplane's generated providers
// above all (tens to hundreds of KB each, one per cloud resource, hundreds
// per provider): a spec with forProvider, initProvider and the provider
// references, a status with atProvider and conditions, nested blocks
// several levels deep, a description on every field, CEL rules for the
// required parameters, and several served versions, each with its own full
// copy of the schema. Scale tests and measurements load many of them into
// a server (see apiserver's BenchmarkMemoryPerCRD); the command gencrds
// writes them to files for modules that do not require this one (bench's
// many-CRDs family).
//
// Vocabulary:
//
//   - Options say how big a CRD is (Bytes, the JSON size of the whole CRD,
//     all versions together), how many versions it has, and how deep its
//     blocks nest. A CRD is made from Options, its index and a seed: the
//     same three always give the same bytes.
//   - A parameter is a field of forProvider; initProvider has the same
//     ones, atProvider the same ones plus id, without the references.
//   - A block is a parameter that is a list of objects with parameters of
//     its own (Terraform's nested blocks, as Crossplane's generator writes
//     them).
//   - A reference is a pair of parameters, <name>Ref and <name>Selector,
//     that point at another managed resource.
//
// The output is JSON (what a client POSTs), built from maps with the
// standard library only, so that any module's tests can use it.
//
// Upstream: none; the shape follows the CRDs that crossplane/upjet
// generates (pkg/types) and the ones in the providers' package/crds.
package crdgen
