package protobuf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
)

// MediaType is the Content-Type of Kubernetes protobuf bodies.
const MediaType = "application/vnd.kubernetes.protobuf"

// magic starts every protobuf body.
//
// Mirrors protoEncodingPrefix in k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go.
var magic = []byte{0x6b, 0x38, 0x73, 0x00} // "k8s\x00"

// Errors of ToJSON. A body that is not protobuf at all, or whose messages
// do not parse, wraps ErrMalformed; a well-formed body of a kind crdlab
// cannot read is an *UnsupportedKindError.
var (
	ErrMalformed = errors.New("malformed protobuf body")
)

// UnsupportedKindError says that a protobuf body holds a kind crdlab has
// no descriptor for.
type UnsupportedKindError struct {
	APIVersion, Kind string
}

func (e *UnsupportedKindError) Error() string {
	return fmt.Sprintf("crdlab reads protobuf only for apiextensions.k8s.io/v1 CustomResourceDefinition, the built-in kinds it serves and DeleteOptions, not %s %s: send application/json",
		e.APIVersion, e.Kind)
}

// ToJSON reads a protobuf body (the envelope and the object in it) and
// returns the object as JSON, with its apiVersion and kind.
//
// Mirrors (*Serializer).Decode in runtime/serializer/protobuf, decoding to
// JSON instead of a Go struct.
func ToJSON(body []byte) ([]byte, error) {
	if !bytes.HasPrefix(body, magic) {
		return nil, fmt.Errorf("%w: it does not start with the prefix %q", ErrMalformed, magic)
	}
	unknown, err := decodeMessage(descriptors().envelope, body[len(magic):])
	if err != nil {
		return nil, err
	}
	u := unknown.(map[string]any)
	apiVersion, _ := lookup(u, "typeMeta", "apiVersion").(string)
	kind, _ := lookup(u, "typeMeta", "kind").(string)
	if enc, _ := u["contentEncoding"].(string); enc != "" {
		return nil, fmt.Errorf("%w: content encoding %q is not supported", ErrMalformed, enc)
	}
	desc := descriptorFor(apiVersion, kind)
	if desc == nil {
		return nil, &UnsupportedKindError{APIVersion: apiVersion, Kind: kind}
	}
	raw, _ := u["raw"].([]byte)
	obj, err := decodeMessage(desc, raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	m := obj.(map[string]any)
	m["apiVersion"], m["kind"] = apiVersion, kind
	return json.Marshal(m)
}

// descriptorFor picks the descriptor of a kind, or nil.
func descriptorFor(apiVersion, kind string) *descriptor {
	switch {
	case kind == "DeleteOptions":
		// Every group version has DeleteOptions (meta/v1's, registered
		// with metav1.AddToGroupVersion).
		return descriptors().deleteOptions
	case kind == "CustomResourceDefinition" && apiVersion == "apiextensions.k8s.io/v1":
		return descriptors().customResourceDefinition
	}
	return descriptors().builtin[apiVersion+"/"+kind]
}

// valueKind says how a field's wire value becomes JSON.
type valueKind int

const (
	kindString  valueKind = iota // length-delimited UTF-8 → string
	kindBytes                    // length-delimited → []byte (base64 in JSON)
	kindBool                     // varint → bool
	kindInt32                    // varint → number (sign-extended from 32 bits)
	kindInt64                    // varint → number
	kindDouble                   // fixed64 → number
	kindMessage                  // length-delimited → the message's JSON
)

// field describes one field of a message.
type field struct {
	name string // the JSON name
	kind valueKind
	msg  *descriptor // the message, for kindMessage
	// repeated fields become JSON arrays; map fields (repeated entries
	// {1: key, 2: value}) JSON objects, the value described by kind and
	// msg.
	repeated, isMap bool
	// optional marks a field that is a pointer in Go: its zero value (0,
	// "", false) is kept, because it differs from absent. Zero values of
	// other scalar fields are dropped, as upstream's JSON (omitempty) drops
	// them — protobuf sends them all.
	optional bool
}

// descriptor is what crdlab knows of one message type.
type descriptor struct {
	name   string
	fields map[int]field
	// toJSON, if set, turns the decoded fields into the message's JSON
	// value (a Time into a string …); a nil result leaves the field out.
	toJSON func(fields map[string]any) (any, error)
}

// decodeMessage reads one message with desc into a JSON value.
func decodeMessage(desc *descriptor, msg []byte) (any, error) {
	raws, err := readFields(msg)
	if err != nil {
		return nil, err
	}
	obj := map[string]any{}
	for _, rf := range raws {
		fd, ok := desc.fields[rf.num]
		if !ok {
			continue // a field this crdlab does not know: skipped, as protobuf does
		}
		if fd.isMap {
			k, v, err := decodeMapEntry(fd, rf)
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", desc.name, fd.name, err)
			}
			m, _ := obj[fd.name].(map[string]any)
			if m == nil {
				m = map[string]any{}
				obj[fd.name] = m
			}
			m[k] = v
			continue
		}
		v, err := decodeValue(fd, rf)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", desc.name, fd.name, err)
		}
		switch {
		case fd.repeated:
			list, _ := obj[fd.name].([]any)
			obj[fd.name] = append(list, v)
		case v == nil || (fd.kind != kindMessage && !fd.optional && isZero(v)):
			delete(obj, fd.name) // the last occurrence wins, as in protobuf
		default:
			obj[fd.name] = v
		}
	}
	if desc.toJSON != nil {
		return desc.toJSON(obj)
	}
	return obj, nil
}

