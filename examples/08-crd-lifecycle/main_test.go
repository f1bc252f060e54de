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
		"2. created crontabs.stable.example.com: 0 condition(s)",
		`3. naming controller: NamesAccepted=True (NoConflicts), accepted plural "crontabs", short names [ct]`,
		"4. establishing controller: Established=True (InitialNamesAccepted)",
		"5. served: created 2 CronTabs, listed 2; discovery /apis/stable.example.com/v1: [crontabs]",
		`6. created ct.stable.example.com: NamesAccepted=False (PluralConflict: "ct" is already in use), Established=False (NotAccepted: not all names are accepted)`,
		"7. GET /apis/stable.example.com/v1/namespaces/default/ct: 404 NotFound",
		"8. deleted crontabs.stable.example.com (CronTab held has a finalizer): Terminating=True (InstanceDeletionPending), then Terminating=True (InstanceDeletionInProgress); finalizers [customresourcecleanup.apiextensions.k8s.io]",
		"9. while Terminating: create → 403 Forbidden: crontabs.stable.example.com \"late\" is forbidden: create not allowed while custom resource definition is terminating; the finalizer deleted the others, list → [held]",
		"10. released held: the watch shows DELETED; GET the CRD → 404 NotFound",
		"GET its CronTabs → 404 NotFound",
		"11. ct.stable.example.com takes the freed name: NamesAccepted=True (NoConflicts), Established=True (InitialNamesAccepted); discovery: [ct]",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q\n%s", line, out.String())
		}
	}
}
