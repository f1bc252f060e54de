package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, t.TempDir()); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, line := range []string{
		"1. compiled in: core/v1 has [ConfigMap Event Namespace Secret]; a CronTab is in the scheme: false (a CRD adds it at run time, as Unstructured)",
		`2. Secret v1 → *core.Secret: data[password]="hunter2" type=Opaque (stringData merged, Opaque by default)`,
		`   → v1 again: {"kind":"Secret","apiVersion":"v1","metadata":{"name":"db","creationTimestamp":null},"data":{"password":"aHVudGVyMg=="},"type":"Opaque"}`,
		`3. Event events.k8s.io/v1 → *core.Event → v1: message="rotated" involvedObject=Secret/db reportingComponent="example.com/rotator"`,
		"   POST /api/v1/namespaces/default/secrets → 201\n       served by kube-apiserver",
		"   POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions → 201\n       kube-apiserver hands it to apiextensions-apiserver\n       served by apiextensions-apiserver",
		"   POST /apis/stable.example.com/v1/namespaces/default/crontabs → 201\n       kube-apiserver hands it to apiextensions-apiserver\n       served by apiextensions-apiserver",
		"GET /apis/apps/v1/namespaces/default/deployments → 404 NotFound: the server could not find the requested resource: not supported: the apps API group",
		"       apiextensions-apiserver hands it to the end of the chain (404)",
		`5. a CronTab in a namespace that does not exist → 404 NotFound: namespaces "nowhere" not found`,
		`6. written as v1 Event, read as events.k8s.io/v1: note="password rotated" regarding=db (one storage, /registry/events)`,
		"7. server stopped",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q\n%s", line, out.String())
		}
	}
}
