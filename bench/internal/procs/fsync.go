package procs

import (
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// FsyncRate measures the disk's raw durable-write rate in dir: append 4 KiB and fdatasync,
// in a loop on one thread, for d. It is the floor under any store that makes each write
// durable before acknowledging it: a server that acknowledges more writes per second than
// this must be putting several writes into one sync (group commit).
func FsyncRate(dir string, d time.Duration) (float64, error) {
	f, err := os.CreateTemp(dir, "fsync-*.dat")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	buf := make([]byte, 4096)
	for i := range buf {
		buf[i] = byte(i)
	}
	n := 0
	start := time.Now()
	for time.Since(start) < d {
		if _, err := f.Write(buf); err != nil {
			return 0, err
		}
		if err := syscall.Fdatasync(int(f.Fd())); err != nil {
			return 0, err
		}
		n++
		if n%4096 == 0 { // keep the file small: start over every 16 MiB
			if _, err := f.Seek(0, 0); err != nil {
				return 0, err
			}
		}
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// Filesystem names the filesystem dir is on, as /proc/self/mounts tells (device and type),
// best effort.
func Filesystem(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	b, err := os.ReadFile("/proc/self/mounts")
	if err != nil {
		return ""
	}
	best, bestLen := "", -1
	for _, line := range splitLines(string(b)) {
		var dev, mnt, typ string
		f := fields(line)
		if len(f) < 3 {
			continue
		}
		dev, mnt, typ = f[0], f[1], f[2]
		if (abs == mnt || len(abs) > len(mnt) && abs[:len(mnt)] == mnt && (mnt == "/" || abs[len(mnt)] == '/')) && len(mnt) > bestLen {
			best, bestLen = dev+" ("+typ+" on "+mnt+")", len(mnt)
		}
	}
	return best
}
