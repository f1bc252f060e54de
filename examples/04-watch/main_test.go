package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"1. created a (app=web) and b (app=db): resourceVersions 1 and 2",
		`2. watch from "", then update a and delete b: ADDED a@1, ADDED b@2, MODIFIED a@3, DELETED b@4`,
		"3. watch-list: ADDED a@3, BOOKMARK @4 (initial events end)",
		"4. watch from resourceVersion 1 replays history: ADDED b@2, MODIFIED a@3, DELETED b@4",
		"5. watch app=web; create c (app=db), relabel c web, relabel a cache: ADDED a@3, ADDED c@6, DELETED a@7",
		"6. 100 watchers, one write: 100 × MODIFIED c@8, 1 decoded object shared by all",
		"7. 40 writes: the reading watcher got all 40; the stalled one got 16, then the end of its watch; watching again from 24 replays 24: MODIFIED c@25 … MODIFIED c@48",
		"8. an idle watcher of namespace quiet, after a write elsewhere: BOOKMARK @49",
		"9. compacted at 49; a watch from resourceVersion 1: Expired=true",
		"10. Stop closes a watch's channel: open=false",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q\n%s", line, out.String())
		}
	}
}
