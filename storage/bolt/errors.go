package bolt

import "errors"

// Errors about the data file and the DB as a whole, rather than one
// request. Open returns them as they are; a call on a closed or failed DB
// returns a storage.ErrInternal *storage.Error that wraps
// storage.ErrClosed or ErrFailed, so that both errors.Is(err,
// storage.ErrInternal) and errors.Is(err, ErrFailed) hold.
var (
	// ErrForeignFile: the file is a bbolt database but not a crdlab one, or
	// one written by an unknown format version. Open never re-initialises it.
	ErrForeignFile = errors.New("storage: not a crdlab data file")
	// ErrCorrupt: the file is damaged (bad checksum, unreadable page or
	// record, broken invariant). Found by Open or Check.
	ErrCorrupt = errors.New("storage: data file is corrupt")
	// ErrLocked: another process has the file open.
	ErrLocked = errors.New("storage: data file is locked by another process")
	// ErrFailed: a commit to disk failed; the DB refuses writes until it is
	// reopened, as the state on disk is no longer known.
	ErrFailed = errors.New("storage: a commit failed; reopen the data file")
)
