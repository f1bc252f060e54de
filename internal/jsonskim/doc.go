// Package jsonskim walks JSON text for the spans a caller wants — where a
// value begins and ends, an object's keys, an array's elements — checking
// no more of the grammar than that: a string is read for its quotes (a raw
// control character in it fails, as encoding/json refuses one), brackets
// are counted, and any other value runs to the next delimiter. Whoever
// decodes a span checks the rest of it.
//
// Its readers: the storage engine, which splices resourceVersions into its
// own stored bytes and cuts their metadata out (storage/objectjson.go,
// storage/metadata.go), and the client, which cuts a list's items out of a
// body before decoding each (client/listsplit.go). The client's decoder of
// PartialObjectMetadata (client/metadata/decode.go) is not one: it decodes
// what it keeps and checks the whole grammar, as encoding/json would.
//
// Upstream: none; kube-apiserver decodes whole objects with encoding/json.
package jsonskim
