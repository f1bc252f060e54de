package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"1. Add(default/a) three times: Len=1 (a key waits in the queue once)",
		"2. Get(default/a), Add(default/a) while processing: Len=0; after Done: Len=1 (handled again)",
		"3. AddAfter(default/b, 2s): Len=0; after 2s on the fake clock: Len=1",
		"4. sync(default/c) fails 3 times: retried after [5ms 10ms 20ms] (NumRequeues=3); success, Forget: NumRequeues=0",
		"5. 2 workers, 6 keys added twice each: synced [n/1 n/2 n/3 n/4 n/5 n/6], one key on two workers at once: false",
		"6. ShutDownWithDrain: workers exited, Len=0",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q\n%s", line, out.String())
		}
	}
}
