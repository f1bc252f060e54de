package structural

import "github.com/crdlab/crdlab/internal/fastjson"

// decodeSchemaJSON parses a schema's JSON into what encoding/json's
// Decoder with UseNumber gives — maps, slices, strings, json.Numbers,
// bools and nils — in one pass without reflection (internal/fastjson).
// On anything but well-formed input ok is false and FromJSON takes
// encoding/json's path, which words the error.
//
// A real-size CRD's schema is a few hundred KB, read at every create and
// update of the CRD (its validation) and by the controllers: through
// encoding/json this was half of the validation's CPU.
// FuzzDecodeSchemaJSON compares it with encoding/json.
func decodeSchemaJSON(b []byte) (any, bool) {
	return fastjson.Decode(b, fastjson.UseNumber)
}
