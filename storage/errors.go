package storage

import (
	"errors"
	"fmt"
)

// The kinds of error a store returns, as bbolt groups its sentinels: one
// per thing that can go wrong with a request. Every such error is an
// *Error whose Kind is one of these; test with errors.Is:
//
//	errors.Is(err, storage.ErrNotFound)
//
// and use errors.As for the key and revision involved. They mirror the
// codes of k8s.io/apiserver/pkg/storage/errors.go.
var (
	// ErrNotFound: the key does not exist (Get, GuaranteedUpdate, Delete).
	ErrNotFound = errors.New("key not found")
	// ErrAlreadyExists: Create found the key taken.
	ErrAlreadyExists = errors.New("key exists")
	// ErrConflict: a precondition (UID, resourceVersion) does not hold.
	ErrConflict = errors.New("resource version conflicts")
	// ErrInvalidObject: the object cannot be stored (a create with a
	// resourceVersion, an object the codec refuses or one too large).
	ErrInvalidObject = errors.New("invalid object")
	// ErrExpired: the revision asked for is older than the compacted one.
	ErrExpired = errors.New("resource version expired")
	// ErrTooLargeResourceVersion: the revision asked for is not reached yet.
	ErrTooLargeResourceVersion = errors.New("too large resource version")
	// ErrBadRequest: a malformed key, resourceVersion or continue token.
	ErrBadRequest = errors.New("bad request")
	// ErrTimeout: the request's context ended before the store acted.
	ErrTimeout = errors.New("timeout")
	// ErrInternal: anything else (a closed or failed backend, a record
	// that does not decode); Err says what.
	ErrInternal = errors.New("internal error")
)

// Causes both engines wrap in an *Error (as its Err), so that, e.g., both
// errors.Is(err, ErrInternal) and errors.Is(err, ErrClosed) hold.
var (
	// ErrClosed: the backend was closed (the cause of an ErrInternal).
	ErrClosed = errors.New("storage: closed")
	// ErrObjectTooLarge: an encoded object is larger than the backend
	// accepts (the cause of an ErrInvalidObject).
	ErrObjectTooLarge = errors.New("storage: object too large")
)

// Error is every error a store returns about a request.
//
// Mirrors k8s.io/apiserver/pkg/storage.StorageError.
type Error struct {
	// Kind is one of the sentinels above: what went wrong.
	Kind error
	// Key is the key involved, if any.
	Key string
	// ResourceVersion is the revision involved (e.g. the one asked for).
	ResourceVersion int64
	// Msg says more, in upstream's words where upstream has them.
	Msg string
	// Err is the underlying cause, if any (e.g. ErrClosed, an etcd error).
	Err error
}

func (e *Error) Error() string {
	s := "StorageError: " + e.Kind.Error()
	if e.Key != "" {
		s += ", Key: " + e.Key
	}
	if e.ResourceVersion != 0 {
		s += fmt.Sprintf(", ResourceVersion: %d", e.ResourceVersion)
	}
	if e.Msg != "" {
		s += ", AdditionalErrorMsg: " + e.Msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Is makes errors.Is(err, ErrNotFound) true for every not-found Error.
func (e *Error) Is(target error) bool { return target == e.Kind }

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// NewExpiredError says revision rv is older than the compacted revision.
//
// Mirrors the message of etcd's ErrCompacted as upstream passes it on.
func NewExpiredError(rv, compacted int64) error {
	return &Error{Kind: ErrExpired, ResourceVersion: rv,
		Msg: fmt.Sprintf("too old resource version: %d (%d)", rv, compacted)}
}

// NewTooLargeResourceVersionError says revision rv is not reached yet.
//
// Mirrors k8s.io/apiserver/pkg/storage.NewTooLargeResourceVersionError.
func NewTooLargeResourceVersionError(rv, current int64) error {
	return &Error{Kind: ErrTooLargeResourceVersion, ResourceVersion: rv,
		Msg: fmt.Sprintf("Too large resource version: %d, current: %d", rv, current)}
}
