// Package reliability holds crdlab's process-level reliability tests: they
// build `crdlab` once, run `crdlab serve` as a real process on a free
// loopback port, and check what an operator trusting it with data would
// check — that acknowledged writes survive SIGKILL with the
// resourceVersions they were given, that watches resume without gaps, that
// SIGTERM finishes or fails every request cleanly, that hostile requests
// get the right 4xx and change nothing, that 200 watchers and writers for
// a minute leave no goroutines or memory behind and see every event in
// order, and that access control (401, 403, TLS, the refusal to serve a
// public address without authentication) holds.
//
// Vocabulary: a server is one `crdlab serve` process (server.go); an ack
// is a write that got a 2xx, with the resourceVersion and the counter
// value it wrote; the history is every event of the crontabs resource,
// replayed by a watch from before the first write; Check is
// storage.(*DB).Check, run on the data file while no server has it open.
//
// The figures these tests print (rounds, writes, events, goroutines, heap)
// are the ones docs/reliability.md quotes; run them with
//
//	go test -v -count=1 ./test/reliability/
//
// Everything runs in CI (`make test`): the crash test takes 20+ SIGKILL
// rounds in well under a minute, the soak test exactly 60 s of load.
//
// Upstream: kubernetes test/integration (apiserver, etcd storage tests)
// and etcd's functional tester, which kill members and check that no
// acknowledged write is lost.
//
// Differences from upstream: one process, one data file, no cluster.
package reliability
