package scheme

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"
)

// ErrMissingKind and ErrMissingVersion say a document lacks the TypeMeta
// needed to know what it is.
var (
	ErrMissingKind    = errors.New("Object 'Kind' is missing")
	ErrMissingVersion = errors.New("Object 'apiVersion' is missing")
)

// CodecFactory turns bytes into objects and back through a Scheme: decoding
// sniffs apiVersion/kind, builds the registered type, applies defaults and may
// convert to another version; encoding converts to the requested external
// version and sets TypeMeta.
//
// Mirrors k8s.io/apimachinery/pkg/runtime/serializer.CodecFactory with its
// JSON and YAML serializers and the versioning codec.
type CodecFactory struct {
	scheme *Scheme
}

// NewCodecFactory returns codecs over s.
func NewCodecFactory(s *Scheme) CodecFactory { return CodecFactory{scheme: s} }

// Scheme returns the scheme the codecs use.
func (c CodecFactory) Scheme() *Scheme { return c.scheme }

// DecodeOptions tune Decode.
type DecodeOptions struct {
	// Strict also reports fields the Go type does not have and keys an
	// object repeats (StrictErrors): the object is decoded all the same,
	// and returned with a *StrictDecodingError, as upstream's strict
	// serializer returns it, so that a caller may warn and go on.
	Strict bool
}

// ToJSON returns data as JSON: JSON is returned as is, YAML is converted.
func ToJSON(data []byte) ([]byte, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		return trimmed, nil
	}
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("error converting YAML to JSON: %w", err)
	}
	return j, nil
}

// Kind reads apiVersion and kind from a JSON or YAML document.
func Kind(data []byte) (GroupVersionKind, error) {
	j, err := ToJSON(data)
	if err != nil {
		return GroupVersionKind{}, err
	}
	// One pass of encoding/json's scanner (Valid) and a light one of our
	// own, instead of json.Unmarshal's two scanner passes.
	if json.Valid(j) {
		if apiVersion, kind, ok := typeMetaOf(j); ok {
			return kindOf(j, apiVersion, kind)
		}
	}
	var tm struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := json.Unmarshal(j, &tm); err != nil {
		return GroupVersionKind{}, fmt.Errorf("couldn't get version/kind; json parse error: %w", err)
	}
	return kindOf(j, tm.APIVersion, tm.Kind)
}

// kindOf is Kind's answer for the apiVersion and kind read from j.
func kindOf(j []byte, apiVersion, kind string) (GroupVersionKind, error) {
	if kind == "" {
		return GroupVersionKind{}, fmt.Errorf("%w in '%s'", ErrMissingKind, abbreviate(j))
	}
	if apiVersion == "" {
		return GroupVersionKind{}, fmt.Errorf("%w in '%s'", ErrMissingVersion, abbreviate(j))
	}
	gv, err := ParseGroupVersion(apiVersion)
	if err != nil {
		return GroupVersionKind{}, err
	}
	return gv.WithKind(kind), nil
}

// KindUnchecked is Kind without checking that data is valid JSON: for a
// caller that decodes data whole (CodecFactory.Decode, the crdHandler's
// codec), and calls Kind instead if the body does not decode (so that
// invalid JSON still gets Kind's error).
func KindUnchecked(data []byte) (GroupVersionKind, error) {
	j, err := ToJSON(data)
	if err != nil {
		return GroupVersionKind{}, err
	}
	if apiVersion, kind, ok := typeMetaOf(j); ok {
		return kindOf(j, apiVersion, kind)
	}
	return Kind(data)
}

