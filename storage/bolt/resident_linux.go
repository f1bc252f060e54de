package bolt

import "syscall"

// adviseDontNeed tells the kernel the process does not need the pages of
// the mapping at addr (length bytes) for now: madvise(MADV_DONTNEED).
// For a shared file mapping they stay in the page cache, and the next
// access maps them again with the file's contents (resident.go).
func adviseDontNeed(addr, length uintptr) error {
	if length == 0 {
		return nil
	}
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, addr, length, syscall.MADV_DONTNEED)
	if errno != 0 {
		return errno
	}
	return nil
}
