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
		"1. decode: apps/v1beta1, Kind=Deployment into *v1beta1.Deployment",
		"2. to the hub: *apps.Deployment replicas=3 revisionHistoryLimit=2 rollbackTo=2 selector=map[app:nginx]",
		`3. from the hub: *v1.Deployment (apiVersion apps/v1); rollbackTo has no v1 field, so it rides in annotation deprecated.deployment.rollback.to="2"`,
		"     revisionHistoryLimit: 2",
		"         maxUnavailable: 25%",
		"5. decode a v1beta1 CRD: top-level validation=true columns=1; per-version schemas=false",
		"6. v1 version v1: schema=true columns=1 (fanned out)",
		"7. v1 version v1beta1: schema=true columns=1 (fanned out)",
		"8. back in the hub: top-level validation=true columns=1; per-version schemas=false (folded, as every version agrees)",
	} {
		if !strings.Contains(out.String(), line+"\n") {
			t.Errorf("output lacks %q\n%s", line, out.String())
		}
	}
}
