package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// The CRD of testdata/crontab-crd.yaml.
const (
	crdName  = "crontabs.stable.example.com"
	crdGroup = "stable.example.com"
)

// TestKubectl drives one crdlab server with the real kubectl, as a user
// following the Kubernetes docs on CustomResourceDefinitions would: create
// the CRD, wait for it, discover and explain it, then work with custom
// resources through every everyday command. The subtests build on each
// other and run in order.
func TestKubectl(t *testing.T) {
	s := startServer(t)

	t.Run("Version", func(t *testing.T) {
		feature(t, "kubectl", "version (client and server)", "kubectl version -o json")
		var v struct {
			ClientVersion struct{ GitVersion string }               `json:"clientVersion"`
			ServerVersion struct{ GitVersion, Major, Minor string } `json:"serverVersion"`
		}
		if err := json.Unmarshal([]byte(s.kubectlOK(t, "version", "-o", "json")), &v); err != nil {
			t.Fatal(err)
		}
		if v.ClientVersion.GitVersion != "v1.37.2" || !strings.HasPrefix(v.ServerVersion.GitVersion, "v1.37.") || v.ServerVersion.Minor != "37" {
			t.Errorf("versions = %+v, want client v1.37.2 and a v1.37.x server", v)
		}
	})

	setup := t.Run("ApplyCRD", func(t *testing.T) {
		feature(t, "kubectl", "apply -f a CRD YAML", "kubectl apply -f crontab-crd.yaml")
		out := s.kubectlOK(t, "apply", "-f", "testdata/crontab-crd.yaml")
		wantContains(t, out, "customresourcedefinition.apiextensions.k8s.io/"+crdName+" created")
	}) && t.Run("WaitEstablished", func(t *testing.T) {
		feature(t, "kubectl", "wait for the CRD to be Established", "kubectl wait --for condition=Established crd/"+crdName)
		out := s.kubectlOK(t, "wait", "--for", "condition=Established", "crd/"+crdName, "--timeout=60s")
		wantContains(t, out, "customresourcedefinition.apiextensions.k8s.io/"+crdName+" condition met")
	})
	if !setup {
		t.Fatal("the CRD is not established; every other step needs it")
	}

	t.Run("GetRightAfterCRD", func(t *testing.T) {
		feature(t, "kubectl", "get the new resource at once (kubectl's stale discovery cache refreshes on a miss)", "kubectl get crontabs")
		// kubectl apply cached discovery before the CRD existed.
		r := s.kubectl(t, "get", "crontabs")
		if r.err != nil || !strings.Contains(r.stderr, "No resources found in default namespace.") {
			t.Errorf("kubectl get crontabs right after the CRD: %s", r)
		}
	})

	t.Run("GetCRD", func(t *testing.T) {
		feature(t, "kubectl", "list CRDs", "kubectl get crd")
		rows := tableOf(t, s.kubectlOK(t, "get", "crd"))
		wantHeader(t, rows, "NAME", "CREATED AT")
		wantRow(t, rows, crdName)
	})

	t.Run("ApplyCRDAgain", func(t *testing.T) {
		feature(t, "kubectl", "apply the CRD again after editing it", "kubectl apply -f crontab-crd.yaml (edited)")
		b, err := os.ReadFile("testdata/crontab-crd.yaml")
		if err != nil {
			t.Fatal(err)
		}
		edited := strings.Replace(string(b), "  name: crontabs.stable.example.com\n", "  name: crontabs.stable.example.com\n  labels:\n    edited: \"yes\"\n", 1)
		edited = strings.Replace(edited, "description: The cron spec defining the interval a CronJob is run", "description: When it runs", 1)
		p := filepath.Join(t.TempDir(), "crontab-crd.yaml")
		if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		wantContains(t, s.kubectlOK(t, "apply", "-f", p), "customresourcedefinition.apiextensions.k8s.io/"+crdName+" configured")
		crd := s.getJSON(t, "crd", crdName)
		wantValue(t, crd, "yes", "metadata", "labels", "edited")
		wantValue(t, crd, "When it runs", "spec", "versions", "0", "additionalPrinterColumns", "0", "description")
		s.kubectlOK(t, "wait", "--for", "condition=Established", "crd/"+crdName, "--timeout=60s")
	})

	t.Run("APIResources", func(t *testing.T) {
		feature(t, "kubectl", "api-resources shows the new resource and its short names", "kubectl api-resources --api-group=stable.example.com")
		rows := tableOf(t, s.kubectlOK(t, "api-resources", "--api-group="+crdGroup))
		wantHeader(t, rows, "NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND")
		wantRow(t, rows, "crontabs", "ct", crdGroup+"/v1", "true", "CronTab")
	})

	t.Run("Explain", func(t *testing.T) {
		row := feature(t, "kubectl", "explain a field of the custom resource (OpenAPI v3)", "kubectl explain crontab.spec")
		row.notef("from /openapi/v3, for both served versions")
		out := s.kubectlOK(t, "explain", "crontab.spec")
		for _, want := range []string{"GROUP:      stable.example.com", "KIND:       CronTab", "VERSION:    v1",
			"FIELD: spec <Object>", "Spec is what the user wants.",
			"cronSpec\t<string>", "CronSpec is the schedule, in cron format.", "replicas\t<integer>"} {
			wantContains(t, out, want)
		}
		out = s.kubectlOK(t, "explain", "crontabs.spec.replicas", "--api-version="+crdGroup+"/v1beta1")
		wantContains(t, out, "VERSION:    v1beta1")
		wantContains(t, out, "Replicas is how many copies to run.")
		// The fields every kind has, as upstream adds them to a CRD's schema.
		out = s.kubectlOK(t, "explain", "crontab")
		for _, want := range []string{"apiVersion\t<string>", "kind\t<string>", "metadata\t<ObjectMeta>", "spec\t<Object>"} {
			wantContains(t, out, want)
		}
		out = s.kubectlOK(t, "explain", "crontab.metadata.labels")
		wantContains(t, out, "FIELD: labels <map[string]string>")
	})

	t.Run("ExplainCRD", func(t *testing.T) {
		row := feature(t, "kubectl", "explain the CustomResourceDefinition kind itself", "kubectl explain crd.spec; kubectl explain crd.spec.names")
		row.notef("schema read from the Go types, descriptions from their SwaggerDoc")
		out := s.kubectlOK(t, "explain", "crd.spec")
		for _, want := range []string{"GROUP:      apiextensions.k8s.io", "KIND:       CustomResourceDefinition", "VERSION:    v1",
			"FIELD: spec <CustomResourceDefinitionSpec>", "spec describes how the user wants the resources to appear",
			"group\t<string> -required-", "names\t<CustomResourceDefinitionNames> -required-",
			"scope\t<string> -required-", "versions\t<[]CustomResourceDefinitionVersion> -required-",
			"conversion\t<CustomResourceConversion>", "preserveUnknownFields\t<boolean>"} {
			wantContains(t, out, want)
		}
		out = s.kubectlOK(t, "explain", "crd.spec.names")
		for _, want := range []string{"FIELD: names <CustomResourceDefinitionNames>",
			"names specify the resource and kind names for the custom resource.",
			"plural\t<string> -required-", "plural is the plural name of the resource to serve.",
			"kind\t<string> -required-", "shortNames\t<[]string>", "categories\t<[]string>"} {
			wantContains(t, out, want)
		}
		// Down to a version's schema, which refers to itself.
		out = s.kubectlOK(t, "explain", "crd.spec.versions.schema.openAPIV3Schema.properties")
		wantContains(t, out, "x-kubernetes-preserve-unknown-fields\t<boolean>")
	})

	t.Run("ApplyCustomResource", func(t *testing.T) {
		feature(t, "kubectl", "apply -f a custom resource", "kubectl apply -f crontab.yaml")
		out := s.kubectlOK(t, "apply", "-f", "testdata/crontab.yaml")
		wantContains(t, out, "crontab.stable.example.com/my-crontab created")
		obj := s.getJSON(t, "crontab", "my-crontab")
		if got := lookup(obj, "metadata", "annotations", "kubectl.kubernetes.io/last-applied-configuration"); got == nil {
			t.Errorf("no last-applied-configuration annotation: %v", obj["metadata"])
		}
	})

	t.Run("ApplyAgain", func(t *testing.T) {
		feature(t, "kubectl", "apply again after editing the file (three-way merge patch)", "kubectl apply -f crontab-edited.yaml")
		// A change made by someone else, which the merge must keep.
		s.kubectlOK(t, "annotate", "crontab", "my-crontab", "example.com/owner=ops")
		out := s.kubectlOK(t, "apply", "-f", "testdata/crontab-edited.yaml")
		wantContains(t, out, "crontab.stable.example.com/my-crontab configured")
		obj := s.getJSON(t, "crontab", "my-crontab")
		wantValue(t, obj, "my-cron-image:2", "spec", "image")
		wantValue(t, obj, nil, "spec", "note") // removed from the file: deleted
		wantValue(t, obj, "ops", "metadata", "annotations", "example.com/owner")
		out = s.kubectlOK(t, "apply", "-f", "testdata/crontab-edited.yaml")
		wantContains(t, out, "crontab.stable.example.com/my-crontab unchanged")
	})

	t.Run("Diff", func(t *testing.T) {
		feature(t, "kubectl", "diff a changed file against the server (server-side dry run)", "kubectl diff -f crontab.yaml")
		r := s.kubectl(t, "diff", "-f", "testdata/crontab.yaml")
		// kubectl diff exits 1 when there is a difference.
		if exitCode(r.err) != 1 {
			t.Fatalf("kubectl diff: %v, want exit status 1 (a difference)\n%s", r.err, r.stderr)
		}
		wantContains(t, r.stdout, "-  image: my-cron-image:2")
		wantContains(t, r.stdout, "+  image: my-cron-image:1")
		// The dry run changed nothing.
		wantValue(t, s.getJSON(t, "crontab", "my-crontab"), "my-cron-image:2", "spec", "image")
	})

	// A second object, in another namespace, with another label.
	s.kubectlOK(t, "create", "namespace", "team-b")
	s.kubectlOK(t, "create", "-n", "team-b", "-f", "testdata/crontab.yaml")
	s.kubectlOK(t, "label", "-n", "team-b", "crontab", "my-crontab", "tier=backend")

	t.Run("Get", func(t *testing.T) {
		feature(t, "kubectl", "get (printer columns from additionalPrinterColumns)", "kubectl get crontabs")
		rows := tableOf(t, s.kubectlOK(t, "get", "crontabs"))
		wantHeader(t, rows, "NAME", "SPEC", "IMAGE", "REPLICAS", "AGE")
		wantRow(t, rows, "my-crontab", "* * * * */5", "my-cron-image:2", "2")
		if len(rows) != 2 {
			t.Errorf("got %d rows, want the header and one in namespace default", len(rows))
		}
	})

	t.Run("GetShortNameAndCategory", func(t *testing.T) {
		feature(t, "kubectl", "get by short name and by category", "kubectl get ct; kubectl get all")
		rows := tableOf(t, s.kubectlOK(t, "get", "ct"))
		wantRow(t, rows, "my-crontab")
		rows = tableOf(t, s.kubectlOK(t, "get", "all"))
		wantRow(t, rows, "my-crontab")
	})

	t.Run("GetYAML", func(t *testing.T) {
		feature(t, "kubectl", "get -o yaml", "kubectl get crontab my-crontab -o yaml")
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(s.kubectlOK(t, "get", "crontab", "my-crontab", "-o", "yaml")), &obj); err != nil {
			t.Fatal(err)
		}
		wantValue(t, obj, crdGroup+"/v1", "apiVersion")
		wantValue(t, obj, "CronTab", "kind")
		wantValue(t, obj, "default", "metadata", "namespace")
		for _, f := range []string{"uid", "resourceVersion", "creationTimestamp"} {
			if lookup(obj, "metadata", f) == nil {
				t.Errorf("metadata.%s missing", f)
			}
		}
	})

	t.Run("PatchStatus", func(t *testing.T) {
		feature(t, "kubectl", "patch the status subresource", `kubectl patch crontab my-crontab --subresource=status --type=merge -p '{"status":{"replicas":2}}'`)
		out := s.kubectlOK(t, "patch", "crontab", "my-crontab", "--subresource=status", "--type=merge", "-p", `{"status":{"replicas":2},"spec":{"image":"ignored"}}`)
		wantContains(t, out, "crontab.stable.example.com/my-crontab patched")
		obj := s.getJSON(t, "crontab", "my-crontab")
		wantValue(t, obj, float64(2), "status", "replicas")
		wantValue(t, obj, "my-cron-image:2", "spec", "image") // status writes leave the spec alone
	})

	t.Run("GetWide", func(t *testing.T) {
		feature(t, "kubectl", "get -o wide (priority > 0 columns)", "kubectl get crontabs -o wide")
		rows := tableOf(t, s.kubectlOK(t, "get", "crontabs", "-o", "wide"))
		wantHeader(t, rows, "NAME", "SPEC", "IMAGE", "REPLICAS", "READY", "AGE")
		wantRow(t, rows, "my-crontab", "* * * * */5", "my-cron-image:2", "2", "2")
	})

	t.Run("GetAllNamespaces", func(t *testing.T) {
		feature(t, "kubectl", "get -A", "kubectl get crontabs -A")
		rows := tableOf(t, s.kubectlOK(t, "get", "crontabs", "-A"))
		wantHeader(t, rows, "NAMESPACE", "NAME", "SPEC", "IMAGE", "REPLICAS", "AGE")
		wantRow(t, rows, "default", "my-crontab", "* * * * */5", "my-cron-image:2", "2")
		wantRow(t, rows, "team-b", "my-crontab", "* * * * */5", "my-cron-image:1", "2")
	})

	t.Run("GetLabelSelector", func(t *testing.T) {
		feature(t, "kubectl", "get -l (label selector)", "kubectl get crontabs -A -l tier=backend")
		rows := tableOf(t, s.kubectlOK(t, "get", "crontabs", "-A", "-l", "tier=backend"))
		wantRows(t, rows, []string{"team-b", "my-crontab"})
		rows = tableOf(t, s.kubectlOK(t, "get", "crontabs", "-A", "-l", "app in (cron),tier notin (backend)"))
		wantRows(t, rows, []string{"default", "my-crontab"})
	})

	t.Run("GetFieldSelector", func(t *testing.T) {
		feature(t, "kubectl", "get --field-selector", "kubectl get crontabs -A --field-selector metadata.namespace!=default")
		rows := tableOf(t, s.kubectlOK(t, "get", "crontabs", "-A", "--field-selector", "metadata.namespace!=default"))
		wantRows(t, rows, []string{"team-b", "my-crontab"})
		rows = tableOf(t, s.kubectlOK(t, "get", "crontabs", "-A", "--field-selector", "metadata.name=my-crontab"))
		wantRows(t, rows, []string{"default", "my-crontab"}, []string{"team-b", "my-crontab"})
		stderr := s.kubectlFails(t, "get", "crontabs", "--field-selector", "spec.image=x")
		wantContains(t, stderr, `field label not supported: spec.image`)
	})

	t.Run("GetWatch", func(t *testing.T) {
		feature(t, "kubectl", "get -w (watch output)", "kubectl get crontabs -w")
		w := s.startKubectl(t, "get", "crontabs", "-w")
		w.waitLine(t, "my-crontab", "my-cron-image:2")
		s.kubectlOK(t, "patch", "crontab", "my-crontab", "--type=merge", "-p", `{"spec":{"image":"my-cron-image:3"}}`)
		w.waitLine(t, "my-crontab", "my-cron-image:3")

		feature(t, "kubectl", "get -w --output-watch-events", "kubectl get crontabs -w --output-watch-events")
		e := s.startKubectl(t, "get", "crontabs", "-w", "--output-watch-events")
		e.waitLine(t, "ADDED", "my-crontab")
		s.kubectlOK(t, "create", "-f", writeManifest(t, "watched", "my-cron-image:1", nil))
		e.waitLine(t, "ADDED", "watched")
		s.kubectlOK(t, "delete", "crontab", "watched")
		e.waitLine(t, "DELETED", "watched")
	})

	t.Run("PatchMerge", func(t *testing.T) {
		feature(t, "kubectl", "patch --type=merge", `kubectl patch crontab my-crontab --type=merge -p '{"spec":{"replicas":3}}'`)
		out := s.kubectlOK(t, "patch", "crontab", "my-crontab", "--type=merge", "-p", `{"spec":{"replicas":3}}`)
		wantContains(t, out, "crontab.stable.example.com/my-crontab patched")
		wantValue(t, s.getJSON(t, "crontab", "my-crontab"), float64(3), "spec", "replicas")
	})

	t.Run("PatchJSON", func(t *testing.T) {
		row := feature(t, "kubectl", "patch --type=json", `kubectl patch crontab my-crontab --type=json -p '[{"op":"replace",...}]'`)
		row.notef("a failing test operation is 422: \"The request is invalid: testing value /spec/replicas failed\"")
		out := s.kubectlOK(t, "patch", "crontab", "my-crontab", "--type=json",
			"-p", `[{"op":"replace","path":"/spec/cronSpec","value":"*/10 * * * *"},{"op":"test","path":"/spec/replicas","value":3}]`)
		wantContains(t, out, "crontab.stable.example.com/my-crontab patched")
		wantValue(t, s.getJSON(t, "crontab", "my-crontab"), "*/10 * * * *", "spec", "cronSpec")
		// A failing test operation is refused, as upstream (422 Invalid).
		stderr := s.kubectlFails(t, "patch", "crontab", "my-crontab", "--type=json", "-p", `[{"op":"test","path":"/spec/replicas","value":9}]`)
		wantContains(t, stderr, "The request is invalid: testing value /spec/replicas failed")
	})

	t.Run("PatchStrategic", func(t *testing.T) {
		row := feature(t, "kubectl", "patch with the default (strategic merge) type", `kubectl patch crontab my-crontab -p '{"spec":{...}}'`)
		stderr := s.kubectlFails(t, "patch", "crontab", "my-crontab", "-p", `{"spec":{"replicas":4}}`)
		wantContains(t, stderr, "application/strategic-merge-patch+json is not supported by stable.example.com/v1, Kind=CronTab")
		wantContains(t, stderr, "accepted media types include: application/json-patch+json, application/merge-patch+json")
		row.notef("415 UnsupportedMediaType naming the accepted patch types, as upstream answers for custom resources")
	})

	t.Run("Edit", func(t *testing.T) {
		feature(t, "kubectl", "edit (EDITOR set to a script)", "EDITOR=edit.sh kubectl edit crontab my-crontab")
		editor := filepath.Join(t.TempDir(), "edit.sh")
		script := "#!/bin/sh\n# Stands in for a user's editor: kubectl passes the file to edit.\n" +
			`sed -i 's/^\(  *\)image: .*/\1image: my-cron-image:edited/' "$1"` + "\n"
		if err := os.WriteFile(editor, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		r := s.kubectlEnv(t, []string{"EDITOR=" + editor}, "edit", "crontab", "my-crontab")
		if r.err != nil {
			t.Fatalf("kubectl edit: %v\n%s", r.err, r.stderr)
		}
		wantContains(t, r.stdout, "crontab.stable.example.com/my-crontab edited")
		wantValue(t, s.getJSON(t, "crontab", "my-crontab"), "my-cron-image:edited", "spec", "image")
	})

	t.Run("Label", func(t *testing.T) {
		feature(t, "kubectl", "label (add, overwrite, remove)", "kubectl label crontab my-crontab tier=frontend")
		wantContains(t, s.kubectlOK(t, "label", "crontab", "my-crontab", "tier=frontend"), "crontab.stable.example.com/my-crontab labeled")
		stderr := s.kubectlFails(t, "label", "crontab", "my-crontab", "tier=web")
		wantContains(t, stderr, "already has a value (frontend)")
		s.kubectlOK(t, "label", "crontab", "my-crontab", "tier=web", "--overwrite")
		wantValue(t, s.getJSON(t, "crontab", "my-crontab"), "web", "metadata", "labels", "tier")
		wantContains(t, s.kubectlOK(t, "label", "crontab", "my-crontab", "tier-"), "crontab.stable.example.com/my-crontab unlabeled")
		wantValue(t, s.getJSON(t, "crontab", "my-crontab"), nil, "metadata", "labels", "tier")
	})

	t.Run("Annotate", func(t *testing.T) {
		feature(t, "kubectl", "annotate", "kubectl annotate crontab my-crontab example.com/reviewed=yes")
		wantContains(t, s.kubectlOK(t, "annotate", "crontab", "my-crontab", "example.com/reviewed=yes"), "crontab.stable.example.com/my-crontab annotated")
		wantValue(t, s.getJSON(t, "crontab", "my-crontab"), "yes", "metadata", "annotations", "example.com/reviewed")
	})

	t.Run("Scale", func(t *testing.T) {
		feature(t, "kubectl", "scale (scale subresource)", "kubectl scale crontab my-crontab --replicas=5")
		wantContains(t, s.kubectlOK(t, "scale", "crontab", "my-crontab", "--replicas=5"), "crontab.stable.example.com/my-crontab scaled")
		wantValue(t, s.getJSON(t, "crontab", "my-crontab"), float64(5), "spec", "replicas")
		// With a precondition on the current replicas.
		s.kubectlOK(t, "scale", "crontab", "my-crontab", "--current-replicas=5", "--replicas=6")
		stderr := s.kubectlFails(t, "scale", "crontab", "my-crontab", "--current-replicas=5", "--replicas=7")
		wantContains(t, stderr, "Expected replicas to be 5, was 6")
		out := s.kubectlOK(t, "get", "crontab", "my-crontab", "--subresource=scale", "-o", "jsonpath={.kind} {.apiVersion} {.spec.replicas}")
		if out != "Scale autoscaling/v1 6" {
			t.Errorf("scale subresource = %q, want %q", out, "Scale autoscaling/v1 6")
		}
	})

	t.Run("Describe", func(t *testing.T) {
		feature(t, "kubectl", "describe a custom resource and its CRD", "kubectl describe crontab my-crontab; kubectl describe crd "+crdName)
		out := s.kubectlOK(t, "describe", "crontab", "my-crontab")
		for _, want := range []string{"Name:         my-crontab", "Namespace:    default", "API Version:  stable.example.com/v1",
			"Kind:         CronTab", "Cron Spec:  */10 * * * *", "Image:      my-cron-image:edited"} {
			wantContains(t, out, want)
		}
		out = s.kubectlOK(t, "describe", "crd", crdName)
		wantContains(t, out, "Kind:         CustomResourceDefinition")
		wantContains(t, out, "Accepted Names:")
	})

	t.Run("Replace", func(t *testing.T) {
		feature(t, "kubectl", "replace -f (update without a resourceVersion)", "kubectl replace -f to-replace.yaml")
		s.kubectlOK(t, "create", "-f", writeManifest(t, "to-replace", "my-cron-image:1", nil))
		out := s.kubectlOK(t, "replace", "-f", writeManifest(t, "to-replace", "my-cron-image:replaced", nil))
		wantContains(t, out, "crontab.stable.example.com/to-replace replaced")
		wantValue(t, s.getJSON(t, "crontab", "to-replace"), "my-cron-image:replaced", "spec", "image")
	})

	t.Run("GetLabelColumns", func(t *testing.T) {
		feature(t, "kubectl", "get --show-labels and -L (labels from the Table rows' metadata)", "kubectl get crontabs --show-labels -L app")
		rows := tableOf(t, s.kubectlOK(t, "get", "crontab", "my-crontab", "--show-labels", "-L", "app"))
		wantHeader(t, rows, "NAME", "SPEC", "IMAGE", "REPLICAS", "AGE", "APP", "LABELS")
		if r := rows[1]; r[len(r)-2] != "cron" || r[len(r)-1] != "app=cron" {
			t.Errorf("label columns of %q, want cron and app=cron", r)
		}
	})

	t.Run("GetSortBy", func(t *testing.T) {
		feature(t, "kubectl", "get --sort-by", "kubectl get crontabs -A --sort-by=.spec.image")
		rows := tableOf(t, s.kubectlOK(t, "get", "crontabs", "-A", "--sort-by=.spec.image"))
		var images []string
		for _, r := range rows[1:] {
			images = append(images, r[3])
		}
		if !slices.IsSorted(images) || len(images) != 3 {
			t.Errorf("images %q, want 3 in order", images)
		}
	})

	t.Run("WaitJSONPath", func(t *testing.T) {
		feature(t, "kubectl", "wait --for=jsonpath", "kubectl wait crontab/my-crontab --for=jsonpath={.status.replicas}=2")
		out := s.kubectlOK(t, "wait", "crontab/my-crontab", "--for=jsonpath={.status.replicas}=2", "--timeout=30s")
		wantContains(t, out, "crontab.stable.example.com/my-crontab condition met")
	})

	t.Run("CreateInvalid", func(t *testing.T) {
		feature(t, "kubectl", "create an invalid object: the server's 422 message", "kubectl create -f crontab-invalid.yaml")
		stderr := s.kubectlFails(t, "create", "-f", "testdata/crontab-invalid.yaml")
		wantContains(t, stderr, `The CronTab "too-many" is invalid: spec.replicas: Invalid value: 50: spec.replicas in body should be less than or equal to 10`)
	})

	t.Run("CreateUnknownField", func(t *testing.T) {
		row := feature(t, "kubectl", "create with an unknown field (default --validate=strict)", "kubectl create -f <file with spec.colour>")
		row.notef("kubectl finds fieldValidation in /openapi/v3 and leaves the check to the server: 400 naming spec.colour")
		stderr := s.kubectlFails(t, "create", "-f", writeManifest(t, "colourful", "my-cron-image:1", map[string]any{"colour": "blue"}))
		wantContains(t, stderr, `unknown field "spec.colour"`)
		if r := s.kubectl(t, "get", "crontab", "colourful"); r.err == nil {
			t.Errorf("the object was created despite strict validation")
		}
	})

	t.Run("GetVersion", func(t *testing.T) {
		feature(t, "kubectl", "read another version: get <plural>.<version>.<group>", "kubectl get crontabs.v1beta1.stable.example.com my-crontab -o yaml")
		for _, v := range []string{"v1beta1", "v1"} {
			var obj map[string]any
			out := s.kubectlOK(t, "get", "crontabs."+v+"."+crdGroup, "my-crontab", "-o", "yaml")
			if err := yaml.Unmarshal([]byte(out), &obj); err != nil {
				t.Fatal(err)
			}
			wantValue(t, obj, crdGroup+"/"+v, "apiVersion")
			wantValue(t, obj, "my-cron-image:edited", "spec", "image")
		}
		rows := tableOf(t, s.kubectlOK(t, "get", "crontabs.v1beta1."+crdGroup))
		wantRow(t, rows, "my-crontab", "*/10 * * * *", "my-cron-image:edited")
	})

	t.Run("Delete", func(t *testing.T) {
		feature(t, "kubectl", "delete", "kubectl delete crontab short-lived")
		s.kubectlOK(t, "create", "-f", writeManifest(t, "short-lived", "my-cron-image:1", nil))
		wantContains(t, s.kubectlOK(t, "delete", "crontab", "short-lived"), `crontab.stable.example.com "short-lived" deleted`)
		stderr := s.kubectlFails(t, "get", "crontab", "short-lived")
		wantContains(t, stderr, `Error from server (NotFound): crontabs.stable.example.com "short-lived" not found`)
	})

	t.Run("DeleteBySelector", func(t *testing.T) {
		feature(t, "kubectl", "delete -l (by label selector)", "kubectl delete crontabs -l batch=old")
		for _, name := range []string{"old-1", "old-2"} {
			s.kubectlOK(t, "create", "-f", writeManifest(t, name, "my-cron-image:1", nil))
			s.kubectlOK(t, "label", "crontab", name, "batch=old")
		}
		out := s.kubectlOK(t, "delete", "crontabs", "-l", "batch=old")
		wantContains(t, out, `crontab.stable.example.com "old-1" deleted`)
		wantContains(t, out, `crontab.stable.example.com "old-2" deleted`)
		r := s.kubectl(t, "get", "crontabs", "-l", "batch=old")
		if r.err != nil || !strings.Contains(r.stderr, "No resources found in default namespace.") {
			t.Errorf("after delete -l: %s", r)
		}
	})

	t.Run("DeleteWait", func(t *testing.T) {
		feature(t, "kubectl", "delete --wait (waits for finalizers)", "kubectl delete crontab finalized --wait")
		m := writeManifest(t, "finalized", "my-cron-image:1", nil)
		s.kubectlOK(t, "create", "-f", m)
		s.kubectlOK(t, "patch", "crontab", "finalized", "--type=merge", "-p", `{"metadata":{"finalizers":["example.com/hold"]}}`)
		d := s.startKubectl(t, "delete", "crontab", "finalized", "--wait", "--timeout=60s")
		// The object stays, terminating, while the finalizer holds it …
		eventually(t, "deletionTimestamp set", func() error {
			if lookup(s.getJSON(t, "crontab", "finalized"), "metadata", "deletionTimestamp") == nil {
				return fmt.Errorf("no deletionTimestamp yet")
			}
			return nil
		})
		select {
		case <-d.done:
			t.Fatalf("kubectl delete --wait returned while the finalizer still held the object: %v", d.err)
		default:
		}
		// … and kubectl delete returns once it is gone.
		s.kubectlOK(t, "patch", "crontab", "finalized", "--type=json", "-p", `[{"op":"remove","path":"/metadata/finalizers"}]`)
		if err := d.wait(t); err != nil {
			t.Fatalf("kubectl delete --wait: %v\n%s", err, d.stderr.String())
		}
		d.mu.Lock()
		out := strings.Join(d.out, "\n")
		d.mu.Unlock()
		wantContains(t, out, `crontab.stable.example.com "finalized" deleted`)
	})

	t.Run("DeleteCRD", func(t *testing.T) {
		row := feature(t, "kubectl", "delete crd removes its instances", "kubectl delete crd "+crdName)
		row.notef("until kubectl's discovery cache refreshes, get crontabs answers NotFound, as with kube-apiserver")
		out := s.kubectlOK(t, "delete", "crd", crdName, "--timeout=60s")
		wantContains(t, out, `customresourcedefinition.apiextensions.k8s.io "`+crdName+`" deleted`)
		// kubectl's discovery cache still knows crontabs, so it lists them
		// and gets a 404, as it does from kube-apiserver.
		stderr := s.kubectlFails(t, "get", "crontabs", "-A")
		wantContains(t, stderr, `Error from server (NotFound): Unable to list "stable.example.com/v1, Resource=crontabs": the server could not find the requested resource`)
		// Made again, the CRD has no instances: they went with it.
		s.kubectlOK(t, "apply", "-f", "testdata/crontab-crd.yaml")
		s.kubectlOK(t, "wait", "--for", "condition=Established", "crd/"+crdName, "--timeout=60s")
		r := s.kubectl(t, "get", "crontabs", "-A")
		if r.err != nil || strings.TrimSpace(r.stdout) != "" || !strings.Contains(r.stderr, "No resources found") {
			t.Errorf("after deleting and re-creating the CRD: %s", r)
		}
	})
}

