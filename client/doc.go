// Package client talks to a crdlab (or Kubernetes) API server over HTTP: a
// RESTClient that builds requests fluently, decodes answers and watch
// streams, and turns error answers into *apierrors.StatusError; and the
// Clientset, whose typed clients read and write CustomResourceDefinitions
// and Namespaces.
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
//   - An error answer whose body is a Status comes back whole as
//     *apierrors.StatusError, so apierrors.IsNotFound, IsConflict …
//     work, also through fmt.Errorf("%w"); any other error answer gets a
//     reason from its HTTP code (IsUnexpectedServerError).
//   - A watch is a chunked stream of {"type","object"} JSON lines; a
//     StreamWatcher reads it in one goroutine and delivers watch.Events,
//     decoded by an ObjectDecoder (unstructured by default; JSONDecoder,
//     CodecDecoder). Events of the usual shape are cut from the stream
//     by a light scan (watchframe.go), others by a json.Decoder.
//   - SharedSpecs (crdspecs.go) lets a CRD client (CRDsSharingSpecs)
//     decode a spec once: a CRD whose spec is byte for byte one decoded
//     before shares it, read only. The server's controllers use it; a
//     real-size CRD's spec comes back unchanged in every watch event and
//     status-write answer on its way to Established.
//     A CRD list's items are cut from the body by a light scan
//     (listsplit.go) rather than by encoding/json's two passes over it.
//   - A PipeListener (pipe.go) connects a client to a server in the same
//     process through socketpairs: the server's own controllers use it
//     over plain HTTP, without the TCP stack in each watch event.
//   - Every request but a watch first takes a token from the client's
//     rate limiter (package flowcontrol): QPS 0 means client-go's 5 QPS
//     with bursts of 10, a negative QPS means no limit.
//
// Subpackages: flowcontrol (the token bucket), metadata (any resource as
// its metadata alone: PartialObjectMetadata), dynamic (any resource as
// unstructured objects), discovery (which groups and resources exist).
//
// Upstream:
//   - k8s.io/client-go/rest: config.go (Config, RESTClientFor), client.go
//     (RESTClient), request.go (Request, Result, transformResponse),
//     watch/decoder.go; apimachinery's watch/streamwatcher.go
//   - k8s.io/apimachinery/pkg/api/errors: NewGenericServerResponse,
//     IsUnexpectedServerError
//   - k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset
//     (Clientset, NewForConfig) and .../typed/apiextensions/v1
//   - k8s.io/client-go/kubernetes/typed/core/v1, narrowed to namespaces
//
// Differences from upstream (all of them in docs/client.md): JSON only, no
// protobuf or content negotiation; Config has no TLS or kubeconfig fields
// (pass an http.Client); Config.Timeout is a per-request deadline that
// never cuts a watch; no retries on 429 or connection resets, no fake
// clientset, no apply configurations; SharedSpecs is crdlab's (client-go decodes
// every answer and event whole).
package client
