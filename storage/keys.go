package storage

import (
	"strings"
)

// KeyRoot is the root of every key, as upstream's default --etcd-prefix.
const KeyRoot = "/registry"

// ResourcePrefix returns the key prefix of a resource:
// /registry/<group>/<resource>, or /registry/<resource> for the core
// group, e.g. /registry/stable.example.com/crontabs.
//
// Mirrors the prefix upstream's registry builds from the resource
// (genericregistry.Store.KeyRootFunc).
func ResourcePrefix(group, resource string) string {
	if group == "" {
		return KeyRoot + "/" + resource
	}
	return KeyRoot + "/" + group + "/" + resource
}

// ObjectKey returns the key of one object under a resource prefix:
// <prefix>/<namespace>/<name>, or <prefix>/<name> for a cluster-scoped
// object.
//
// Mirrors genericregistry.NamespaceKeyFunc and NoNamespaceKeyFunc.
func ObjectKey(prefix, namespace, name string) string {
	prefix = strings.TrimSuffix(prefix, "/")
	if namespace == "" {
		return prefix + "/" + name
	}
	return prefix + "/" + namespace + "/" + name
}

// KeyRange is the keys a call is about: one key, or with Prefix, every key
// under Key (which then ends in "/").
type KeyRange struct {
	Key    string
	Prefix bool
}

// Contains reports whether key is in r.
func (r KeyRange) Contains(key string) bool {
	if r.Prefix {
		return strings.HasPrefix(key, r.Key)
	}
	return key == r.Key
}

// CheckKey returns a BadRequest error unless key is the key of an object
// under the resource's prefix. NUL is refused: continue tokens use it as a
// separator.
//
// Mirrors k8s.io/apiserver/pkg/storage.PrepareKey.
func (r *Resource) CheckKey(key string) error {
	if !strings.HasPrefix(key, r.Prefix) || len(key) == len(r.Prefix) {
		return &Error{Kind: ErrBadRequest, Msg: "key " + key + " is not under the resource prefix " + r.Prefix}
	}
	if strings.ContainsRune(key, 0) {
		return &Error{Kind: ErrBadRequest, Msg: "key contains NUL"}
	}
	return nil
}

// KeyRange returns the range of a list, watch or count: with recursive,
// every key under key (taken as a directory: "/a/b" covers "/a/b/c" but
// not "/a/bc"); otherwise key alone.
func (r *Resource) KeyRange(key string, recursive bool) (KeyRange, error) {
	if !recursive {
		return KeyRange{Key: key}, r.CheckKey(key)
	}
	if !strings.HasSuffix(key, "/") {
		key += "/"
	}
	if !strings.HasPrefix(key, r.Prefix) || strings.ContainsRune(key, 0) {
		return KeyRange{}, &Error{Kind: ErrBadRequest, Msg: "prefix " + key + " is not under the resource prefix " + r.Prefix}
	}
	return KeyRange{Key: key, Prefix: true}, nil
}

// Covers reports whether key is under the resource's prefix.
func (r *Resource) Covers(key string) bool {
	return len(key) > len(r.Prefix) && key[:len(r.Prefix)] == r.Prefix
}
