package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/crdlab/crdlab/internal/docmap"
)

func main() {
	timeout := flag.Duration("timeout", 15*time.Minute, "time for the whole sheet")
	netns := flag.Bool("netns", true, "as root, run in a network namespace of its own")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: labcheck [-timeout 15m] [-netns=false] SHEET.md")
		os.Exit(2)
	}
	failed, err := run(flag.Arg(0), *timeout, *netns)
	if err != nil {
		fmt.Fprintln(os.Stderr, "labcheck:", err)
		os.Exit(1)
	}
	if failed > 0 {
		os.Exit(1)
	}
}

func run(sheet string, timeout time.Duration, netns bool) (int, error) {
	root, err := os.Getwd()
	if err != nil {
		return 0, err
	}
	md, err := os.ReadFile(sheet)
	if err != nil {
		return 0, err
	}
	cmds := docmap.ConsoleCommands(md)
	if len(cmds) == 0 {
		return 0, fmt.Errorf("%s has no ```console block", sheet)
	}
	path := os.Getenv("PATH")
	if _, err := exec.LookPath("kubectl"); err != nil {
		fmt.Println("labcheck: no kubectl on PATH: building it from k8s.io/kubectl into e2e/bin")
		build := exec.Command("go", "-C", "e2e", "build", "-o", "bin/kubectl", "./cmd/kubectl")
		build.Stdout, build.Stderr = os.Stdout, os.Stderr
		if err := build.Run(); err != nil {
			return 0, fmt.Errorf("build kubectl: %w", err)
		}
		path = filepath.Join(root, "e2e", "bin") + string(os.PathListSeparator) + path
	}

	out, err := os.MkdirTemp("", "crdlab-labcheck-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(out)
	var script strings.Builder
	fmt.Fprintf(&script, "cd %q\n", root)
	for i, c := range cmds {
		// Each command's output and status go to files; the shell keeps
		// its state (exports, cd, background jobs) from one to the next.
		fmt.Fprintf(&script, "{\n%s\n} >%q 2>&1 </dev/null\necho $? >%q\n", c.Cmd,
			filepath.Join(out, strconv.Itoa(i)+".out"), filepath.Join(out, strconv.Itoa(i)+".rc"))
	}
	script.WriteString("kill $(jobs -p) 2>/dev/null\nwait\n")
	scriptPath := filepath.Join(out, "sheet.sh")
	if err := os.WriteFile(scriptPath, []byte(script.String()), 0o644); err != nil {
		return 0, err
	}

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var sh *exec.Cmd
	if _, err := exec.LookPath("unshare"); err == nil && netns && os.Geteuid() == 0 {
		fmt.Println("labcheck: running the sheet in a network namespace of its own (loopback only)")
		sh = exec.CommandContext(ctx, "unshare", "--net", "--", "bash", "-c", `ip link set lo up && exec bash "$0"`, scriptPath)
	} else {
		sh = exec.CommandContext(ctx, "bash", scriptPath)
	}
	sh.Env = append(os.Environ(), "PATH="+path)
	sh.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	sh.Cancel = func() error { return syscall.Kill(-sh.Process.Pid, syscall.SIGKILL) }
	sh.Stdout, sh.Stderr = os.Stdout, os.Stderr
	runErr := sh.Run()
	// Whatever the sheet left running goes with its process group.
	if sh.Process != nil {
		syscall.Kill(-sh.Process.Pid, syscall.SIGKILL)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return 0, fmt.Errorf("the sheet did not finish within %s", timeout)
	}
	if runErr != nil {
		fmt.Println("labcheck: the shell ended with", runErr)
	}

	passed, failed := 0, 0
	for i, c := range cmds {
		got, _ := os.ReadFile(filepath.Join(out, strconv.Itoa(i)+".out"))
		rcText, err := os.ReadFile(filepath.Join(out, strconv.Itoa(i)+".rc"))
		status := -1
		if err == nil {
			status, _ = strconv.Atoi(strings.TrimSpace(string(rcText)))
		}
		switch {
		case status != c.Status:
			fmt.Printf("FAIL %s:%d: $ %s\n     exit status %d, want %d; output:\n%s\n", sheet, c.Line, c.Cmd, status, c.Status, indent(string(got)))
			failed++
		case !docmap.MatchOutput(c.Want, string(got)):
			fmt.Printf("FAIL %s:%d: $ %s\n     output:\n%s     want:\n%s\n", sheet, c.Line, c.Cmd, indent(string(got)), indent(strings.Join(c.Want, "\n")))
			failed++
		default:
			fmt.Printf("ok   %s:%d: $ %s\n", sheet, c.Line, c.Cmd)
			passed++
		}
	}
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	return failed, nil
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "       (nothing)\n"
	}
	return "       " + strings.ReplaceAll(s, "\n", "\n       ") + "\n"
}
