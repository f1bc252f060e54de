//go:build !linux

package bolt

// mmapFlags: no MAP_POPULATE outside Linux (mmap_linux.go).
const mmapFlags = 0
