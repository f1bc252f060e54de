// Package limits keeps an overloaded crdlab answering: it caps how many
// requests run at once and how many watches are open, and answers the
// rest at once with 429 TooManyRequests and a Retry-After header, which
// client-go and kubectl wait for and retry.
//
// Vocabulary: a request is read-only (get, list; a GET of a non-resource
// path) or mutating (create, update, patch, delete, deletecollection; any
// other method on a non-resource path). Long-running requests (watches)
// are not in flight in that sense — they would hold a slot for minutes —
// and are counted against their own cap instead. A Limiter holds the
// three pools of slots; Limiter.Handler is the filter.
//
// Fair share: each pool's slots are shared among the users that use them.
// A user may take a free slot while it holds fewer than limit/(users+1)
// (at least one), users counting those holding slots, itself included;
// past that it gets 429 although slots are free, so one user cannot take
// every slot from the others (docs/access.md).
//
// Never limited: the health endpoints (/healthz, /livez, /readyz and their
// per-check paths), so that an overloaded server still says how it is —
// upstream's API Priority and Fairness puts them in the exempt "probes"
// flow schema — and members of system:masters (the server's own
// controllers), as upstream's max-in-flight filter lets them through: "a
// system:master is so powerful that they should always get an answer".
//
// Upstream:
//   - k8s.io/apiserver/pkg/server/filters/maxinflight.go
//     (WithMaxInFlightLimit, tooManyRequests, nonMutatingRequestVerbs)
//   - k8s.io/apiserver/pkg/server/options/server_run_options.go
//     (--max-requests-inflight 400, --max-mutating-requests-inflight 200)
//   - k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap (the exempt probes
//     flow schema; flows told apart by user)
//   - k8s.io/apiserver/pkg/server/filters/priority-and-fairness.go
//     (WithPriorityAndFairness: the fair share, in small)
//
// Differences from upstream:
//   - Max-in-flight with a fair share per user instead of API Priority
//     and Fairness (upstream's default since 1.20): no queuing (a request
//     over its share is answered 429 at once; upstream waits in its flow's
//     queue), no priority levels or flow schemas, one seat per request.
//   - A cap on open watches (--max-watches), which upstream does not have
//     (APF only limits how many start at once).
//   - The 429 is a Status (reason TooManyRequests, retryAfterSeconds 1);
//     upstream's max-in-flight filter answers plain text "Too many
//     requests, please try again later." with the same code and header.
package limits
