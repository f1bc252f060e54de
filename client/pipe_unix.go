//go:build unix

package client

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

const pipeSupported = true

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
