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

// checkKey returns an error unless key is a key of an object under the
// store's prefix. NUL is refused: continue tokens use it as a separator.
func (s *store) checkKey(key string) error {
	if !strings.HasPrefix(key, s.prefix) || len(key) == len(s.prefix) {
		return NewBadRequestError("key " + key + " is not under the resource prefix " + s.prefix)
	}
	if strings.ContainsRune(key, 0) {
		return NewBadRequestError("key contains NUL")
	}
	return nil
}

// keyRange returns the range of a list, watch or count: with recursive,
// every key under key (taken as a directory: "/a/b" covers "/a/b/c" but
// not "/a/bc"); otherwise key alone.
func (s *store) keyRange(key string, recursive bool) (keyRange, error) {
	if !recursive {
		return keyRange{key: key}, s.checkKey(key)
	}
	if !strings.HasSuffix(key, "/") {
		key += "/"
	}
	if !strings.HasPrefix(key, s.prefix) || strings.ContainsRune(key, 0) {
		return keyRange{}, NewBadRequestError("prefix " + key + " is not under the resource prefix " + s.prefix)
	}
	return keyRange{key: key, prefix: true}, nil
}
