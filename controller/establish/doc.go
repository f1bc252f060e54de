// Package establish holds the EstablishingController, the last step of a
// CRD's way in: once its names are accepted, it marks the CRD Established,
// the condition that says "the API is served" (and that discovery and
// kubectl wait for).
//
// Vocabulary: the controller's queue is fed from outside, by the
// crdHandler's informer handler (seed 000, "CRD Handler": "When the Watch
// object type is Update, it may be that the state changes to the
// Established state and needs to be sent to the EstablishingController"):
// a CRD whose NamesAccepted is True and Established is not is handed over
// with QueueCRD. By then the crdHandler, fed by the same informer, serves
// the CRD's endpoint; that ordering is why the naming controller does not
// set Established itself.
//
// The delay: upstream's crdHandler queues with a 5 s delay when the
// apiserver runs in HA (MasterCount > 1), so that every apiserver has seen
// the accepted names — and serves the endpoint — before any client is
// told Established. crdlab runs one server: the handler that queues the CRD
// is the one that serves it, and it has already seen the names, so the
// delay is 0. EstablishDelay keeps the knob for a crdlab on shared storage
// (etcd) with several servers.
//
// Seed 000 says the controller "checks every second whether there is a new
// Key value in the queue". It does not poll: its worker blocks in the
// queue's Get and handles a key as soon as it is ready. The second is
// upstream's wait.UntilWithContext period, which only restarts a worker that
// returned.
//
// Tracing: with controller.Options.Tracer set, the controller's queue
// ("crdEstablishing") emits workqueue events and each sync a "sync"
// event (actor "establishing"); the write of the condition is a "status"
// event, "Established=True (InitialNamesAccepted)", with the CRD's new
// resourceVersion.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/controller/establish/establishing_controller.go
//     (EstablishingController, QueueCRD, sync)
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go
//     (updateCustomResourceDefinition: the QueueCRD call and the
//     MasterCount delay)
//
// Differences from upstream:
//   - QueueCRD takes only the name; the delay is the controller's
//     EstablishDelay field rather than an argument chosen by the
//     crdHandler from MasterCount.
//   - Run takes a worker count (upstream's RunWithContext starts one; the
//     server runs four, as many as the naming controller, whose writes
//     feed this queue: the queue never hands one key to two workers).
package establish
