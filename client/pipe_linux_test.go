package client

import (
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each end of the pair asks for pipeBuffer; Linux caps it at
// net.core.wmem_max and doubles what it grants for its bookkeeping.
// Where the cap allows it (4 MiB on the machines CI runs on; Linux's
// default cap is 208 KiB), a real-size CRD's watch event, status write
// body or answer (265 KiB of JSON) goes in whole, two of them at once,
// before the other end reads: the writer does not park halfway
// (pipeBuffer says why). With the default buffer the write blocks until
// the deadline.
func TestSocketPair_HoldsTwoLargeEvents(t *testing.T) {
	limit := sysctlInt(t, "/proc/sys/net/core/wmem_max")
	a, b, err := socketPair()
	require.NoError(t, err)
	defer a.Close()
	defer b.Close()
	for _, c := range []net.Conn{a, b} {
		assert.Equal(t, 2*min(pipeBuffer, limit), sndbuf(t, c), "the buffer asked for, as far as the system allows")
	}
	if limit < pipeBuffer {
		t.Logf("net.core.wmem_max is %d: the buffer is capped there, and two large events do not fit", limit)
		return
	}
	event := make([]byte, 2*265<<10)
	for _, c := range []net.Conn{a, b} {
		// The deadline only ends a write that would block for good:
		// nobody reads.
		require.NoError(t, c.SetWriteDeadline(time.Now().Add(5*time.Second)))
		n, err := c.Write(event)
		require.NoError(t, err)
		assert.Equal(t, len(event), n)
	}
}

func sysctlInt(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	return n
}

func sndbuf(t *testing.T, c net.Conn) int {
	t.Helper()
	raw, err := c.(syscall.Conn).SyscallConn()
	require.NoError(t, err)
	var n int
	var serr error
	require.NoError(t, raw.Control(func(fd uintptr) {
		n, serr = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF)
	}))
	require.NoError(t, serr)
	return n
}
