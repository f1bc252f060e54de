package informer

import (
	"errors"
	"fmt"
)

// Sentinel errors, grouped by when they happen. Test for them with errors.Is.
var (
	// Keying and indexing objects.

	// ErrNoMetadata: an object given to a store has no metadata
	// (metav1.Accessor fails), so it has no key and no namespace.
	ErrNoMetadata = errors.New("object has no metadata")
	// ErrIndexNotFound: an index query names an index that was never added.
	ErrIndexNotFound = errors.New("index does not exist")
	// ErrIndexConflict: AddIndexers names an index that already exists.
	ErrIndexConflict = errors.New("indexer conflict")
	// ErrIndexOnNonEmptyStore: AddIndexers on a store that already holds
	// items (indices are built on insert, not backfilled).
	ErrIndexOnNonEmptyStore = errors.New("cannot add indexers to a store that holds items")

	// Running a queue or an informer.

	// ErrFIFOClosed: Pop on a closed DeltaFIFO with nothing left in it.
	ErrFIFOClosed = errors.New("DeltaFIFO: manipulating with closed queue")
	// ErrInformerStarted: AddIndexers after Run.
	ErrInformerStarted = errors.New("informer has already started")
	// ErrInformerStopped: AddEventHandler after Run returned.
	ErrInformerStopped = errors.New("informer has stopped")
	// ErrUnknownRegistration: RemoveEventHandler with a registration this
	// informer did not hand out.
	ErrUnknownRegistration = errors.New("registration was not made by this informer")
)

// KeyError says a KeyFunc could not key Obj.
//
// Mirrors k8s.io/client-go/tools/cache.KeyError.
type KeyError struct {
	Obj any
	Err error
}

func (k KeyError) Error() string {
	return fmt.Sprintf("couldn't create key for object %+v: %v", k.Obj, k.Err)
}

// Unwrap lets errors.Is see the cause (e.g. ErrNoMetadata).
func (k KeyError) Unwrap() error { return k.Err }
