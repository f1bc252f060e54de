// Package events is the events.k8s.io API group's internal version. It
// has no types of its own: its hub is core.Event, registered here under
// events.k8s.io/__internal, so that an events.k8s.io/v1 Event and a
// core/v1 Event convert through the same hub and are stored once. This is
// the second conversion example beside apps' Deployment: two groups, one
// hub, and fields that change names on the way (note ↔ message,
// regarding ↔ involvedObject, deprecatedCount ↔ count …).
//
// Upstream:
//   - k8s.io/kubernetes/pkg/apis/events/register.go
//
// Differences from upstream: events.k8s.io/v1beta1 is not served.
package events
