package unstructured

import "github.com/crdlab/crdlab/internal/fastjson"

// decodeObjectFast parses a JSON object the way DecodeJSONObject does —
// the same maps, slices, strings, int64s, float64s, bools and nils — in
// one pass without reflection (internal/fastjson). On anything but
// well-formed input (a syntax error, trailing data, a number out of
// range, nesting deeper than encoding/json allows) ok is false and the
// caller takes encoding/json's path, which rejects the input with its own
// error message.
//
// Every request body and every stored object is decoded: with
// encoding/json (a Decoder, json.Number, then a second pass converting
// numbers) this was a fifth of a create's CPU. FuzzDecodeObjectFast checks
// it against encoding/json's path.
func decodeObjectFast(b []byte) (map[string]any, bool) {
	return fastjson.DecodeObject(b, fastjson.Int64OrFloat64)
}
