package client

import (
	"strings"

	"github.com/crdlab/crdlab/internal/jsonskim"
)

// splitList cuts a list's JSON into its items and the rest (the envelope:
// apiVersion, kind, metadata), reading the items only for their quotes
// and brackets. items is nil for a list whose "items" is null or missing;
// each item is a span of data. ok is false for anything it does not
// expect (a key spelled another way that encoding/json would match to
// "items", an escaped key, a key twice, bad syntax outside the items):
// the caller then decodes data with encoding/json, which says what is
// wrong. An item's own bad syntax is found when the item is decoded.
//
// It exists for the CRD informer's first list at a start: encoding/json
// checks the whole body before decoding it, then scans each item again to
// hand it to UnmarshalJSON. At 2,000 real-size CRDs the body is 543 MB,
// and those two scans took about 4 s of the client's 12.5 (docs/crd-memory.md,
// "Session 22").
func splitList(data []byte) (envelope []byte, items [][]byte, ok bool) {
	s := jsonskim.Scanner{B: data}
	s.Space()
	if !s.Byte('{') {
		return nil, nil, false
	}
	envelope = append(make([]byte, 0, 256), '{')
	seen := map[string]bool{}
	s.Space()
	if s.Byte('}') {
		return append(envelope, '}'), nil, s.End()
	}
	for {
		s.Space()
		keyStart := s.I
		raw, escaped, kok := s.Str()
		key := string(raw)
		if !kok || escaped || seen[key] {
			return nil, nil, false
		}
		seen[key] = true
		s.Space()
		if !s.Byte(':') {
			return nil, nil, false
		}
		s.Space()
		valStart := s.I
		switch {
		case key == "items":
			if s.Literal("null") {
				items = nil
				break
			}
			var iok bool
			if items, iok = s.Array(); !iok {
				return nil, nil, false
			}
		case strings.EqualFold(key, "items"):
			return nil, nil, false // encoding/json would take it for items
		default:
			if !s.Skip() {
				return nil, nil, false
			}
			if len(envelope) > 1 {
				envelope = append(envelope, ',')
			}
			envelope = append(envelope, data[keyStart:valStart]...)
			envelope = append(envelope, data[valStart:s.I]...)
		}
		s.Space()
		switch {
		case s.Byte(','):
		case s.Byte('}'):
			return append(envelope, '}'), items, s.End()
		default:
			return nil, nil, false
		}
	}
}
