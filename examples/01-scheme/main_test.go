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
		`2. apiextensions.k8s.io serves versions [v1 v1beta1] (preferred first), plus the hub "__internal"`,
		`3. apps serves versions [v1 v1beta1] (preferred first), plus the hub "__internal"`,
		"5. decoded apiextensions.k8s.io/v1beta1, Kind=CustomResourceDefinition into *v1beta1.CustomResourceDefinition",
		"6. v1beta1 defaults filled: scope=Namespaced singular=crontab listKind=CronTabList preserveUnknownFields=true conversion=None",
		"7. versions defaulted from version: v1 served=true storage=true; storedVersions=[v1]",
		"8. converted to the hub (*apiextensions.CustomResourceDefinition) for validation: 1 error(s):",
		"   - spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
		"9. with preserveUnknownFields=false, as v1 requires: 0 errors",
		"10. a broken copy has 2 errors:",
		`   - metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group`,
		"   - spec.validation.openAPIV3Schema.properties[spec].properties[cronSpec].type: Required value: must not be empty for specified object fields",
	} {
		if !strings.Contains(out.String(), line+"\n") {
			t.Errorf("output lacks %q\n%s", line, out.String())
		}
	}
}
