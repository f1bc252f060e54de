// Package ui is the live web view that `crdlab serve --trace` shows at
// /ui/: the machinery the articles draw, moving. A teacher projects the
// page, a student runs `kubectl apply -f crontab-crd.yaml`, and the class
// watches the request enter the handler, land in storage at a revision,
// fan out to the watchers, pass through an informer's DeltaFIFO into the
// workqueues, get synced by the naming and establishing controllers and
// come back as a status write, while the CRD's conditions light up.
//
// The page has four parts:
//
//   - The component diagram: the boxes of DESIGN.md's "Data flow" —
//     client → handler → registry → storage → watch (the fan-out) on the
//     apiserver's side; reflector → deltafifo → informer → {crdhandler,
//     workqueue} → controller on the control loop's side; and the edge
//     controller → handler that is a controller's status write. When an
//     event arrives its box flashes, and a dot runs along the edge from the
//     component that last handled the same key (a request from kubectl or
//     curl starts at "client"; a write by the server's own loopback client
//     starts at "controller"). A write crosses every box in milliseconds,
//     so the diagram replays each key's events in slow motion, 90 ms per
//     component, at most 6 s behind (the list is never delayed); the
//     "diagram" menu slows it further (slow: 400 ms, very slow: 1 s per
//     component) for a teacher talking through each step. Each box
//     shows the step it did last; the informer shows its cache size and
//     the workqueue its depth, summed over queues (the side table lists
//     each controller's queue: depth, adds, retries).
//   - One panel per CRD, with its condition state machine NamesAccepted →
//     Established → Terminating → gone and the current state lit; each
//     condition's status and reason in small text, its message on hover.
//   - The path of one key: the components it went through, in order —
//     click a key in a panel or in the list.
//   - The event list, newest first, one row per trace.Event: time,
//     component, step, actor, key, resourceVersion, duration, message and
//     the upstream function it mirrors, linked to pkg.go.dev as
//     trace.UpstreamURL builds it. Filters: components (also a click on a
//     box), a key, pause.
//
// The page reads two endpoints of the server: /debug/crdlab/events (the
// trace.Event stream as Server-Sent Events, read with fetch so that a
// bearer token can go along; reconnecting with ?since=<last seq>) and
// /debug/crdlab/state (revision, workqueues, informers, CRDs; polled every
// 500 ms, with or without --trace). Without --trace the page says "tracing
// is off — restart with crdlab serve --trace", and its CRD panels and
// numbers still work.
//
// It is three files, static/index.html, static/app.js and static/style.css:
// plain JavaScript, no framework, no build step, embedded in the binary.
// How the page stays offline and fast, and the hooks its tests read, are in
// docs/teaching.md ("How the page is built").
//
// Upstream: none. kube-apiserver has no such page; its nearest relatives
// are the slow-request step logs of k8s.io/utils/trace and the
// OpenTelemetry spans of k8s.io/component-base/tracing, read in tools such
// as Jaeger, neither of which follows an object through the informers and
// controllers.
//
// Differences from upstream: the whole package is crdlab's own. Not
// implemented: history beyond the server's 4,096 events and the page's
// 5,000; views of custom resources' own controllers (not traced).
package ui