// getJSON reads one object with kubectl get -o json.
func (s *server) getJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out := s.kubectlOK(t, append([]string{"get", "-o", "json"}, args...)...)
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("kubectl get %v -o json: %v\n%s", args, err, out)
	}
	return obj
}

// writeManifest writes a CronTab named name, with extra fields in its
// spec, to a temporary file and returns its path.
func writeManifest(t *testing.T, name, image string, extraSpec map[string]any) string {
	t.Helper()
	spec := map[string]any{"cronSpec": "* * * * */5", "image": image}
	for k, v := range extraSpec {
		spec[k] = v
	}
	obj := map[string]any{"apiVersion": crdGroup + "/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": name}, "spec": spec}
	b, err := yaml.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name+".yaml")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// columnSep splits kubectl's table output: columns are padded with at
// least three spaces (cells here never hold two spaces in a row).
var columnSep = regexp.MustCompile(`\s{2,}`)

// tableOf splits kubectl's table output into rows of cells.
func tableOf(t *testing.T, out string) [][]string {
	t.Helper()
	var rows [][]string
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		rows = append(rows, columnSep.Split(strings.TrimSpace(line), -1))
	}
	if len(rows) == 0 {
		t.Fatalf("no table in %q", out)
	}
	return rows
}

func wantHeader(t *testing.T, rows [][]string, header ...string) {
	t.Helper()
	if !slices.Equal(rows[0], header) {
		t.Errorf("header = %q, want %q", rows[0], header)
	}
}

