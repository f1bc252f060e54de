package bolt

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRecord_RoundTrip(t *testing.T) {
	for _, r := range []*record{
		{rev: 1, key: "/registry/g/r/ns/a", createRev: 1, value: []byte(`{"a":1}`)},
		{rev: 9, key: "/k", createRev: 3, prevRev: 7, value: []byte{}},
		{rev: 1 << 40, key: "/k", createRev: 3, prevRev: 7, deleted: true, value: []byte("last state")},
	} {
		got, err := decodeRecord(revKey(r.rev), r.encode())
		require.NoError(t, err)
		require.Equal(t, r.rev, got.rev)
		require.Equal(t, r.key, got.key)
		require.Equal(t, r.createRev, got.createRev)
		require.Equal(t, r.prevRev, got.prevRev)
		require.Equal(t, r.deleted, got.deleted)
		require.Equal(t, string(r.value), string(got.value))
	}
}

func TestRecord_Corruption(t *testing.T) {
	r := &record{rev: 5, key: "/k", createRev: 5, value: []byte(`{"a":1}`)}
	enc := r.encode()
	t.Run("ErrFlippedBit", func(t *testing.T) {
		for i := range enc {
			bad := append([]byte(nil), enc...)
			bad[i] ^= 0x10
			_, err := decodeRecord(revKey(5), bad)
			require.ErrorIs(t, err, errBadRecord, "byte %d", i)
		}
	})
	t.Run("ErrWrongRevision", func(t *testing.T) {
		_, err := decodeRecord(revKey(6), enc)
		require.ErrorIs(t, err, errBadRecord)
	})
	t.Run("ErrTruncated", func(t *testing.T) {
		for n := range len(enc) {
			_, err := decodeRecord(revKey(5), enc[:n])
			require.ErrorIs(t, err, errBadRecord, "length %d", n)
		}
	})
}

// FuzzDecodeRecord: any bytes decode to an error or to a record that
// encodes back to the same bytes; decoding never panics.
func FuzzDecodeRecord(f *testing.F) {
	f.Add(int64(5), (&record{rev: 5, key: "/k", createRev: 5, value: []byte(`{"a":1}`)}).encode())
	f.Add(int64(7), (&record{rev: 7, key: "/k", createRev: 5, prevRev: 6, deleted: true}).encode())
	f.Add(int64(1), []byte{})
	f.Fuzz(func(t *testing.T, rev int64, v []byte) {
		r, err := decodeRecord(revKey(rev), v)
		if err != nil {
			return
		}
		require.Equal(t, v, r.encode())
	})
}

func TestRecordKey(t *testing.T) {
	r := &record{rev: 5, key: "/registry/g/r/ns/a", createRev: 5, value: []byte(`{"a":1}`)}
	require.Equal(t, r.key, recordKey(r.encode()))
	require.Equal(t, "", recordKey(nil))
	require.Equal(t, "", recordKey(r.encode()[:recordHeader+3]))
}
