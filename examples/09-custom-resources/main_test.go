package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, t.TempDir()); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, line := range []string{
		`2. POST v1 nightly {cronSpec, extra} → 201, spec {cronSpec=0 3 * * * replicas=1}; Warning: 299 - "unknown field \"spec.extra\""`,
		"3. POST v2 hourly {cronSpec} → 201, spec {cronSpec=@hourly replicas=3}: v2's default",
		"4. GET v1 nightly → apiVersion stable.example.com/v1, spec {cronSpec=0 3 * * * replicas=1}",
		"5. GET v2 nightly → apiVersion stable.example.com/v2, spec {cronSpec=0 3 * * * replicas=1}",
		"6. POST v1 broken {cronSpec: 5, replicas: 20} → 422 Invalid",
		`     - spec.cronSpec: Invalid value: "integer": spec.cronSpec in body must be of type string: "integer"`,
		"     - spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10",
		"7. POST v2 empty {image} → 422 Invalid",
		"     - spec.cronSpec: Required value",
		"8. PUT v1 nightly with replicas 0 → 422 Invalid",
		"     - spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1",
		`9. POST v1 strict {cronSpec, extra} ?fieldValidation=Strict → 400 BadRequest: CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.extra"`,
	} {
		if !strings.Contains(out.String(), line+"\n") {
			t.Errorf("output lacks %q\n%s", line, out.String())
		}
	}
	// Defaults on read: the field appears, the resourceVersion does not move.
	re := regexp.MustCompile(`(?m)^10\. add spec\.suspend \(default false\) to v1's schema; GET v1 nightly → spec \{cronSpec=0 3 \* \* \* replicas=1 suspend=false\}, resourceVersion (\d+) → (\d+) \(no write\)$`)
	m := re.FindStringSubmatch(out.String())
	if m == nil || m[1] != m[2] {
		t.Errorf("step 10 missing, or the resourceVersion moved (%v)\n%s", m, out.String())
	}
}
