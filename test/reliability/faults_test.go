package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/crdlab/crdlab/apiserver"
)

// TestFaults_DiskFull runs the server with a file size limit, so that
// its data file cannot grow past 24 MiB, and writes 1 MiB objects until a
// commit fails. The failed write must be a 500 InternalError Status;
// from then on the store refuses writes (500) but still serves reads, and
// /livez and /readyz report the failure so a supervisor restarts the
// process. After a restart with room to grow, Check passes, every
// acknowledged object is there with its resourceVersion, the failed one
// is not, and writes work again.
func TestFaults_DiskFull(t *testing.T) {
	dataDir := t.TempDir()
	s := startServer(t, dataDir, serverOptions{fileSizeLimit: 24 << 20})
	setupCRD(s)
	ctx := context.Background()
	big := strings.Repeat("x", 1<<20)
	body := func(name, image string) string {
		return fmt.Sprintf(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":%q},"spec":{"cronSpec":"*","image":%q}}`, name, image)
	}
	acked := map[string]int64{}
	var failed string
	var failure []byte
	for i := 0; i < 64 && failed == ""; i++ {
		name := fmt.Sprintf("big-%02d", i)
		code, b, err := s.do(ctx, "POST", crontabsPath, body(name, big))
		switch {
		case err != nil:
			t.Fatalf("POST %s: %v", name, err)
		case code == 201:
			o, _ := parseObject(b)
			acked[name] = rvOf(o)
		case code == 500:
			failed, failure = name, b
		default:
			t.Fatalf("POST %s: %d %s", name, code, abbreviate(string(b)))
		}
	}
	if failed == "" {
		t.Fatal("64 MiB written under a 24 MiB file size limit, and no write failed")
	}
	wantInternalError := func(what string, b []byte) {
		t.Helper()
		var st struct{ Kind, Reason, Message string }
		if err := json.Unmarshal(b, &st); err != nil || st.Kind != "Status" || st.Reason != "InternalError" {
			t.Errorf("%s: %s, want a 500 InternalError Status", what, abbreviate(string(b)))
		}
	}
	wantInternalError("the write that hit the limit", failure)
	// The store now refuses writes, small ones too, and still reads.
	code, b, err := s.do(ctx, "POST", crontabsPath, body("small", "x"))
	if err != nil || code != 500 {
		t.Errorf("a write after the failure: %d %v %s, want 500", code, err, b)
	}
	wantInternalError("a write after the failure", b)
	for name := range acked {
		s.must(200, "GET", crontabsPath+"/"+name, "")
		break
	}
	for _, p := range []string{"/livez", "/readyz"} {
		if code, b, _ := s.do(ctx, "GET", p, ""); code != 500 || !strings.Contains(string(b), "[-]storage failed") {
			t.Errorf("%s after a failed commit: %d %s, want 500 naming the storage check", p, code, b)
		}
	}
	s.stop()
	checkStore(t, dataDir)

	// Room again: everything acknowledged is there, as acknowledged.
	s = startServer(t, dataDir, serverOptions{})
	waitServed(s)
	for name, rv := range acked {
		o, err := parseObject(s.must(200, "GET", crontabsPath+"/"+name, ""))
		if err != nil || rvOf(o) != rv {
			t.Errorf("%s: resourceVersion %d, acknowledged as %d (%v)", name, rvOf(o), rv, err)
		}
	}
	for _, name := range []string{failed, "small"} {
		if code, _, _ := s.do(ctx, "GET", crontabsPath+"/"+name, ""); code != 404 {
			t.Errorf("%s, whose write failed, answers %d, want 404", name, code)
		}
	}
	s.must(201, "POST", crontabsPath, body("after", "x"))
	s.stop()
	checkStore(t, dataDir)
	t.Logf("disk full at write %d (%d × 1 MiB acknowledged): 500 InternalError, writes refused, reads served, /livez and /readyz failing; after a restart: Check passed, all %d acknowledged writes kept with their resourceVersions, the failed ones absent",
		len(acked)+1, len(acked), len(acked))
}

// TestFaults_BadDataFile: a data file that is not crdlab's, or is damaged,
// or is in use, stops crdlab serve at start with a message that says so —
// and the file is left exactly as it was.
func TestFaults_BadDataFile(t *testing.T) {
	// A real data file to damage: one object to find again, and enough
	// others that the history bucket has branch and leaf pages.
	good := t.TempDir()
	s := startServer(t, good, serverOptions{})
	setupCRD(s)
	s.must(201, "POST", crontabsPath, cronTab("default", "needle-object", "w", 1))
	for i := range 40 {
		s.must(201, "POST", crontabsPath, cronTab("default", fmt.Sprintf("filler-%02d-%s", i, strings.Repeat("f", 200)), "w", i))
	}
	s.stop()
	goodBytes, err := os.ReadFile(filepath.Join(good, apiserver.DataFileName))
	if err != nil {
		t.Fatal(err)
	}
	pageSize, pages := pagesInUse(t, filepath.Join(good, apiserver.DataFileName))
	page := func(b []byte, id int) []byte { return b[id*pageSize : (id+1)*pageSize] }

	type badFile struct {
		name  string
		write func(t *testing.T, path string)
		want  []string
	}
	cases := []badFile{
		{"Garbage", func(t *testing.T, path string) {
			b := make([]byte, 64<<10)
			for i := range b {
				b[i] = byte(i * 7)
			}
			mustWrite(t, path, b)
		}, []string{"not a crdlab data file", "will not overwrite it"}},
		{"ForeignBolt", func(t *testing.T, path string) {
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("somebody-else")); return err }); err != nil {
				t.Fatal(err)
			}
			db.Close()
		}, []string{"not a crdlab data file", "will not overwrite it"}},
		{"DamagedRecord", func(t *testing.T, path string) {
			b := append([]byte(nil), goodBytes...)
			i := bytes.Index(b, []byte("needle-object"))
			if i < 0 {
				t.Fatal("no record to damage")
			}
			b[i] ^= 0x20 // "Needle-object": the record's checksum no longer matches
			mustWrite(t, path, b)
		}, []string{"corrupt", "will not overwrite it"}},
		{"Empty", func(t *testing.T, path string) {
			// `: > crdlab.db`: bbolt would start a new store at revision 0.
			mustWrite(t, path, nil)
		}, []string{"corrupt", "empty", "will not overwrite it"}},
		{"TruncatedTo8KiB", func(t *testing.T, path string) {
			mustWrite(t, path, goodBytes[:8<<10])
		}, []string{"corrupt", "truncated", "will not overwrite it"}},
	}
	// Every page in use, zeroed, and with a bit of its header (for a meta
	// page: of its meta) flipped.
	for id, typ := range pages {
		flip := 8 // the page's type
		if typ == "meta" {
			flip = 16 + 48 // the meta's transaction id
		}
		cases = append(cases,
			badFile{fmt.Sprintf("ZeroedPage%d(%s)", id, typ), func(t *testing.T, path string) {
				b := bytes.Clone(goodBytes)
				clear(page(b, id))
				mustWrite(t, path, b)
			}, []string{"corrupt", "will not overwrite it"}},
			badFile{fmt.Sprintf("FlippedPage%d(%s)", id, typ), func(t *testing.T, path string) {
				b := bytes.Clone(goodBytes)
				page(b, id)[flip] ^= 0x02
				mustWrite(t, path, b)
			}, []string{"corrupt", "will not overwrite it"}})
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, apiserver.DataFileName)
			tt.write(t, path)
			before, _ := os.ReadFile(path)
			out, code := runServeOnce(t, dir)
			if code != 1 {
				t.Errorf("exit %d, want 1\n%s", code, out)
			}
			for _, w := range append(tt.want, path) {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if lines := strings.Count(strings.TrimSpace(out), "\n") + 1; lines != 1 {
				t.Errorf("%d lines of output, want one:\n%s", lines, out)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Error("the data file was changed")
			}
		})
	}
	t.Run("Locked", func(t *testing.T) {
		s := startServer(t, good, serverOptions{})
		out, code := runServeOnce(t, good)
		if code != 1 || !strings.Contains(out, "locked by another process") || !strings.Contains(out, "same --data-dir") {
			t.Errorf("exit %d:\n%s", code, out)
		}
		s.stop()
	})
}

// pagesInUse returns the page size of the bbolt file at path and the type
// of each page in use (meta, branch, leaf), by id.
func pagesInUse(t *testing.T, path string) (int, map[int]string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, PreLoadFreelist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pages := map[int]string{}
	err = db.View(func(tx *bolt.Tx) error {
		for id := 0; ; id++ {
			p, err := tx.Page(id)
			if err != nil || p == nil {
				return err
			}
			if p.Type != "free" {
				pages[id] = p.Type
				id += p.OverflowCount
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, typ := range pages {
		kinds[typ]++
	}
	if kinds["branch"] == 0 || kinds["leaf"] < 2 {
		t.Fatalf("the data file has too few pages to damage: %v", kinds)
	}
	return db.Info().PageSize, pages
}

// runServeOnce runs crdlab serve on dir, expecting it to exit by itself,
// and returns its output and exit code.
func runServeOnce(t *testing.T, dir string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, crdlabBinary, "serve", "--listen", "127.0.0.1:0", "--data-dir", dir).CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		t.Fatalf("crdlab serve: %v\n%s", err, out)
	}
	return string(out), 0
}

func mustWrite(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
