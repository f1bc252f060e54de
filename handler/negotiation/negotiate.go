package negotiation

import (
	"sort"
	"strconv"
	"strings"

	apierrors "github.com/crdlab/crdlab/apis/errors"
)

// Media types crdlab writes.
const (
	MediaTypeJSON = "application/json"
	MediaTypeYAML = "application/yaml"
)

// SupportedMediaTypes are the media types crdlab can answer with, in the
// order a 406 lists them.
var SupportedMediaTypes = []string{MediaTypeJSON, MediaTypeYAML}

// Clause is one media range of an Accept header.
//
// Mirrors goautoneg.Accept.
type Clause struct {
	Type, SubType string
	Q             float64
	Params        map[string]string
}

// ParseAccept splits an Accept header into clauses, most preferred first:
// by q, then by specificity (type/subtype beats type/* beats */*), then by
// position. Clauses with q=0 are dropped.
//
// Mirrors goautoneg.ParseAccept.
func ParseAccept(header string) []Clause {
	var out []Clause
	for _, part := range strings.Split(header, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		fields := strings.Split(part, ";")
		c := Clause{Q: 1, Params: map[string]string{}}
		mt := strings.TrimSpace(fields[0])
		if t, st, ok := strings.Cut(mt, "/"); ok {
			c.Type, c.SubType = strings.ToLower(strings.TrimSpace(t)), strings.ToLower(strings.TrimSpace(st))
		} else if mt == "*" {
			c.Type, c.SubType = "*", "*"
		} else {
			continue
		}
		for _, p := range fields[1:] {
			k, v, _ := strings.Cut(p, "=")
			k, v = strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"`)
			if k == "q" {
				if q, err := strconv.ParseFloat(v, 64); err == nil {
					c.Q = q
				}
				continue
			}
			c.Params[k] = v
		}
		if c.Q <= 0 {
			continue
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Q != out[j].Q {
			return out[i].Q > out[j].Q
		}
		return specificity(out[i]) > specificity(out[j])
	})
	return out
}

func specificity(c Clause) int {
	switch {
	case c.Type == "*":
		return 0
	case c.SubType == "*":
		return 1
	default:
		return 2
	}
}

// Target is a conversion asked for with the as/g/v parameters, e.g.
// {meta.k8s.io, v1, Table}.
type Target struct {
	Group, Version, Kind string
}

// Well-known targets.
var (
	TableV1                   = Target{Group: "meta.k8s.io", Version: "v1", Kind: "Table"}
	TableV1beta1              = Target{Group: "meta.k8s.io", Version: "v1beta1", Kind: "Table"}
	PartialObjectMetadataV1   = Target{Group: "meta.k8s.io", Version: "v1", Kind: "PartialObjectMetadata"}
	PartialObjectMetadataList = Target{Group: "meta.k8s.io", Version: "v1", Kind: "PartialObjectMetadataList"}
	DiscoveryV2               = Target{Group: "apidiscovery.k8s.io", Version: "v2", Kind: "APIGroupDiscoveryList"}
	DiscoveryV2beta1          = Target{Group: "apidiscovery.k8s.io", Version: "v2beta1", Kind: "APIGroupDiscoveryList"}
)

// IsTable reports whether t is a Table in any version.
func (t Target) IsTable() bool { return t.Group == "meta.k8s.io" && t.Kind == "Table" }

// Options is the outcome of negotiation.
type Options struct {
	// MediaType is MediaTypeJSON or MediaTypeYAML.
	MediaType string
	// Convert is the conversion asked for, or nil for the object as is.
	Convert *Target
	// Pretty asks for indented output (?pretty=true or pretty=true in Accept).
	Pretty bool
}

// ContentType is the Content-Type header of the answer: the media type,
// with the as/g/v parameters of a conversion, as upstream writes them
// (e.g. "application/json;as=Table;v=v1;g=meta.k8s.io").
func (o Options) ContentType() string {
	if o.Convert == nil {
		return o.MediaType
	}
	if o.Convert.Group == "apidiscovery.k8s.io" {
		return o.MediaType + ";g=" + o.Convert.Group + ";v=" + o.Convert.Version + ";as=" + o.Convert.Kind
	}
	return o.MediaType + ";as=" + o.Convert.Kind + ";v=" + o.Convert.Version + ";g=" + o.Convert.Group
}

// Negotiate picks the answer's representation from an Accept header.
// allowed says which conversions the endpoint can produce (nil: none);
// clauses naming another conversion are skipped, as upstream skips them.
// An empty header means JSON. Error: 406 NotAcceptable.
//
// Mirrors NegotiateOutputMediaType in negotiate.go.
func Negotiate(header string, allowed func(Target) bool) (Options, error) {
	if strings.TrimSpace(header) == "" {
		return Options{MediaType: MediaTypeJSON}, nil
	}
	for _, c := range ParseAccept(header) {
		mt, ok := mediaTypeFor(c)
		if !ok {
			continue
		}
		opts := Options{MediaType: mt, Pretty: c.Params["pretty"] == "1" || c.Params["pretty"] == "true"}
		if as := c.Params["as"]; as != "" {
			t := Target{Group: c.Params["g"], Version: c.Params["v"], Kind: as}
			if allowed == nil || !allowed(t) {
				continue
			}
			opts.Convert = &t
		}
		return opts, nil
	}
	return Options{}, NewNotAcceptableError()
}

// NewNotAcceptableError is the 406 of an Accept header crdlab cannot honour.
func NewNotAcceptableError() error {
	return apierrors.NewNotAcceptable("only the following media types are accepted: " + strings.Join(SupportedMediaTypes, ", "))
}

func mediaTypeFor(c Clause) (string, bool) {
	switch {
	case c.Type == "*" && c.SubType == "*":
		return MediaTypeJSON, true
	case c.Type == "application" && (c.SubType == "*" || c.SubType == "json"):
		return MediaTypeJSON, true
	case c.Type == "application" && c.SubType == "yaml":
		return MediaTypeYAML, true
	}
	return "", false
}

// ContentTypeOf returns the bare media type of a Content-Type header,
// lower-cased and without parameters ("" for an empty header).
func ContentTypeOf(header string) string {
	mt, _, _ := strings.Cut(header, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}
