//go:build unix

package bolt

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// lockShared takes a shared flock on f, retrying until timeout as bbolt's
// own flock does: a server that has the file open holds bbolt's exclusive
// lock, and its pages may change under a reader. Closing f releases it.
func lockShared(f *os.File, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		if time.Now().After(deadline) {
			return ErrLocked
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// unlock releases the lock lockShared took.
func unlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// mapFile maps the first size bytes of f read-only, for checkFile.
func mapFile(f *os.File, size int64) ([]byte, func(), error) {
	if int64(int(size)) != size {
		return nil, nil, errors.New("the file is too large to map")
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { _ = syscall.Munmap(data) }, nil
}