// wantRow checks that some row starts with the cells prefix (in order,
// each cell compared whole).
func wantRow(t *testing.T, rows [][]string, prefix ...string) {
	t.Helper()
	for _, r := range rows[1:] {
		if len(r) >= len(prefix) && slices.Equal(r[:len(prefix)], prefix) {
			return
		}
	}
	t.Errorf("no row starts with %q in %q", prefix, rows)
}

// wantRows checks the rows below the header: each starts with its prefix.
func wantRows(t *testing.T, rows [][]string, prefixes ...[]string) {
	t.Helper()
	if len(rows)-1 != len(prefixes) {
		t.Errorf("got rows %q, want %d rows starting %q", rows[1:], len(prefixes), prefixes)
		return
	}
	for i, p := range prefixes {
		if r := rows[i+1]; len(r) < len(p) || !slices.Equal(r[:len(p)], p) {
			t.Errorf("row %d = %q, want it to start with %q", i, r, p)
		}
	}
}

func wantContains(t *testing.T, s, want string) {
	t.Helper()
	if !strings.Contains(s, want) {
		t.Errorf("output lacks %q:\n%s", want, s)
	}
}

// lookup follows keys into nested maps (and, for numeric keys, lists);
// nil if absent.
func lookup(obj map[string]any, keys ...string) any {
	var cur any = obj
	for _, k := range keys {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	return cur
}

func wantValue(t *testing.T, obj map[string]any, want any, keys ...string) {
	t.Helper()
	if got := lookup(obj, keys...); got != want {
		t.Errorf("%s = %#v, want %#v", strings.Join(keys, "."), got, want)
	}
}
