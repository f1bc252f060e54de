package procs

import (
	"encoding/json"
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

// TestMinorFaults: touching 8 MiB of fresh memory (mapped by the kernel a
// page at a time) adds at least a fault per 16 KiB of it.
func TestMinorFaults(t *testing.T) {
	before, err := MinorFaults(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 8<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	after, err := MinorFaults(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if after-before < int64(len(b)/(16<<10)) {
		t.Errorf("MinorFaults went from %d to %d after touching %d MiB", before, after, len(b)>>20)
	}
	sink = b
}

var sink []byte

func TestCPUTask(t *testing.T) {
	doc, err := json.Marshal(cpuTaskSchema(4, 6))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(doc); n < 200<<10 || n > 400<<10 {
		t.Errorf("the task's document is %d bytes, want about 206 KiB", n)
	}
	ms, err := CPUTask(3)
	if err != nil {
		t.Fatal(err)
	}
	if ms <= 0 {
		t.Errorf("CPUTask = %v ms, want a positive time", ms)
	}
}

func TestPageTouch(t *testing.T) {
	us, err := PageTouch(1<<20, 3)
	if err != nil {
		t.Fatal(err)
	}
	if us <= 0 {
		t.Errorf("PageTouch = %v µs, want a positive time", us)
	}
	if _, err := PageTouch(100, 1); err == nil {
		t.Error("PageTouch of less than a page: no error")
	}
	if _, err := PageTouch(1<<20, 0); err == nil {
		t.Error("PageTouch of no repetitions: no error")
	}
}
