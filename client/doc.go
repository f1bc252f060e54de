// Package client talks to a crdlab (or Kubernetes) API server over HTTP: a
// RESTClient that builds requests fluently, decodes answers and watch
// streams, and turns error answers into *apierrors.StatusError; and the
// Clientset, whose typed client reads and writes CustomResourceDefinitions.
// crdlab's controllers reach their own server through it over the loopback
// address, as the articles' "Clientset" section describes.
//
// Vocabulary:
//
//   - A Config says where the server is (Host), who we are (BearerToken,
//     UserAgent) and how fast we may go (QPS, Burst).
//   - A RESTClient is bound to one group and version: its requests start at
//     /apis/<group>/<version> (or /api/<version>). An unversioned one names
//     whole paths with AbsPath (discovery, the dynamic client).
//   - A Request is built by chained setters —
//     c.Get().Namespace(ns).Resource("crontabs").Name(n).SubResource("status").VersionedParams(&opts) —
//     and sent once with Do (→ Result), DoRaw (→ bytes), Stream (→ a body
//     to read) or Watch (→ watch.Interface). A mistake while building is kept
//     and returned when sending, so there is one error check.
//   - Options structs (metav1.ListOptions, GetOptions, CreateOptions …)
//     become query parameters by their json names (scheme.EncodeParameters).
//   - An error answer whose body is a Status is the server's own error and
//     comes back whole as *apierrors.StatusError, so apierrors.IsNotFound,
//     IsConflict, IsAlreadyExists, IsInvalid, IsResourceExpired … work, also
//     through fmt.Errorf("%w"). Any other error answer (a proxy, a crash)
//     gets a reason from its HTTP code and a cause of type
//     UnexpectedServerResponse (IsUnexpectedServerError).
//   - A watch is a chunked stream of {"type","object"} JSON lines; a
//     StreamWatcher reads it in one goroutine and delivers watch.Events.
//     Objects are decoded by an ObjectDecoder: unstructured by default,
//     typed for the Clientset (JSONDecoder) or through a scheme
//     (CodecDecoder). ERROR events carry a *metav1.Status; BOOKMARK events an
//     object with only a resourceVersion.
//   - Every request but a watch first takes a token from the client's
//     rate limiter (package flowcontrol): QPS 0 means client-go's 5 QPS with
//     bursts of 10, a negative QPS means no limit. The server's own
//     controllers ask for more.
//
// Subpackages: flowcontrol (the token bucket), dynamic (any resource as
// unstructured objects), discovery (which groups and resources exist).
//
// Upstream:
//   - k8s.io/client-go/rest: config.go (Config, RESTClientFor,
//     UnversionedRESTClientFor), url_utils.go (DefaultServerURL,
//     DefaultVersionedAPIPath), client.go (RESTClient), request.go (Request,
//     Result, transformResponse, newUnstructuredResponseError,
//     IsValidPathSegmentName)
//   - k8s.io/client-go/rest/watch/decoder.go and
//     k8s.io/apimachinery/pkg/watch/streamwatcher.go (StreamWatcher)
//   - k8s.io/apimachinery/pkg/api/errors: NewGenericServerResponse,
//     IsUnexpectedServerError, NewClientErrorReporter
//   - k8s.io/apimachinery/pkg/types: PatchType
//   - k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset
//     (Clientset, NewForConfig) and .../typed/apiextensions/v1
//     (ApiextensionsV1Client, CustomResourceDefinitionInterface)
//
// Differences from upstream:
//   - JSON only: no content negotiation, no protobuf, no
//     NegotiatedSerializer. Typed objects are decoded with encoding/json
//     (they carry upstream's JSON tags); Into clears the object first.
//   - Config has no TLS or kubeconfig fields: pass an http.Client whose
//     Transport carries the TLS config. A Host without a scheme means http.
//     Headers (User-Agent, Authorization, Accept) are set by the request,
//     not by wrapping round-trippers.
//   - Config.Timeout is a per-request context deadline (and the timeout
//     parameter), not http.Client.Timeout, so it never cuts a watch; a list
//     without timeoutSeconds keeps it (generated clients reset it to none).
//   - RESTClientFor defaults APIPath from the group ("/apis" or "/api").
//   - DoRaw decodes a Status error body like Do (upstream's DoRaw makes a
//     generic error from the code only). A Status without a code takes the
//     HTTP code.
//   - Request.Body sends a []byte or io.Reader as is and any other value as
//     JSON; a string is not a file name.
//   - A watch whose connection breaks (EOF, reset) just closes its channel,
//     like upstream for probable EOFs; only an event that arrived but cannot
//     be decoded becomes an ERROR event (500, cause ClientWatchDecoding).
//     The watcher also stops when the request's context ends.
//   - Not implemented: retries on 429/Retry-After and on connection resets
//     (upstream retries up to 10 times), backoff managers, warning headers,
//     metrics and request logging, the throttling-latency log, the fake
//     clientset, apply configurations (Apply/ApplyStatus), the v1beta1 CRD
//     client, and Clientset.Discovery() (use package discovery).
package client
