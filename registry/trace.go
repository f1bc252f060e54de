package registry

import (
	"context"

	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/trace"
)

// traceWrite tells the request's tracer (trace.FromContext; the handler
// puts it there) that the store's strategies let a write through and it
// is on its way to storage. With tracing off it costs a context lookup.
func (e *Store) traceWrite(ctx context.Context, step string, obj storage.Object, name, msg, upstream string) {
	tr := trace.FromContext(ctx)
	if !tr.Enabled() {
		return
	}
	key := name
	if obj != nil {
		if ns := obj.GetNamespace(); ns != "" {
			key = ns + "/" + name
		}
	} else if ns := NamespaceFrom(ctx); ns != "" {
		key = ns + "/" + name
	}
	tr.Emit(trace.Event{
		Component: trace.Registry,
		Step:      step,
		Resource:  e.DefaultQualifiedResource.String(),
		Key:       key,
		Message:   msg,
		Upstream:  "k8s.io/apiserver/pkg/registry/generic/registry.(*Store)." + upstream,
	})
}
