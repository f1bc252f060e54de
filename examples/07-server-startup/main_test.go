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
		"1. Config: listen 127.0.0.1:0, --runtime-config=apiextensions.k8s.io/v1beta1=true",
		"2. Complete: default resource config serves [apiextensions.k8s.io/v1]; with the runtime config: [apiextensions.k8s.io/v1 apiextensions.k8s.io/v1beta1 authentication.k8s.io/v1 authorization.k8s.io/v1 coordination.k8s.io/v1 events.k8s.io/v1 v1]",
		"5. Run: /readyz is 500 while a post-start hook has not finished: [-]poststarthook/example-hook failed: reason withheld",
		"6. the hook returned: /readyz is 200 ok",
		"7. InstallAPIGroup: /apis/apiextensions.k8s.io offers [v1 v1beta1] (preferred v1); v1 has [customresourcedefinitions customresourcedefinitions/status]",
		"   GET /api/v1/namespaces                                       → 200 served by kube-apiserver",
		"   GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions  → 200 delegated, served by apiextensions-apiserver",
		"   GET /apis/stable.example.com/v1/crontabs                     → 404 delegated twice, and the end of the chain: NotFound",
		"9. ctx cancelled: Run returned nil; the port is closed (true)",
	} {
		if !strings.Contains(out.String(), line+"\n") {
			t.Errorf("output lacks %q\n%s", line, out.String())
		}
	}
}
