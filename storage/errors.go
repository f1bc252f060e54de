package storage

import (
	"errors"
	"fmt"
)

// ErrorCode says what went wrong in the store.
type ErrorCode int

// The error codes, mirroring k8s.io/apiserver/pkg/storage/errors.go.
const (
	ErrCodeKeyNotFound ErrorCode = iota + 1
	ErrCodeKeyExists
	ErrCodeResourceVersionConflicts
	ErrCodeInvalidObj
	ErrCodeExpired
	ErrCodeTooLargeResourceVersion
	ErrCodeBadRequest
	ErrCodeTimeout
	ErrCodeInternal
)

// Sentinels to test errors with errors.Is: errors.Is(err, storage.ErrNotFound).
var (
	ErrNotFound                = &Error{Code: ErrCodeKeyNotFound}
	ErrAlreadyExists           = &Error{Code: ErrCodeKeyExists}
	ErrConflict                = &Error{Code: ErrCodeResourceVersionConflicts}
	ErrInvalidObject           = &Error{Code: ErrCodeInvalidObj}
	ErrExpired                 = &Error{Code: ErrCodeExpired}
	ErrTooLargeResourceVersion = &Error{Code: ErrCodeTooLargeResourceVersion}
	ErrBadRequest              = &Error{Code: ErrCodeBadRequest}
	ErrTimeout                 = &Error{Code: ErrCodeTimeout}
	ErrInternal                = &Error{Code: ErrCodeInternal}
)

// Error is every error the store returns about a key.
type Error struct {
	Code ErrorCode
	Key  string
	// ResourceVersion is the revision involved (e.g. the compacted one).
	ResourceVersion int64
	Msg             string
	// Err is the underlying cause, if any (e.g. a bbolt error).
	Err error
}

func (e *Error) Error() string {
	var what string
	switch e.Code {
	case ErrCodeKeyNotFound:
		what = "key not found"
	case ErrCodeKeyExists:
		what = "key exists"
	case ErrCodeResourceVersionConflicts:
		what = "resource version conflicts"
	case ErrCodeInvalidObj:
		what = "invalid object"
	case ErrCodeExpired:
		what = "resource version expired"
	case ErrCodeTooLargeResourceVersion:
		what = "too large resource version"
	case ErrCodeBadRequest:
		what = "bad request"
	case ErrCodeTimeout:
		what = "timeout"
	default:
		what = "internal error"
	}
	s := "StorageError: " + what
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
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// NewNotFoundError and friends build errors for one key.
func NewNotFoundError(key string) error { return &Error{Code: ErrCodeKeyNotFound, Key: key} }
func NewAlreadyExistsError(key string) error {
	return &Error{Code: ErrCodeKeyExists, Key: key}
}
func NewConflictError(key, msg string) error {
	return &Error{Code: ErrCodeResourceVersionConflicts, Key: key, Msg: msg}
}
func NewInvalidObjError(key, msg string) error {
	return &Error{Code: ErrCodeInvalidObj, Key: key, Msg: msg}
}

// NewExpiredError says revision rv is older than the compacted revision.
func NewExpiredError(rv, compacted int64) error {
	return &Error{Code: ErrCodeExpired, ResourceVersion: rv,
		Msg: fmt.Sprintf("too old resource version: %d (%d)", rv, compacted)}
}
func NewTooLargeResourceVersionError(rv, current int64) error {
	return &Error{Code: ErrCodeTooLargeResourceVersion, ResourceVersion: rv,
		Msg: fmt.Sprintf("Too large resource version: %d, current: %d", rv, current)}
}
func NewBadRequestError(msg string) error { return &Error{Code: ErrCodeBadRequest, Msg: msg} }

// NewTimeoutError says the request gave up (its context ended) before the
// store did anything.
func NewTimeoutError(key, msg string) error {
	return &Error{Code: ErrCodeTimeout, Key: key, Msg: msg}
}
func NewInternalError(key string, err error) error {
	return &Error{Code: ErrCodeInternal, Key: key, Err: err}
}

// IsNotFound etc. are errors.Is shorthands.
func IsNotFound(err error) bool      { return errors.Is(err, ErrNotFound) }
func IsAlreadyExists(err error) bool { return errors.Is(err, ErrAlreadyExists) }
func IsConflict(err error) bool      { return errors.Is(err, ErrConflict) }
func IsExpired(err error) bool       { return errors.Is(err, ErrExpired) }
func IsInvalidObj(err error) bool    { return errors.Is(err, ErrInvalidObject) }
func IsBadRequest(err error) bool    { return errors.Is(err, ErrBadRequest) }
func IsTimeout(err error) bool       { return errors.Is(err, ErrTimeout) }
func IsInternal(err error) bool      { return errors.Is(err, ErrInternal) }
func IsTooLargeResourceVersion(err error) bool {
	return errors.Is(err, ErrTooLargeResourceVersion)
}

// Errors about the data file and the backend as a whole, rather than one
// key. Open returns them as they are; a call on a closed or failed backend
// returns an Internal *Error that wraps ErrClosed or ErrFailed, so both
// errors.Is(err, ErrInternal) and errors.Is(err, ErrClosed) hold.
var (
	// ErrForeignFile: the file is a bbolt database but not a crdlab one, or
	// one written by an unknown format version. Open never re-initialises it.
	ErrForeignFile = errors.New("storage: not a crdlab data file")
	// ErrCorrupt: the file is damaged (bad checksum, unreadable page or
	// record, broken invariant). Found by Open or Check.
	ErrCorrupt = errors.New("storage: data file is corrupt")
	// ErrLocked: another process has the file open.
	ErrLocked = errors.New("storage: data file is locked by another process")
	// ErrClosed: the backend was closed.
	ErrClosed = errors.New("storage: closed")
	// ErrObjectTooLarge: an encoded object is larger than
	// Options.MaxObjectSize; it is the cause (Err) of an InvalidObj *Error.
	ErrObjectTooLarge = errors.New("storage: object too large")
	// ErrFailed: a commit to disk failed; the backend refuses writes until
	// it is reopened, as the state on disk is no longer known.
	ErrFailed = errors.New("storage: a commit failed; reopen the data file")
)
