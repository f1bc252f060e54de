package protobuf

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Wire types of the protobuf encoding.
//
// Mirrors https://protobuf.dev/programming-guides/encoding/#structure.
const (
	wireVarint     = 0
	wireFixed64    = 1
	wireBytes      = 2
	wireStartGroup = 3
	wireEndGroup   = 4
	wireFixed32    = 5
)

// rawField is one field of a message as read from the wire: its number,
// its wire type and its value (varint and fixed values in u, length-
// delimited ones in b).
type rawField struct {
	num  int
	wire int
	u    uint64
	b    []byte
}

// readFields splits one message into its fields, in wire order.
func readFields(msg []byte) ([]rawField, error) {
	var out []rawField
	for len(msg) > 0 {
		tag, n := binary.Uvarint(msg)
		if n <= 0 {
			return nil, malformed("bad field tag")
		}
		msg = msg[n:]
		f := rawField{num: int(tag >> 3), wire: int(tag & 7)}
		if f.num <= 0 || tag>>3 > math.MaxInt32 {
			return nil, malformed("bad field number %d", tag>>3)
		}
		switch f.wire {
		case wireVarint:
			f.u, n = binary.Uvarint(msg)
			if n <= 0 {
				return nil, malformed("bad varint in field %d", f.num)
			}
			msg = msg[n:]
		case wireFixed64:
			if len(msg) < 8 {
				return nil, malformed("short fixed64 in field %d", f.num)
			}
			f.u, msg = binary.LittleEndian.Uint64(msg), msg[8:]
		case wireFixed32:
			if len(msg) < 4 {
				return nil, malformed("short fixed32 in field %d", f.num)
			}
			f.u, msg = uint64(binary.LittleEndian.Uint32(msg)), msg[4:]
		case wireBytes:
			l, n := binary.Uvarint(msg)
			if n <= 0 || l > uint64(len(msg)-n) {
				return nil, malformed("bad length in field %d", f.num)
			}
			f.b, msg = msg[n:n+int(l)], msg[n+int(l):]
		default:
			// Groups (3, 4) are proto1's; Kubernetes never sends them.
			return nil, malformed("unsupported wire type %d in field %d", f.wire, f.num)
		}
		out = append(out, f)
	}
	return out, nil
}

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}
