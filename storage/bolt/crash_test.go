package bolt_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// The crash test runs the test binary again as a child process (the
// environment variables below switch TestDB_CrashChild on), which writes
// with 16 goroutines and prints one line per acknowledged write; the
// parent kills it with SIGKILL at a random moment, reopens the file and
// checks every acknowledged write.
const (
	crashPathEnv  = "CRDLAB_STORAGE_CRASH_PATH"
	crashRoundEnv = "CRDLAB_STORAGE_CRASH_ROUND"
	// crashDefragEnv, if set, has the child defragment the file again and
	// again while it writes, so that kills land in every step of it.
	crashDefragEnv = "CRDLAB_STORAGE_CRASH_DEFRAG"
	crashWriters   = 16
)

// checksum is stored beside each value, so that a half-written object
// cannot pass for a whole one.
func checksum(key, value string) string {
	sum := sha256.Sum256([]byte(key + "=" + value))
	return hex.EncodeToString(sum[:8])
}

// TestDB_CrashChild is the child process of TestDB_Crash; it is skipped
// in a normal run.
func TestDB_CrashChild(t *testing.T) {
	path := os.Getenv(crashPathEnv)
	if path == "" {
		t.Skip("only runs as the child process of TestDB_Crash")
	}
	round := os.Getenv(crashRoundEnv)
	db, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		fmt.Println("OPEN-ERROR", err)
		os.Exit(3)
	}
	st := db.ForResource(storagetest.ResourceConfig())
	ctx := context.Background()
	var mu sync.Mutex
	ack := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		mu.Lock()
		defer mu.Unlock()
		if _, err := io.WriteString(os.Stdout, line); err != nil {
			os.Exit(4)
		}
	}
	if os.Getenv(crashDefragEnv) != "" {
		go func() {
			for {
				if err := db.Defragment(ctx); err != nil {
					fmt.Fprintln(os.Stderr, "defragment:", err)
					os.Exit(6)
				}
				ack("DEFRAGMENTED\n")
			}
		}()
	}
	for g := range crashWriters {
		go func() {
			for i := 0; ; i++ {
				name := fmt.Sprintf("g%02d-k%d", g, i%4)
				key := storagetest.Key("default", name)
				out := &unstructured.Unstructured{}
				if i%5 == 4 {
					err := st.Delete(ctx, key, out, nil, nil)
					switch {
					case err == nil:
						ack("DEL %s %s\n", key, out.GetResourceVersion())
					case !errors.Is(err, storage.ErrNotFound):
						fmt.Fprintln(os.Stderr, "delete:", err)
						os.Exit(5)
					}
					continue
				}
				value := fmt.Sprintf("r%s-g%d-i%d", round, g, i)
				err := st.GuaranteedUpdate(ctx, key, out, true, nil, func(storage.Object) (storage.Object, error) {
					u := storagetest.CronTab("default", name, nil, value)
					u.Object["spec"].(map[string]any)["check"] = checksum(key, value)
					return u, nil
				})
				if err != nil {
					fmt.Fprintln(os.Stderr, "update:", err)
					os.Exit(5)
				}
				ack("PUT %s %s %s\n", key, out.GetResourceVersion(), value)
			}
		}()
	}
	select {}
}

// ackLine is one acknowledged write read from the child.
type ackLine struct {
	op, key, value string
	rev            int64
}

// TestDB_Crash kills a writing process at random moments, at least 20
// times, and checks after each restart that every acknowledged write is
// there with its revision, that revisions only grow, and that nothing
// half-written appears. In every other round the child also defragments
// the file without pause, so kills land during defragmentations too.
func TestDB_Crash(t *testing.T) {
	if testing.Short() {
		t.Skip("kills 20 child processes")
	}
	rounds := 20
	path := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	var acked []ackLine
	defrags := 0
	for round := range rounds {
		lines, defragmented, stderr := runAndKill(t, path, round, rng)
		defrags += defragmented
		require.NotEmpty(t, lines, "round %d: no acknowledged write; child stderr: %s", round, stderr)
		acked = append(acked, lines...)
		verifyAfterCrash(t, path, acked)
	}
	require.Positive(t, defrags, "no defragmentation finished in any round")
	t.Logf("%d rounds, %d acknowledged writes checked after every restart; %d defragmentations finished", rounds, len(acked), defrags)
}

