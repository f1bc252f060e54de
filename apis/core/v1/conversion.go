package v1

import (
	"github.com/crdlab/crdlab/apis/core"
)

// Convert_v1_Secret_To_core_Secret converts to the hub and merges
// stringData into data: each stringData key overwrites the same key of
// data. This is the whole of stringData's "write-only" contract: the hub
// has no field to keep it in, so a read never returns it.
//
// Mirrors Convert_v1_Secret_To_core_Secret in pkg/apis/core/v1/conversion.go.
func Convert_v1_Secret_To_core_Secret(in *Secret, out *core.Secret) error {
	autoConvert_v1_Secret_To_core_Secret(in, out)
	if len(in.StringData) > 0 {
		if out.Data == nil {
			out.Data = map[string][]byte{}
		}
		for k, v := range in.StringData {
			out.Data[k] = []byte(v)
		}
	}
	return nil
}

// Convert_core_Secret_To_v1_Secret converts from the hub; stringData
// stays empty.
func Convert_core_Secret_To_v1_Secret(in *core.Secret, out *Secret) error {
	autoConvert_core_Secret_To_v1_Secret(in, out)
	return nil
}
