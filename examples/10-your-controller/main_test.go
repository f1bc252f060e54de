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
		"1. started crdlab in-process, installed the CronTab CRD (with a status subresource), created CronTab early",
		"2. controller started (informer + 2 workers): early, from the first list, now has phase=Scheduled observedGeneration=1 (generation 1)",
		"3. created nightly: the ADD event queued default/nightly; sync wrote phase=Scheduled observedGeneration=1 (generation 1)",
		"4. suspended nightly (spec.suspend=true): sync wrote phase=Suspended observedGeneration=2 (generation 2)",
		"5. created flaky: sync failed 2 times, retried with backoff (AddRateLimited), then wrote phase=Scheduled observedGeneration=1 (generation 1); after Forget: requeues=0",
		"6. deleted early: the DELETE event queued default/early, sync found it gone from the cache; 2 CronTabs cached",
		"7. stopped: workers returned, queue shut down=true",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q\n%s", line, out.String())
		}
	}
}
