// Package duration prints how long ago something happened the way kubectl's
// AGE column does.
//
// Upstream: k8s.io/apimachinery/pkg/util/duration (HumanDuration).
package duration