// decodeValue reads one field value.
func decodeValue(fd field, rf rawField) (any, error) {
	want := wireBytes
	switch fd.kind {
	case kindBool, kindInt32, kindInt64:
		want = wireVarint
	case kindDouble:
		want = wireFixed64
	}
	if rf.wire != want {
		return nil, malformed("wire type %d, want %d", rf.wire, want)
	}
	switch fd.kind {
	case kindString:
		return string(rf.b), nil
	case kindBytes:
		return bytes.Clone(rf.b), nil
	case kindBool:
		return rf.u != 0, nil
	case kindInt32:
		return int64(int32(rf.u)), nil
	case kindInt64:
		return int64(rf.u), nil
	case kindDouble:
		return math.Float64frombits(rf.u), nil
	case kindMessage:
		return decodeMessage(fd.msg, rf.b)
	}
	return nil, fmt.Errorf("unknown value kind %d", fd.kind)
}

// decodeMapEntry reads one entry of a map<string, V> field.
func decodeMapEntry(fd field, rf rawField) (string, any, error) {
	if rf.wire != wireBytes {
		return "", nil, malformed("map entry of wire type %d", rf.wire)
	}
	raws, err := readFields(rf.b)
	if err != nil {
		return "", nil, err
	}
	var key string
	var val any
	for _, e := range raws {
		switch e.num {
		case 1:
			if e.wire != wireBytes {
				return "", nil, malformed("map key of wire type %d", e.wire)
			}
			key = string(e.b)
		case 2:
			if val, err = decodeValue(field{kind: fd.kind, msg: fd.msg}, e); err != nil {
				return "", nil, err
			}
		}
	}
	if val == nil {
		// An entry without a value has the value type's zero value.
		switch fd.kind {
		case kindString:
			val = ""
		case kindMessage:
			if val, err = decodeMessage(fd.msg, nil); err != nil {
				return "", nil, err
			}
		}
	}
	return key, val, nil
}

func isZero(v any) bool {
	switch v := v.(type) {
	case string:
		return v == ""
	case bool:
		return !v
	case int64:
		return v == 0
	case float64:
		return v == 0
	case []byte:
		return len(v) == 0
	}
	return false
}

// lookup follows keys into nested JSON objects; nil if absent.
func lookup(obj map[string]any, keys ...string) any {
	var cur any = obj
	for _, k := range keys {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}

// rawJSON turns bytes holding JSON text into a value that marshals as
// that text; empty bytes are no value.
func rawJSON(b []byte, what string) (any, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	if !json.Valid(b) {
		return nil, fmt.Errorf("%w: %s is not valid JSON: %q", ErrMalformed, what, truncate(string(b)))
	}
	return json.RawMessage(bytes.Clone(b)), nil
}

func truncate(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}
