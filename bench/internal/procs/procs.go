// Package procs starts and watches the server processes crdbench measures: etcd, the
// upstream apiextensions-apiserver (refserver) and crdlab. It reads what the kernel knows
// about them from /proc: peak and current resident memory, CPU time.
package procs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Proc is a child process crdbench started.
type Proc struct {
	Name    string
	Cmd     *exec.Cmd
	LogPath string
	Started time.Time
	done    chan struct{}
	err     error
}

// Start runs bin with args, output to logPath. The child is killed if crdbench dies
// (Pdeathsig), so a crashed run leaves no servers behind.
func Start(name, bin string, args []string, logPath string, env []string) (*Proc, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout = logf
	cmd.Stderr = logf
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	p := &Proc{Name: name, Cmd: cmd, LogPath: logPath, done: make(chan struct{})}
	p.Started = time.Now()
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	go func() {
		p.err = cmd.Wait()
		logf.Close()
		close(p.done)
	}()
	return p, nil
}

// Pid is the process id.
func (p *Proc) Pid() int { return p.Cmd.Process.Pid }

// Exited reports whether the process has ended, and how.
func (p *Proc) Exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.err
	default:
		return false, nil
	}
}

// Stop sends SIGTERM, waits up to grace, then SIGKILLs.
func (p *Proc) Stop(grace time.Duration) {
	if ok, _ := p.Exited(); ok {
		return
	}
	_ = p.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = p.Cmd.Process.Kill()
		<-p.done
	}
}

// LogTail returns the last n lines of the process's log.
func (p *Proc) LogTail(n int) string {
	b, err := os.ReadFile(p.LogPath)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// WaitReady polls url until it answers 200, the process exits or timeout passes.
func (p *Proc) WaitReady(ctx context.Context, url string, timeout time.Duration) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Since(p.Started), nil
			}
		}
		if ok, perr := p.Exited(); ok {
			return 0, fmt.Errorf("%s exited (%v) before it was ready; log:\n%s", p.Name, perr, p.LogTail(30))
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("%s not ready at %s after %s; log:\n%s", p.Name, url, timeout, p.LogTail(30))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Mem is what /proc/<pid>/status says about a process's memory, in bytes.
type Mem struct {
	// HWM is the peak resident set size (VmHWM).
	HWM int64 `json:"peak_rss_bytes"`
	// RSS is the current resident set size (VmRSS).
	RSS int64 `json:"rss_bytes"`
	// Anon is the anonymous part of RSS (RssAnon: heap, stacks); the rest
	// is file pages (RssFile: binaries and mmap'd files such as bbolt's
	// and etcd's data, which the kernel may drop and read again) and
	// shared memory (RssShmem).
	Anon int64 `json:"rss_anon_bytes"`
}

// ReadMem reads VmHWM, VmRSS and RssAnon of pid.
func ReadMem(pid int) (Mem, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return Mem{}, err
	}
	defer f.Close()
	var m Mem
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "VmHWM:"):
			m.HWM = parseKB(line)
		case strings.HasPrefix(line, "VmRSS:"):
			m.RSS = parseKB(line)
		case strings.HasPrefix(line, "RssAnon:"):
			m.Anon = parseKB(line)
		}
	}
	return m, sc.Err()
}

func parseKB(line string) int64 {
	f := strings.Fields(line)
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.ParseInt(f[1], 10, 64)
	return n * 1024
}

// CPUTime returns the user+system CPU time pid has used so far.
func CPUTime(pid int) (time.Duration, error) {
	f, err := statFields(pid, 15)
	if err != nil {
		return 0, err
	}
	// f[0] is field 3 (state); utime is field 14, stime 15.
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	const hz = 100 // USER_HZ on Linux
	return time.Duration(ut+st) * time.Second / hz, nil
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// DirSize is the bytes taken by the regular files under dir.
func DirSize(dir string) int64 {
	var n int64
	_ = filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
		return nil
	})
	return n
}

// RaiseFileLimit raises RLIMIT_NOFILE to its hard limit, so that a thousand watch
// connections fit (children inherit it).
func RaiseFileLimit() (uint64, error) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, err
	}
	l.Cur = l.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, err
	}
	return l.Cur, nil
}

func splitLines(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }

func fields(s string) []string { return strings.Fields(s) }

// MinorFaults is how many minor page faults the process pid has taken (field 10 of
// /proc/pid/stat): each is a page the kernel mapped at its first touch.
func MinorFaults(pid int) (int64, error) {
	f, err := statFields(pid, 10)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(f[7], 10, 64)
}

// statFields returns the fields of /proc/pid/stat from field 3 (state) on, f[0] being
// field 3, and fails if there are fewer than up to field last.
func statFields(pid, last int) ([]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, err
	}
	// The command name (field 2) may hold spaces; fields after its ')' are fixed.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil, errors.New("malformed stat")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < last-2 {
		return nil, errors.New("short stat")
	}
	return f, nil
}
