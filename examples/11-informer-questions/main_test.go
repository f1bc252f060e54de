package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// wantLines are lines the output must hold exactly; docs/questions.md
// quotes them.
var wantLines = []string{
	// Q1: every kind of change, from a scripted source.
	`1. reflector: LIST resourceVersion="0", WATCH resourceVersion="10" → Replace → deltas Replaced(a), Replaced(b); not in the cache → OnAdd(a rv=8, initialList=true), OnAdd(b rv=9, initialList=true)`,
	"2. watch event MODIFIED a → delta Updated(a); a is cached → OnUpdate(a rv=8 → rv=11)",
	"3. watch event DELETED b → delta Deleted(b) → OnDelete(b rv=12)",
	"4. watch event ADDED c → delta Added(c); c is not cached → OnAdd(c rv=13, initialList=false)",
	`5. watch event ERROR 410 Expired → reflector: LIST resourceVersion="13", WATCH resourceVersion="16"`,
	"   → Replace: Replaced(a) (cached) → OnUpdate(a rv=11 → rv=14)",
	"   → Replaced(d) (not cached) → OnAdd(d rv=15, initialList=false)",
	"   → c is cached but not in the list: a tombstone → OnDelete(DeletedFinalStateUnknown{Key: default/c})",
	"6. a new informer, whose list holds a at rv=8, resyncs every 50ms → delta Sync(a) → OnUpdate(a rv=8 → rv=8): the same resourceVersion, nothing changed",
	// Q2: one handler, two resource types.
	"7. one handler registered on 2 informers (synced: true, true) → [OnAdd CustomResourceDefinition crontabs.stable.example.com]",
	"8. create a CronTab → the same handler: [OnAdd CronTab default/nightly]",
	"9. update the CRD → the same handler: [OnUpdate CustomResourceDefinition crontabs.stable.example.com]",
	// Q3: a list, a watch, and the status change down the watch.
	"10. the reflector's requests: a list, then a watch from the list's resourceVersion:",
	"   GET /apis/stable.example.com/v1/namespaces/default/crontabs?resourceVersion=0",
	"   requests the reflector sent for it: 0 (the change came down the watch it already had open)",
	// Q3, side by side: watch-list, client-go's default.
	"12. the same with watch-list (client-go's default since v1.35): one request, a watch whose first events are the current objects:",
	"   GET /apis/stable.example.com/v1/namespaces/default/crontabs?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&watch=true",
	"   → ADDED nightly, then a BOOKMARK marked k8s.io/initial-events-end → OnAdd(nightly, initialList=true); synced without a list",
}

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, t.TempDir()); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, line := range wantLines {
		if !strings.Contains(out.String(), line+"\n") {
			t.Errorf("output lacks %q\n%s", line, out.String())
		}
	}
	for _, re := range []string{
		`(?m)^   GET /apis/stable\.example\.com/v1/namespaces/default/crontabs\?allowWatchBookmarks=true&resourceVersion=\d+&watch=true$`,
		`(?m)^11\. PUT …/crontabs/nightly/status elsewhere → a MODIFIED event on the open watch → OnUpdate: status\.phase "" → "Scheduled", resourceVersion (\d+) → (\d+), generation 1 → 1$`,
	} {
		if !regexp.MustCompile(re).MatchString(out.String()) {
			t.Errorf("output does not match %s\n%s", re, out.String())
		}
	}
}

// TestDocsQuoteTheOutput keeps docs/questions.md honest: the trace it
// quotes is the one TestRun checks.
func TestDocsQuoteTheOutput(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "questions.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range wantLines {
		if !strings.Contains(string(doc), line+"\n") {
			t.Errorf("docs/questions.md does not quote %q", line)
		}
	}
}
