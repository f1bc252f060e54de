// Package event is the REST storage of Events, one storage for both
// APIs: core/v1 events and events.k8s.io/v1 events are two views of the
// same objects under /registry/events, converted through the hub
// (core.Event) and stored as core/v1. The strategy checks an Event by the
// version it was written in (registry.RequestVersionFrom): core/v1 keeps
// the legacy rules, events.k8s.io/v1 adds its own.
//
// Events are not kept forever: each write gives the Event a time to live
// (kube-apiserver's --event-ttl, an hour by default); when it runs out
// the store deletes the Event, and watchers see it DELETED.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/registry/core/event/strategy.go (Strategy,
//     ToSelectableFields, requestGroupVersion)
//   - k8s.io/kubernetes/pkg/registry/core/event/storage/storage.go
//     (NewREST with its TTLFunc)
//   - k8s.io/kubernetes/pkg/apis/core/v1/conversion.go (the field labels
//     of core/v1 Event)
package event
