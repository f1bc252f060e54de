//go:build !linux

package bolt

// adviseDontNeed does nothing outside Linux (resident_linux.go).
func adviseDontNeed(addr, length uintptr) error { return nil }
