package reliability

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apiserver"
	"github.com/crdlab/crdlab/storage/bolt"
	"path/filepath"
)

// event is one watch event, as the tests compare them.
type event struct {
	Type string
	Name string // namespace/name
	RV   int64
	// Counter and Writer are the object's spec.counter and spec.writer.
	Counter int
	Writer  string
}

func (e event) String() string {
	return fmt.Sprintf("%s %s@%d(%s=%d)", e.Type, e.Name, e.RV, e.Writer, e.Counter)
}

// watchStream opens a watch of path (a list path with its query) from
// resourceVersion rv and calls fn for each event until fn returns false,
// the stream ends or ctx is done. An ERROR event is returned as an error.
func watchStream(ctx context.Context, s *server, path, rv string, fn func(event) bool) error {
	sep := "?"
	if containsQuery(path) {
		sep = "&"
	}
	req, err := http.NewRequestWithContext(ctx, "GET", s.url+path+sep+"watch=1&resourceVersion="+rv, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("watch: %s", resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	sc.Split(watchLines)
	for sc.Scan() {
		var raw struct {
			Type   string
			Object json.RawMessage
		}
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			return fmt.Errorf("watch event %q: %w", sc.Text(), err)
		}
		if raw.Type == "ERROR" {
			return fmt.Errorf("watch ERROR event: %s", raw.Object)
		}
		if raw.Type == "BOOKMARK" {
			continue
		}
		o, err := parseObject(raw.Object)
		if err != nil {
			return err
		}
		if !fn(event{Type: raw.Type, Name: o.Metadata.Namespace + "/" + o.Metadata.Name, RV: rvOf(o), Counter: o.Spec.Counter, Writer: o.Spec.Writer}) {
			return nil
		}
	}
	return sc.Err()
}

// watchLines splits a watch stream into its lines, as bufio.ScanLines
// does, except for a last line without its newline: that is an event the
// server was writing when it died (SIGKILL can cut a line anywhere), so it
// is io.ErrUnexpectedEOF — a disconnect, as client-go's decoder sees it —
// and not an event. (ScanLines returns it as a line, which then fails to
// parse.)
func watchLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, bytes.TrimSuffix(data[:i], []byte("\r")), nil
	}
	if atEOF && len(data) > 0 {
		return 0, nil, io.ErrUnexpectedEOF
	}
	return 0, nil, nil
}

func containsQuery(p string) bool {
	for i := 0; i < len(p); i++ {
		if p[i] == '?' {
			return true
		}
	}
	return false
}

// history returns every event of the crontabs (all namespaces) after
// resourceVersion from, up to now: it creates a sentinel object and
// watches until its event arrives (the sentinel's event is not returned).
func history(t *testing.T, s *server, from int64, sentinel string) []event {
	t.Helper()
	s.createNamespaces("sentinel")
	b := s.must(201, "POST", "/apis/stable.example.com/v1/namespaces/sentinel/crontabs", cronTab("sentinel", sentinel, "sentinel", 0))
	o, err := parseObject(b)
	if err != nil {
		t.Fatal(err)
	}
	end := rvOf(o)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var events []event
	err = watchStream(ctx, s, allCrontabs, strconv.FormatInt(from, 10), func(e event) bool {
		if e.RV >= end {
			return false
		}
		events = append(events, e)
		return true
	})
	if err != nil {
		t.Fatalf("replaying the history from %d: %v", from, err)
	}
	if ctx.Err() != nil {
		t.Fatalf("replaying the history from %d: no sentinel event (rv %d) within a minute", from, end)
	}
	return events
}

// checkStore opens the data file (no server may have it open), runs
// Check and closes it.
func checkStore(t *testing.T, dataDir string) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dataDir, apiserver.DataFileName), bolt.Options{LockTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("bolt.Open after the server: %v", err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Fatalf("Check: %v", err)
	}
}

// TestWatchLines_TornLastLineIsADisconnect checks the reader the crash
// tests use: whole lines are events, a last line cut by a SIGKILL is a
// disconnect, not an event that fails to parse.
func TestWatchLines_TornLastLineIsADisconnect(t *testing.T) {
	sc := bufio.NewScanner(strings.NewReader("{\"type\":\"ADDED\"}\n{\"type\":\"MODIFIED\"}\r\n{\"type\":\"MODI"))
	sc.Split(watchLines)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if want := []string{`{"type":"ADDED"}`, `{"type":"MODIFIED"}`}; !slices.Equal(lines, want) {
		t.Errorf("lines %q, want %q", lines, want)
	}
	if err := sc.Err(); !errors.Is(err, io.ErrUnexpectedEOF) || !isDisconnect(err) {
		t.Errorf("err = %v, want io.ErrUnexpectedEOF, a disconnect", err)
	}
	sc = bufio.NewScanner(strings.NewReader("{\"type\":\"ADDED\"}\n"))
	sc.Split(watchLines)
	for sc.Scan() {
	}
	if err := sc.Err(); err != nil {
		t.Errorf("a stream that ends after a whole line: err = %v, want nil", err)
	}
}
