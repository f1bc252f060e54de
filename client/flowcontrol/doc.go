// Package flowcontrol limits how fast a client sends requests: a token bucket
// that every request of a RESTClient draws one token from before it is sent.
//
// Vocabulary:
//
//   - A token is the permission to send one request.
//   - The bucket holds at most Burst tokens and is refilled at QPS tokens per
//     second. It starts full, so the first Burst requests go at once.
//   - A reservation takes a token now, even one the bucket does not have
//     yet: the count goes negative and the caller waits until the refill
//     has paid it back. Reservations are served in the order they were made.
//   - A Clock is where the bucket reads time and makes timers; tests use a
//     FakeClock and Step it, so no test sleeps.
//
// A RESTClient built from a Config with QPS 0 gets the client-go defaults
// (QPS 5, Burst 10); the server's own controllers ask for more, and QPS < 0
// means no limiter at all.
//
// Upstream:
//   - k8s.io/client-go/util/flowcontrol/throttle.go (RateLimiter,
//     NewTokenBucketRateLimiter, NewTokenBucketRateLimiterWithClock)
//   - golang.org/x/time/rate (Limiter.Reserve, Limiter.Wait: the token bucket
//     behind upstream's limiter)
//   - k8s.io/utils/clock and k8s.io/utils/clock/testing (Clock, FakeClock)
//
// Differences from upstream:
//   - The token bucket is written here (about forty lines) so the module needs
//     no golang.org/x/time. It keeps x/time/rate's reservation semantics,
//     including Wait failing at once when the wait would outlast the
//     context's deadline. A cancelled Wait gives its token back only if no
//     later reservation was made (x/time/rate gives back a share).
//   - The Clock is Now and NewTimer only; Wait and Accept both sleep on a
//     Clock timer, so a FakeClock drives them (upstream's Wait uses real time).
//   - Not implemented: PassiveRateLimiter, NewFakeAlwaysRateLimiter,
//     NewFakeNeverRateLimiter and the Backoff helpers.
package flowcontrol