func abbreviate(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// Decode reads one JSON or YAML document into a new object of the kind it
// names, and applies that type's defaults. The object stays in the version it
// was written in. With opts.Strict, a document with unknown or repeated
// fields returns the object and a *StrictDecodingError.
func (c CodecFactory) Decode(data []byte, opts DecodeOptions) (Object, GroupVersionKind, error) {
	gvk, err := KindUnchecked(data)
	if err == nil {
		var obj Object
		if obj, err = c.decodeAs(data, gvk, opts); err == nil || obj != nil {
			return obj, gvk, err
		}
	}
	// What Kind says of data comes first (invalid JSON, no kind), as if
	// it had been asked before anything else.
	if _, kerr := Kind(data); kerr != nil {
		return nil, GroupVersionKind{}, kerr
	}
	return nil, gvk, err
}

// decodeAs is Decode of data, which names gvk. An object with a
// *StrictDecodingError is returned with it.
func (c CodecFactory) decodeAs(data []byte, gvk GroupVersionKind, opts DecodeOptions) (Object, error) {
	if gvk.Version == APIVersionInternal {
		return nil, fmt.Errorf("scheme: %v: the internal version is never read from or written to the wire", gvk)
	}
	obj, err := c.scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	j, _ := ToJSON(data)
	if err := unmarshal(j, obj); err != nil {
		return nil, err
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	c.scheme.Default(obj)
	if opts.Strict {
		if se := StrictErrors(j, obj); se != nil {
			return obj, se
		}
	}
	return obj, nil
}

// DecodeInto reads a JSON or YAML document into into, whose kind the caller
// already knows, and defaults it. TypeMeta in data, if any, must match.
// With opts.Strict, it returns a *StrictDecodingError after decoding a
// document with unknown or repeated fields.
func (c CodecFactory) DecodeInto(data []byte, into Object, opts DecodeOptions) error {
	j, err := ToJSON(data)
	if err != nil {
		return err
	}
	if err := unmarshal(j, into); err != nil {
		return err
	}
	c.scheme.Default(into)
	if opts.Strict {
		if se := StrictErrors(j, into); se != nil {
			return se
		}
	}
	return nil
}

// unmarshal decodes one JSON document (through the type's SplitJSON, if
// it has one: DecodeJSON).
func unmarshal(j []byte, into any) error {
	return DecodeJSON(j, into, unmarshalWhole)
}

func unmarshalWhole(j []byte, into any) error {
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	if err := dec.Decode(into); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the top-level object")
	}
	return nil
}

// DecodeToVersion decodes data and converts it to target (which may be the
// internal version).
func (c CodecFactory) DecodeToVersion(data []byte, target GroupVersion, opts DecodeOptions) (Object, error) {
	obj, _, err := c.Decode(data, opts)
	if err != nil {
		return nil, err
	}
	return c.scheme.ConvertToVersion(obj, target)
}

// Encode converts obj to the external version target and writes it as JSON
// with apiVersion and kind set.
func (c CodecFactory) Encode(obj Object, target GroupVersion) ([]byte, error) {
	if target.Version == "" || target.Version == APIVersionInternal {
		return nil, fmt.Errorf("scheme: cannot encode to version %q: pick an external version", target.String())
	}
	out, err := c.scheme.ConvertToVersion(obj, target)
	if err != nil {
		return nil, err
	}
	return MarshalJSON(out)
}

// EncodeYAML is Encode written as YAML.
func (c CodecFactory) EncodeYAML(obj Object, target GroupVersion) ([]byte, error) {
	j, err := c.Encode(obj, target)
	if err != nil {
		return nil, err
	}
	return yaml.JSONToYAML(j)
}

// SplitYAMLDocuments splits a multi-document YAML stream on "---" lines and
// drops empty documents. A JSON document is returned whole.
func SplitYAMLDocuments(data []byte) [][]byte {
	var docs [][]byte
	var cur bytes.Buffer
	flush := func() {
		if len(bytes.TrimSpace(cur.Bytes())) > 0 && !onlyComments(cur.Bytes()) {
			docs = append(docs, append([]byte(nil), cur.Bytes()...))
		}
		cur.Reset()
	}
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		trimmed := bytes.TrimRight(line, " \t\r\n")
		if bytes.Equal(trimmed, []byte("---")) || bytes.HasPrefix(trimmed, []byte("--- ")) {
			flush()
			continue
		}
		cur.Write(line)
	}
	flush()
	return docs
}

func onlyComments(doc []byte) bool {
	for _, line := range bytes.Split(doc, []byte("\n")) {
		l := bytes.TrimSpace(line)
		if len(l) > 0 && l[0] != '#' {
			return false
		}
	}
	return true
}
