// Package watch is the vocabulary every watch in crdlab speaks: the store's
// watchers, the HTTP watch stream and the client's decoded watches all hand
// out an Interface whose ResultChan delivers Events (ADDED, MODIFIED,
// DELETED, BOOKMARK, ERROR) in resourceVersion order.
//
// Upstream:
//   - k8s.io/apimachinery/pkg/watch: watch.go (Interface, Event, EventType,
//     RaceFreeFakeWatcher)
//
// Differences from upstream: no Broadcaster, filter or Mux here; the store's
// fan-out lives in package storage, where the articles put the cacher.
package watch
