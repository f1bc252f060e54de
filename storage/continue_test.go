package storage

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestContinueToken(t *testing.T) {
	const prefix = "/registry/stable.example.com/crontabs/"
	t.Run("RoundTrip", func(t *testing.T) {
		tok, err := EncodeContinue(prefix+"default/b\x00", prefix, 12)
		require.NoError(t, err)
		// The same token upstream would send.
		require.Equal(t, "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIsInN0YXJ0IjoiZGVmYXVsdC9iXHUwMDAwIn0", tok)
		from, rv, err := DecodeContinue(tok, prefix)
		require.NoError(t, err)
		require.Equal(t, prefix+"default/b\x00", from)
		require.EqualValues(t, 12, rv)
	})
	t.Run("ErrKeyOutsidePrefix", func(t *testing.T) {
		_, err := EncodeContinue("/elsewhere/x", prefix, 1)
		require.Error(t, err)
	})
	for name, tok := range map[string]string{
		"ErrNotBase64":   "!!",
		"ErrNotJSON":     "bm90IGpzb24",
		"ErrVersion":     "eyJ2IjoidjIiLCJydiI6MSwic3RhcnQiOiJ4In0",                     // {"v":"v2","rv":1,"start":"x"}
		"ErrNoRevision":  "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJ4In0",     // rv 0
		"ErrNoStart":     "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIifQ",      // start ""
		"ErrDotDotStart": "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIuLi94In0", // start "../x"
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := DecodeContinue(tok, prefix)
			require.ErrorIs(t, err, ErrBadRequest)
		})
	}
}

// FuzzDecodeContinue: a token never panics, and a valid one stays under
// the prefix.
func FuzzDecodeContinue(f *testing.F) {
	tok, _ := EncodeContinue("/p/a\x00", "/p/", 3)
	f.Add(tok)
	f.Add("eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIuLi94In0")
	f.Fuzz(func(t *testing.T, token string) {
		from, _, err := DecodeContinue(token, "/p/")
		if err == nil {
			require.True(t, len(from) > len("/p/") && from[:3] == "/p/")
			require.NotContains(t, from, "/../")
		}
	})
}
