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
//   - the bound: beyond MaxJSON bytes of JSON, the entries finished
//     (Finish: their CRD is Established) FinishGrace ago go first, then
//     the entries remembered first (the controllers take CRDs in the
//     order they were created); once no entry was used for Idle, all go, so
//     the memo empties once CRDs settle. Specs under MinJSON are not kept.
//
// What it costs: while CRDs are on their way to Established, each memo
// keeps up to MaxJSON (256 MiB) of JSON, and the specs decoded from it. The
// controllers' client shares those with its informer's cache, which holds
// them anyway; the storage codec's internal specs are held by the memo
// alone, about twice their JSON. A burst of real-size creates that fills
// both memos holds about 1 GiB more (heap) than without them until the
// burst ends (at 2,000 CRDs the peak RSS was 5.8–6.6 GiB, against 4.2–4.6
// with half the bound and 3.1 with a quarter; a burst of 500 does not fill
// them), and is garbage only once they empty: the server's idle
// collection (apiserver/idlegc.go) waits longer than Idle for that
// ("Session 13: RSS after settling at 500"). With the former bound of 32
// specs, a backlog longer than 32 CRDs was decoded whole again at each
// step (docs/crd-memory.md, "Session 12: the spec memo's bound").
//
// Users: registry/customresourcedefinition (the storage codec, internal
// specs) and client (the controllers' CRD client, v1 specs).
//
// Upstream: none. kube-apiserver decodes a stored CRD whole on every read
// (its watch cache keeps one decoded object per revision), and client-go
// decodes every event and answer whole.
package specmemo
