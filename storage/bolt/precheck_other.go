//go:build !unix

package bolt

import (
	"os"
	"time"
)

// lockShared does nothing where flock does not exist: bbolt's own lock
// at Open is then the only one.
func lockShared(*os.File, time.Duration) error { return nil }

// unlock does nothing: lockShared took no lock.
func unlock(*os.File) error { return nil }

// mapFile maps nothing where mmap is not at hand: checkFile reads the file
// with ReadAt.
func mapFile(*os.File, int64) ([]byte, func(), error) { return nil, func() {}, nil }
