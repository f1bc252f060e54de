package storage

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// Resource is a ResourceConfig made ready for an engine, with the rules of
// the contract that do not depend on the engine: which keys are the
// resource's (keys.go), how an object is stored (without its
// resourceVersion) and read back (with the revision as its
// resourceVersion), what a bookmark looks like. Each engine's store of one
// resource embeds one.
//
// Mirrors the fields and helpers upstream's etcd3 store keeps per
// resource (pathPrefix, codec, versioner, newFunc in etcd3/store.go).
type Resource struct {
	// Prefix is the resource's key prefix, ending in "/".
	Prefix  string
	NewFunc func() Object
	Codec   Codec
	// Attrs returns the labels and fields predicates match on.
	Attrs AttrFunc
	// TTL is how long an object lives after each write (0: forever).
	TTL time.Duration
}

// NewResource completes cfg: a Prefix ending in "/", DefaultAttrs when
// cfg has no AttrFunc. It panics on a config without a Prefix starting
// with "/", a NewFunc or a Codec (a programming error).
func NewResource(cfg ResourceConfig) *Resource {
	if !strings.HasPrefix(cfg.Prefix, "/") || cfg.NewFunc == nil || cfg.Codec == nil {
		panic(fmt.Sprintf("storage: a resource needs a Prefix starting with /, a NewFunc and a Codec: %+v", cfg))
	}
	attrs := cfg.AttrFunc
	if attrs == nil {
		attrs = DefaultAttrs
	}
	return &Resource{
		Prefix:  strings.TrimSuffix(cfg.Prefix, "/") + "/",
		NewFunc: cfg.NewFunc,
		Codec:   cfg.Codec,
		Attrs:   attrs,
		TTL:     max(cfg.TTL, 0),
	}
}

// Encode returns obj as stored: encoded without its resourceVersion, which
// is the revision of the write and is set again on every read. An object
// the codec refuses is InvalidObject.
//
// Mirrors APIObjectVersioner.PrepareObjectForStorage and the encode step
// of upstream's etcd3 store.
func (r *Resource) Encode(key string, obj Object) ([]byte, error) {
	if rv := obj.GetResourceVersion(); rv != "" {
		obj.SetResourceVersion("")
		defer obj.SetResourceVersion(rv)
	}
	data, err := r.Codec.Encode(obj)
	if err != nil {
		return nil, &Error{Kind: ErrInvalidObject, Key: key, Msg: err.Error()}
	}
	return data, nil
}

// Decode fills out with the object stored as data at revision rev, with
// rev as its resourceVersion. Data that does not decode is Internal.
//
// Mirrors decode in etcd3/store.go (codec, then APIObjectVersioner.UpdateObject).
func (r *Resource) Decode(key string, data []byte, rev int64, out Object) error {
	if err := r.Codec.Decode(data, out); err != nil {
		return &Error{Kind: ErrInternal, Key: key, Err: fmt.Errorf("decoding the object at revision %d: %w", rev, err)}
	}
	out.SetResourceVersion(strconv.FormatInt(rev, 10))
	return nil
}

// DecodeNew is Decode into a fresh object from NewFunc.
func (r *Resource) DecodeNew(key string, data []byte, rev int64) (Object, error) {
	obj := r.NewFunc()
	if err := r.Decode(key, data, rev, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// Matches reports whether p selects obj; an error of the attribute
// function is Internal.
func (r *Resource) Matches(p SelectionPredicate, key string, obj Object) (bool, error) {
	ok, err := p.Matches(obj, r.Attrs)
	if err != nil {
		return false, &Error{Kind: ErrInternal, Key: key, Err: err}
	}
	return ok, nil
}

// Bookmark returns the object of a BOOKMARK event at rev: an object of the
// resource's type with only its resourceVersion set. initialEventsEnd adds
// the annotation that ends the initial events of a watch-list.
//
// Mirrors AnnotateInitialEventsEndBookmark in k8s.io/apiserver/pkg/storage/util.go.
func (r *Resource) Bookmark(rev int64, initialEventsEnd bool) Object {
	obj := r.NewFunc()
	obj.SetResourceVersion(strconv.FormatInt(rev, 10))
	if initialEventsEnd {
		obj.SetAnnotations(map[string]string{metav1.InitialEventsAnnotationKey: "true"})
	}
	return obj
}

// SetZero sets *obj to its zero value: what Get with IgnoreNotFound leaves
// in out (upstream's runtime.SetZeroValue).
func SetZero(obj Object) error {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("storage: out must be a non-nil pointer, got %T", obj)
	}
	v.Elem().SetZero()
	return nil
}
