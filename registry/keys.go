package registry

import (
	"context"
	"fmt"
	"strings"

	apierrors "github.com/crdlab/crdlab/apis/errors"
)

// Keys: every object lives in the store under
//
//	<prefix>/<namespace>/<name>   (namespaced resources)
//	<prefix>/<name>               (cluster-scoped resources)
//
// with <prefix> = /registry/<group>/<resource>, as in etcd under
// kube-apiserver (e.g. /registry/stable.example.com/crontabs/default/x).

// KeyPrefix returns the key prefix of a resource: /registry/<group>/<resource>.
func KeyPrefix(group, resource string) string {
	return "/registry/" + group + "/" + resource
}

// NamespaceKeyRootFunc returns the key prefix of the request's namespace:
// prefix/<ns>, or prefix itself when the request has no namespace (a list
// across all namespaces).
//
// Mirrors registry.NamespaceKeyRootFunc in generic/registry/store.go.
func NamespaceKeyRootFunc(ctx context.Context, prefix string) string {
	if ns := NamespaceFrom(ctx); ns != "" {
		return prefix + "/" + ns
	}
	return prefix
}

// NamespaceKeyFunc returns the key of name in the request's namespace;
// namespaced objects need a namespace.
//
// Mirrors registry.NamespaceKeyFunc.
func NamespaceKeyFunc(ctx context.Context, prefix, name string) (string, error) {
	ns := NamespaceFrom(ctx)
	if ns == "" {
		return "", apierrors.NewBadRequest("Namespace parameter required.")
	}
	if err := checkKeyName(name); err != nil {
		return "", err
	}
	return prefix + "/" + ns + "/" + name, nil
}

// NoNamespaceKeyFunc returns the key of a cluster-scoped object.
//
// Mirrors registry.NoNamespaceKeyFunc.
func NoNamespaceKeyFunc(_ context.Context, prefix, name string) (string, error) {
	if err := checkKeyName(name); err != nil {
		return "", err
	}
	return prefix + "/" + name, nil
}

func checkKeyName(name string) error {
	if name == "" {
		return apierrors.NewBadRequest("Name parameter required.")
	}
	if msgs := validatePathSegmentName(name, false); len(msgs) > 0 {
		return apierrors.NewBadRequest(fmt.Sprintf("Name parameter invalid: %q: %s", name, strings.Join(msgs, ";")))
	}
	return nil
}

// DefaultKeyFuncs returns the KeyRootFunc and KeyFunc of a resource stored
// under prefix.
func DefaultKeyFuncs(prefix string, namespaced bool) (root func(context.Context) string, key func(context.Context, string) (string, error)) {
	if namespaced {
		return func(ctx context.Context) string { return NamespaceKeyRootFunc(ctx, prefix) },
			func(ctx context.Context, name string) (string, error) { return NamespaceKeyFunc(ctx, prefix, name) }
	}
	return func(context.Context) string { return prefix },
		func(ctx context.Context, name string) (string, error) { return NoNamespaceKeyFunc(ctx, prefix, name) }
}
