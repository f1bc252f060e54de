// Package negotiation picks the representation of a response from a
// request's Accept header: the media type (JSON or YAML) and, optionally,
// a conversion the client asked for with media-type parameters, such as
// kubectl's "application/json;as=Table;v=v1;g=meta.k8s.io" or client-go's
// aggregated discovery "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList".
//
// Vocabulary: a Clause is one entry of an Accept header (type, subtype,
// parameters, q); a Target is the group/version/kind named by the
// as/g/v parameters; an Options is the outcome of negotiation — what to
// write, and the Content-Type to write it with. Negotiate walks the clauses
// in preference order (q, then specificity, then position) and takes the
// first one the endpoint can honour; none gives a 406 NotAcceptable.
//
// Upstream:
//   - k8s.io/apiserver/pkg/endpoints/handlers/negotiation: negotiate.go
//     (NegotiateOutputMediaType, acceptMediaTypeOptions), errors.go
//   - github.com/munnerz/goautoneg (clause parsing and ordering)
//
// Differences from upstream: no protobuf and no CBOR serializers, so an
// Accept of only application/vnd.kubernetes.protobuf is a 406; the
// "stream" and "profile" parameters are ignored.
package negotiation
