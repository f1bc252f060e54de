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
		"1. started crdlab in-process (temp dir, free port) and installed the CronTab CRD: Established",
		"3. asked the factory for the crontabs informer twice: same informer=true; registered 2 handlers (audit, metrics)",
		"4. started: synced=true; audit saw [ADD a (initial list)], metrics saw [ADD a (initial list)]",
		"5. created b, updated a, deleted b: audit saw [ADD b, UPDATE a, DELETE b]",
		"6. metrics saw, on its own goroutine: [ADD b, UPDATE a, DELETE b]",
		`7. lister, from the cache: a has cronSpec "*/10 * * * *"; 1 crontab(s) cached; requests made for it: 0`,
		"8. the informer sent 1 list and 1 watch request(s) for both handlers and the lister",
		"9. factory shut down: informer stopped=true",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q\n%s", line, out.String())
		}
	}
}
