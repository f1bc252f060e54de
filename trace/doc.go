// Package trace lets every part of crdlab say what it just did, so that a
// class can watch one request travel through the machinery the articles
// describe: the handler, the registry, storage at a revision, the watch
// fan-out, the informer's Reflector and DeltaFIFO, the workqueues and the
// controllers that write a CRD's conditions back.
//
// A *Tracer is made by whoever builds the server (apiserver.Config.Tracer;
// `crdlab serve --trace`) and handed down to each component in its
// options; there is no global tracer. A nil *Tracer is valid and means
// "tracing off": every method is a no-op, and Enabled reports false, so
// that a component pays one nil check when tracing is off:
//
//	if tr.Enabled() {
//		tr.Emit(trace.Event{Component: trace.Storage, Step: "commit", ...})
//	}
//
// The guard matters: building an Event (formatting a key, a revision)
// costs more than the nil check. BenchmarkEmit (here) and
// BenchmarkTrace_CreateCustomResource (apiserver) show the cost off and on
// (docs/perf.md, "Tracing: what it costs").
//
// An Event names its component and step, the object (resource and
// namespace/name key, as informers and workqueues key objects), the
// resourceVersion when there is one, how long the step took, a sentence
// for the narrated log, and the upstream function the step mirrors
// ("k8s.io/client-go/tools/cache.(*DeltaFIFO).Pop"; see UpstreamURL).
//
// Events go three ways: to the narrated log (Options.Log, one line each,
// see Format), to a ring of recent events (Recent), and to subscribers
// (Subscribe), which is how the server streams them to /ui as
// Server-Sent Events under /debug/crdlab/events. A subscriber that does
// not keep up loses events rather than slowing the server down: Emit
// never blocks, and the subscription counts what it dropped.
//
// Upstream has no such thing: kube-apiserver's nearest relatives are
// k8s.io/utils/trace (slow-request step logs) and the OpenTelemetry spans
// of k8s.io/component-base/tracing, neither of which follows an object
// through the informers and controllers. The events here are built for
// teaching, not for production observability.
package trace