// runAndKill runs the child until it has acknowledged a random number of
// writes, waits a random moment more, kills it with SIGKILL and returns
// the complete lines it printed.
func runAndKill(t *testing.T, path string, round int, rng *rand.Rand) (lines []ackLine, defragmented int, stderrText string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestDB_CrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashPathEnv+"="+path, crashRoundEnv+"="+strconv.Itoa(round))
	if round%2 == 1 {
		cmd.Env = append(cmd.Env, crashDefragEnv+"=1")
	}
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())

	killAfter := 1 + rng.IntN(600)
	extra := time.Duration(rng.IntN(20_000)) * time.Microsecond
	r := bufio.NewReader(stdout)
	killed := false
	deadline := time.AfterFunc(30*time.Second, func() { _ = cmd.Process.Kill() })
	defer deadline.Stop()
	for {
		s, err := r.ReadString('\n')
		if err != nil {
			break // EOF after the kill; a partial last line is not an ack
		}
		f := strings.Fields(s)
		if s == "DEFRAGMENTED\n" {
			defragmented++
			continue
		}
		if len(f) < 3 || (f[0] != "PUT" && f[0] != "DEL") {
			continue // test framework output
		}
		rev, err := strconv.ParseInt(f[2], 10, 64)
		require.NoError(t, err, "line %q", s)
		l := ackLine{op: f[0], key: f[1], rev: rev}
		if l.op == "PUT" {
			l.value = f[3]
		}
		lines = append(lines, l)
		if !killed && len(lines) >= killAfter {
			killed = true
			time.AfterFunc(extra, func() { _ = cmd.Process.Signal(syscall.SIGKILL) })
		}
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "round %d: the child ended with %v; stderr: %s", round, err, stderr.String())
	return lines, defragmented, stderr.String()
}

// verifyAfterCrash reopens the file and checks every acknowledged write.
func verifyAfterCrash(t *testing.T, path string, acked []ackLine) {
	t.Helper()
	db, err := bolt.Open(path, bolt.Options{Strict: true}) // Strict: Check at Open
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	st := db.ForResource(storagetest.ResourceConfig())
	ctx := context.Background()
	cur, err := db.CurrentRevision(ctx)
	require.NoError(t, err)

	lastByKey := map[string]int64{}
	seen := map[int64]bool{}
	for _, a := range acked {
		require.LessOrEqual(t, a.rev, cur, "an acknowledged revision is missing: %+v", a)
		require.False(t, seen[a.rev], "revision %d acknowledged twice", a.rev)
		seen[a.rev] = true
		require.Greater(t, a.rev, lastByKey[a.key], "revisions of %s must grow", a.key)
		lastByKey[a.key] = a.rev

		res, err := st.GetList(ctx, a.key, storage.ListOptions{
			ResourceVersion: strconv.FormatInt(a.rev, 10), ResourceVersionMatch: metav1.ResourceVersionMatchExact})
		require.NoError(t, err)
		if a.op == "DEL" {
			require.Empty(t, res.Items, "deleted at %d: %+v", a.rev, a)
			continue
		}
		require.Len(t, res.Items, 1, "written at %d: %+v", a.rev, a)
		u := res.Items[0].(*unstructured.Unstructured)
		require.Equal(t, strconv.FormatInt(a.rev, 10), u.GetResourceVersion())
		v, _, _ := unstructured.NestedString(u.Object, "spec", "cronSpec")
		require.Equal(t, a.value, v)
	}

	// Nothing half-written: every object now is whole.
	res, err := st.GetList(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true})
	require.NoError(t, err)
	for _, o := range res.Items {
		u := o.(*unstructured.Unstructured)
		v, _, _ := unstructured.NestedString(u.Object, "spec", "cronSpec")
		c, _, _ := unstructured.NestedString(u.Object, "spec", "check")
		require.Equal(t, checksum(storagetest.Key(u.GetNamespace(), u.GetName()), v), c)
	}

	// New writes go on after every revision handed out before.
	out := &unstructured.Unstructured{}
	require.NoError(t, st.GuaranteedUpdate(ctx, storagetest.Key("default", "after-restart"), out, true, nil,
		func(storage.Object) (storage.Object, error) {
			value := strconv.FormatInt(cur, 10)
			u := storagetest.CronTab("default", "after-restart", nil, value)
			u.Object["spec"].(map[string]any)["check"] = checksum(storagetest.Key("default", "after-restart"), value)
			return u, nil
		}))
	require.Equal(t, strconv.FormatInt(cur+1, 10), out.GetResourceVersion())
}
