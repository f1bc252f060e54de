package registry

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// StoreOptions is what a built-in resource's Store is completed with: the
// backend to keep it in, the scheme that converts it, the version it is
// stored in, its key prefix and its selectable fields.
//
// Mirrors generic.StoreOptions with the RESTOptions (storage config,
// codec, resource prefix) that upstream's storage factory supplies.
type StoreOptions struct {
	Backend storage.Backend
	Scheme  *scheme.Scheme
	// StorageVersion is the external version objects are encoded in
	// (core/v1 for Events written through either events API).
	StorageVersion scheme.GroupVersion
	// ResourcePrefix is the key prefix, e.g. /registry/secrets (upstream
	// keeps built-in resources under /registry/<resource>).
	ResourcePrefix string
	// AttrFunc returns the labels and selectable fields; nil means
	// storage.DefaultAttrs.
	AttrFunc storage.AttrFunc
	// TTL, if > 0, is how long an object lives after each write to it:
	// the storage deletes it then, and watchers see DELETED (Events:
	// kube-apiserver's --event-ttl). Upstream's Store gets it from a
	// TTLFunc, which for Events returns --event-ttl for every write.
	TTL time.Duration
	// EnableGarbageCollection is the Store's (upstream: the apiserver's
	// --enable-garbage-collector, through RESTOptions).
	EnableGarbageCollection bool
}

// CompleteWithOptions fills in what a built-in resource's Store leaves to
// its options: the key functions of its scope under ResourcePrefix, and its
// storage with a codec that writes StorageVersion and reads it back into
// NewFunc's (internal) type.
//
// Mirrors (*Store).CompleteWithOptions in
// k8s.io/apiserver/pkg/registry/generic/registry/store.go.
func (e *Store) CompleteWithOptions(opts StoreOptions) error {
	switch {
	case e.NewFunc == nil || e.NewListFunc == nil:
		return fmt.Errorf("store for %s must have NewFunc and NewListFunc set", e.DefaultQualifiedResource)
	case e.CreateStrategy == nil && e.UpdateStrategy == nil:
		return fmt.Errorf("store for %s must have a CreateStrategy or an UpdateStrategy", e.DefaultQualifiedResource)
	case opts.Backend == nil || opts.Scheme == nil || opts.ResourcePrefix == "":
		return errors.New("StoreOptions need a Backend, a Scheme and a ResourcePrefix")
	}
	if e.KeyRootFunc == nil && e.KeyFunc == nil {
		e.KeyRootFunc, e.KeyFunc = DefaultKeyFuncs(opts.ResourcePrefix, e.NamespaceScoped())
	}
	if e.AttrFunc == nil {
		e.AttrFunc = opts.AttrFunc
	}
	e.EnableGarbageCollection = opts.EnableGarbageCollection
	e.Storage = opts.Backend.ForResource(storage.ResourceConfig{
		Prefix:   opts.ResourcePrefix,
		NewFunc:  e.NewFunc,
		Codec:    NewStorageCodec(opts.Scheme, opts.StorageVersion),
		AttrFunc: e.AttrFunc,
		TTL:      opts.TTL,
	})
	return nil
}

// StorageCodec keeps internal objects in the store as JSON of one external
// version: it converts to that version on Encode, and decodes, defaults
// and converts back on Decode.
//
// Mirrors the codec upstream's storage factory builds
// (storage.NewStorageCodec: a versioning codec from the storage version
// to the internal one).
type StorageCodec struct {
	codecs  scheme.CodecFactory
	version scheme.GroupVersion
}

var _ storage.Codec = StorageCodec{}

// NewStorageCodec returns a codec that stores objects in version.
func NewStorageCodec(s *scheme.Scheme, version scheme.GroupVersion) StorageCodec {
	return StorageCodec{codecs: scheme.NewCodecFactory(s), version: version}
}

// Encode writes obj in the storage version.
func (c StorageCodec) Encode(obj storage.Object) ([]byte, error) {
	return c.codecs.Encode(obj, c.version)
}

// Decode reads stored JSON into into (an internal object).
func (c StorageCodec) Decode(data []byte, into storage.Object) error {
	obj, _, err := c.codecs.Decode(data, scheme.DecodeOptions{})
	if err != nil {
		return err
	}
	return c.codecs.Scheme().Convert(obj, into)
}

type requestVersionKey struct{}

// WithRequestVersion returns a context carrying the group version of the
// request's URL: one REST storage may serve a resource in two groups
// (Events: core/v1 and events.k8s.io/v1), and its strategy may check
// objects differently for each.
//
// Mirrors the APIGroup and APIVersion of upstream's
// request.WithRequestInfo, which the Event strategy reads.
func WithRequestVersion(ctx context.Context, gv scheme.GroupVersion) context.Context {
	return context.WithValue(ctx, requestVersionKey{}, gv)
}

// RequestVersionFrom returns the group version WithRequestVersion stored.
func RequestVersionFrom(ctx context.Context) scheme.GroupVersion {
	gv, _ := ctx.Value(requestVersionKey{}).(scheme.GroupVersion)
	return gv
}
