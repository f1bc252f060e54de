//go:build unix

package client

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

const pipeSupported = true

// pipeBuffer is the socket buffer asked for each end of a pair (the kernel
// doubles it for its bookkeeping). The default (net.core.wmem_default,
// 208 KiB on Linux) holds less than one real-size CRD (265 KiB of JSON):
// every watch event, status write body and answer of such a CRD then
// took two writes, the writer parked until the reader had drained the
// first part, and a server watch stream could not run one event ahead of
// the informer reading it. Each park is a wake-up that waits its turn
// among the process's runnable goroutines, tens of milliseconds while
// creates hold the cores. 1 MiB holds a few such events; the memory is
// the kernel's, and only while bytes are in flight.
const pipeBuffer = 1 << 20

// socketPair returns the two ends of a connected Unix stream socketpair
// as net.Conns (non-blocking, in the runtime's poller: deadlines work).
func socketPair() (net.Conn, net.Conn, error) {
	// As the net package does: no fork between the socketpair and
	// close-on-exec (SOCK_CLOEXEC is not on every Unix).
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, fmt.Errorf("socketpair: %w", err)
	}
	for _, fd := range fds {
		// Best effort: the system caps the size (net.core.wmem_max),
		// and a smaller buffer only costs wake-ups.
		_ = syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_SNDBUF, pipeBuffer)
		_ = syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_RCVBUF, pipeBuffer)
	}
	a, err := fileConn(fds[0], "pipe-client")
	if err != nil {
		syscall.Close(fds[1])
		return nil, nil, err
	}
	b, err := fileConn(fds[1], "pipe-server")
	if err != nil {
		a.Close()
		return nil, nil, err
	}
	return a, b, nil
}

// fileConn turns fd into a net.Conn; fd is closed either way (FileConn
// dups it).
func fileConn(fd int, name string) (net.Conn, error) {
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		return nil, fmt.Errorf("socketpair: %w", err)
	}
	return c, nil
}
