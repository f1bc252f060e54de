// Package specmemo remembers decoded CRD specs by their JSON, so that a
// spec seen again byte for byte is not decoded again, and a spec decoded
// here is written by copying its JSON. A real-size CRD's spec is hundreds
// of KB of schema, and on its way to Established the same spec goes
// through the server's storage codec and the controllers' client about a
// dozen times unchanged: a create, then status writes that keep the spec.
//
// Vocabulary:
//   - a Memo holds Entries: a spec's JSON and the spec decoded from it.
//     Lookup finds an entry by its JSON (for a decode), Find by the spec
//     itself (its versions' backing array, then every field compared
//     shallowly: for an encode).
//   - Remember adds an entry. From then on its spec is shared by every
//     decode that finds it, and read only: nothing may change it in place
//     (DeepCopy copies all of it). Each user states why that holds for it.
//   - NoteWritten and TakeWritten pair a spec written whole with its JSON
//     until a reader decodes that JSON back, so the reader can tell
//     whether the JSON is the writer's own (the storage codec's use).
//   - the bound: entries are dropped, least recently used first, beyond
//     MaxEntries, and an idle sweep drops those unused for Idle, so the
//     memo empties once CRDs settle. Specs under MinJSON are not kept.
//
// Users: registry/customresourcedefinition (the storage codec, internal
// specs) and client (the controllers' CRD client, v1 specs).
//
// Upstream: none. kube-apiserver decodes a stored CRD whole on every read
// (its watch cache keeps one decoded object per revision), and client-go
// decodes every event and answer whole.
package specmemo
