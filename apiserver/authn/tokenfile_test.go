package authn_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/crdlab/crdlab/apiserver/authn"
)

func TestParseTokenFile(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		tokens, err := authn.ParseTokenFile(strings.NewReader(`# token,user,uid,groups
alice-token,alice,1,"admins,dev"
bob-token,bob,2

carol-token,carol,3,ops
dave-token,dave,,"a, b ,"
`))
		if err != nil {
			t.Fatal(err)
		}
		if tokens.Len() != 4 {
			t.Fatalf("Len %d, want 4", tokens.Len())
		}
		for token, want := range map[string]authn.User{
			"alice-token": {Name: "alice", UID: "1", Groups: []string{"admins", "dev"}},
			"bob-token":   {Name: "bob", UID: "2"},
			"carol-token": {Name: "carol", UID: "3", Groups: []string{"ops"}},
			"dave-token":  {Name: "dave", Groups: []string{"a", "b"}},
		} {
			u, ok := tokens.AuthenticateToken(token)
			if !ok || !reflect.DeepEqual(*u, want) {
				t.Errorf("AuthenticateToken(%q) = %+v, %v; want %+v", token, u, ok, want)
			}
		}
		for _, token := range []string{"", "alice", "alice-token ", "ALICE-TOKEN"} {
			if u, ok := tokens.AuthenticateToken(token); ok {
				t.Errorf("AuthenticateToken(%q) = %+v, want unknown", token, u)
			}
		}
		token, u, ok := tokens.First()
		if !ok || token != "alice-token" || u.Name != "alice" {
			t.Errorf("First() = %q, %+v, %v", token, u, ok)
		}
	})
	errorTests := []struct {
		name, file, want string
	}{
		{"ErrColumns", "t,alice\n", "line 1: want at least 3 columns (token, user name, user uid), found 2"},
		{"ErrEmptyToken", "a,alice,1\n,bob,2\n", "line 2: empty token"},
		{"ErrDuplicate", "a,alice,1\nb,bob,2\na,carol,3\n", "line 3: duplicate token"},
		{"ErrSpace", "a b,alice,1\n", "line 1: a token cannot contain spaces"},
		{"ErrEmptyUser", "a,,1\n", "line 1: empty user name"},
		{"ErrQuote", "a,alice,1,\"admins\n", "line 1: extraneous or missing \" in quoted-field"},
	}
	for _, tt := range errorTests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := authn.ParseTokenFile(strings.NewReader(tt.file))
			if !errors.Is(err, authn.ErrTokenFile) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want ErrTokenFile with %q", err, tt.want)
			}
		})
	}
}

func TestReadTokenFile(t *testing.T) {
	dir := t.TempDir()
	t.Run("ErrMissing", func(t *testing.T) {
		if _, err := authn.ReadTokenFile(filepath.Join(dir, "nope.csv")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("err = %v, want ErrNotExist", err)
		}
	})
	t.Run("ErrEmpty", func(t *testing.T) {
		p := filepath.Join(dir, "empty.csv")
		if err := os.WriteFile(p, []byte("# nobody yet\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := authn.ReadTokenFile(p)
		if !errors.Is(err, authn.ErrTokenFile) || !strings.Contains(err.Error(), "no tokens") || !strings.Contains(err.Error(), p) {
			t.Errorf("err = %v", err)
		}
	})
}

// TestTokens_Concurrent reads one Tokens from many goroutines (run with
// -race): Tokens is safe for concurrent use once built.
func TestTokens_Concurrent(t *testing.T) {
	tokens, err := authn.ParseTokenFile(strings.NewReader("a,alice,1\nb,bob,2\n"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 1000; j++ {
				if u, ok := tokens.AuthenticateToken("b"); !ok || u.Name != "bob" {
					t.Errorf("AuthenticateToken = %v, %v", u, ok)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// FuzzParseTokenFile checks that parsing never panics and that every
// token of a file it accepts authenticates as its line's user.
func FuzzParseTokenFile(f *testing.F) {
	for _, s := range []string{
		"a,alice,1\n",
		"a,alice,1,\"g1,g2\"\n# c\nb,bob,2,g3\n",
		"a,alice\n",
		"\"a\"\"b\",alice,1\n",
		",,,,\n",
		"a,alice,1\na,bob,2\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, file string) {
		tokens, err := authn.ParseTokenFile(strings.NewReader(file))
		if err != nil {
			return
		}
		token, u, ok := tokens.First()
		if tokens.Len() > 0 != ok {
			t.Fatalf("Len %d but First ok=%v", tokens.Len(), ok)
		}
		if ok {
			if got, ok := tokens.AuthenticateToken(token); !ok || got != u || u.Name == "" {
				t.Fatalf("the first token %q does not authenticate as %+v: %+v", token, u, got)
			}
		}
	})
}
