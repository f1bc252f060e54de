package procs

import (
	"os"
	"testing"
	"time"
)

func TestReadMem(t *testing.T) {
	m, err := ReadMem(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if m.RSS <= 0 || m.HWM < m.RSS {
		t.Errorf("ReadMem = %+v", m)
	}
}

func TestCPUTime(t *testing.T) {
	start := time.Now()
	for time.Since(start) < 50*time.Millisecond {
	}
	if d, err := CPUTime(os.Getpid()); err != nil || d <= 0 {
		t.Errorf("CPUTime = %v, %v", d, err)
	}
}

func TestFsyncRate(t *testing.T) {
	r, err := FsyncRate(t.TempDir(), 50*time.Millisecond)
	if err != nil || r <= 0 {
		t.Errorf("FsyncRate = %v, %v", r, err)
	}
}

func TestFreePort(t *testing.T) {
	if p, err := FreePort(); err != nil || p <= 0 {
		t.Errorf("FreePort = %v, %v", p, err)
	}
}
