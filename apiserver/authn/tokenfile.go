package authn

import (
	"crypto/sha256"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// ErrTokenFile says a token file cannot be used; the error names the line.
var ErrTokenFile = errors.New("invalid token file")

// Tokens maps bearer tokens to users. The zero value has no tokens; it is
// safe for concurrent use once built (Add only before serving).
//
// Mirrors TokenAuthenticator in
// k8s.io/apiserver/pkg/authentication/token/tokenfile/tokenfile.go.
type Tokens struct {
	// byHash maps the SHA-256 of a token to its user.
	byHash map[[sha256.Size]byte]*User
	// first is the user of the first line of the file (for the
	// kubeconfig --self-signed-cert-dir writes), and its token.
	first      *User
	firstToken string
}

// Len is the number of tokens.
func (t *Tokens) Len() int {
	if t == nil {
		return 0
	}
	return len(t.byHash)
}

// Add adds a token for u. It fails if the token is empty, has spaces, or
// is already there.
func (t *Tokens) Add(token string, u *User) error {
	if token == "" {
		return errors.New("empty token")
	}
	if strings.ContainsAny(token, " \t\r\n") {
		return errors.New("a token cannot contain spaces: an Authorization header could never carry it")
	}
	if u == nil || u.Name == "" {
		return errors.New("empty user name")
	}
	if t.byHash == nil {
		t.byHash = map[[sha256.Size]byte]*User{}
	}
	h := sha256.Sum256([]byte(token))
	if _, dup := t.byHash[h]; dup {
		return errors.New("duplicate token")
	}
	t.byHash[h] = u
	if t.first == nil {
		t.first, t.firstToken = u, token
	}
	return nil
}

// AuthenticateToken returns the user of token, if it is known.
func (t *Tokens) AuthenticateToken(token string) (*User, bool) {
	if t == nil || token == "" {
		return nil, false
	}
	u, ok := t.byHash[sha256.Sum256([]byte(token))]
	return u, ok
}

// First returns the first token added and its user, if any: the one
// `crdlab serve --self-signed-cert-dir` writes into its kubeconfig.
func (t *Tokens) First() (token string, u *User, ok bool) {
	if t == nil || t.first == nil {
		return "", nil, false
	}
	return t.firstToken, t.first, true
}

// ParseTokenFile reads a token file: one user per line,
//
//	token,user,uid[,"group1,group2"]
//
// (CSV: a groups column with commas must be quoted). Lines starting with
// '#' and empty lines are skipped. Any line that cannot be used — fewer
// than three columns, an empty token or user, a token with spaces, a
// token seen before — fails the whole file: a server that starts with
// half its users is worse than one that does not start.
//
// Mirrors tokenfile.NewCSV.
func ParseTokenFile(r io.Reader) (*Tokens, error) {
	reader := csv.NewReader(r)
	reader.FieldsPerRecord = -1
	reader.Comment = '#'
	t := &Tokens{}
	for {
		record, err := reader.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("%w: line %d: %v", ErrTokenFile, pe.Line, pe.Err)
			}
			return nil, fmt.Errorf("%w: %v", ErrTokenFile, err)
		}
		line, _ := reader.FieldPos(0)
		if len(record) < 3 {
			return nil, fmt.Errorf("%w: line %d: want at least 3 columns (token, user name, user uid), found %d", ErrTokenFile, line, len(record))
		}
		u := &User{Name: record[1], UID: record[2]}
		if len(record) >= 4 && record[3] != "" {
			for _, g := range strings.Split(record[3], ",") {
				if g = strings.TrimSpace(g); g != "" {
					u.Groups = append(u.Groups, g)
				}
			}
		}
		if err := t.Add(record[0], u); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrTokenFile, line, err)
		}
	}
	return t, nil
}

// ReadTokenFile reads the token file at path (ParseTokenFile).
func ReadTokenFile(path string) (*Tokens, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := ParseTokenFile(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if t.Len() == 0 {
		return nil, fmt.Errorf("%s: %w: no tokens in it", path, ErrTokenFile)
	}
	return t, nil
}
