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
		"1. opened a new data file crdlab.db: revision 0, keys under /registry/stable.example.com/crontabs/",
		"2. created /registry/stable.example.com/crontabs/default/my-cron: resourceVersion 1",
		"3. created default/other: resourceVersion 2",
		"4. created my-cron again: AlreadyExists=true",
		`5. updated my-cron (the update function saw resourceVersion 1): resourceVersion 3, cronSpec "*/10 * * * *"`,
		"6. updated with the stale resourceVersion 1: Conflict=true",
		"7. a no-op update: still resourceVersion 3, revision 3",
		// The continue token is upstream's: {"v":"meta.k8s.io/v1","rv":3,"start":"default/my-cron\u0000"}.
		"8. list with limit 1: [default/my-cron] at revision 3, continue token eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6Mywic3RhcnQiOiJkZWZhdWx0L215LWNyb25cdTAwMDAifQ",
		"9. created default/third between the pages: resourceVersion 4",
		`10. next page: [default/other], still at revision 3, continue "": third is not in this list`,
		`11. list at exactly resourceVersion 1: [default/my-cron], my-cron's cronSpec was "* * * * */5"`,
		`12. deleted default/other at resourceVersion 5 (its last cronSpec "@daily")`,
		"13. compacted at revision 4; a list at 3 now answers Expired=true: too old resource version: 3 (4)",
		"14. reopened and checked: revision 5, objects [default/my-cron default/third]",
		"15. the next write gets resourceVersion 6",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q\n%s", line, out.String())
		}
	}
}
