package storage

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// continueToken is the decoded continue parameter of a list.
//
// Mirrors k8s.io/apiserver/pkg/storage/continue.go, so tokens look like
// upstream's: base64url of {"v":"meta.k8s.io/v1","rv":12,"start":"default/b\u0000"}.
type continueToken struct {
	APIVersion      string `json:"v"`
	ResourceVersion int64  `json:"rv"`
	StartKey        string `json:"start"`
}

// EncodeContinue returns the token of a page that starts at key (under
// keyPrefix) and reads at revision rv.
//
// Mirrors EncodeContinue in k8s.io/apiserver/pkg/storage/continue.go.
func EncodeContinue(key, keyPrefix string, rv int64) (string, error) {
	next := strings.TrimPrefix(key, keyPrefix)
	if next == key {
		return "", &Error{Kind: ErrInternal, Key: key, Err: fmt.Errorf("unable to encode next field: the key and key prefix do not match")}
	}
	out, err := json.Marshal(&continueToken{APIVersion: "meta.k8s.io/v1", ResourceVersion: rv, StartKey: next})
	if err != nil {
		return "", &Error{Kind: ErrInternal, Key: key, Err: err}
	}
	return base64.RawURLEncoding.EncodeToString(out), nil
}

// DecodeContinue returns the key and revision a continue token points at.
// A token that does not decode, or whose key walks out of keyPrefix
// ("../"), is BadRequest.
//
// Mirrors DecodeContinue in k8s.io/apiserver/pkg/storage/continue.go.
func DecodeContinue(token, keyPrefix string) (from string, rv int64, err error) {
	bad := func(why string) (string, int64, error) {
		return "", 0, &Error{Kind: ErrBadRequest, Msg: "continue key is not valid: " + why}
	}
	data, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return bad(err.Error())
	}
	var c continueToken
	if err := json.Unmarshal(data, &c); err != nil {
		return bad(err.Error())
	}
	if c.APIVersion != "meta.k8s.io/v1" {
		return bad(fmt.Sprintf("server does not recognize this encoded version %q", c.APIVersion))
	}
	if c.ResourceVersion <= 0 {
		return bad("incorrect encoded start resourceVersion (version meta.k8s.io/v1)")
	}
	if c.StartKey == "" {
		return bad("encoded start key empty (version meta.k8s.io/v1)")
	}
	key := c.StartKey
	if !strings.HasPrefix(key, "/") {
		key = "/" + key
	}
	if cleaned := path.Clean(key); cleaned != key {
		return bad(c.StartKey)
	}
	return keyPrefix + key[1:], c.ResourceVersion, nil
}
