package handler_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/handler"
	"github.com/crdlab/crdlab/handler/internal/check"
	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/scheme"
)

// TestCRDFieldManager_VersionsElided checks that the CRD API's field
// manager, which hands the merge engine an empty list in place of a CRD's
// spec.versions and compares the versions by their JSON itself
// (handler/fieldmanager.go: readVersionsElided), records the same
// managedFields as reading both objects whole: on real-size generated CRDs
// (internal/crdgen), created, then updated with the same versions, with
// changed versions, with versions equal in value but not in bytes (a
// default's keys in another order), with entries of another version in
// the body, and through v1beta1.
func TestCRDFieldManager_VersionsElided(t *testing.T) {
	elided, whole := newTestServer(t), newTestServer(t)
	for _, v := range []string{"v1", "v1beta1"} {
		handler.ReadWholeForUpdates(whole.h, scheme.GroupVersion{Group: "apiextensions.k8s.io", Version: v}, "customresourcedefinitions")
	}
	// both sends a request to both servers and fails unless both answer
	// code with the same managedFields (times left out); it returns the
	// elided server's answer.
	both := func(t *testing.T, method, path, body string, code int) map[string]any {
		t.Helper()
		a, b := elided.do(t, method, path, body), whole.do(t, method, path, body)
		check.Equal(t, code, a.code, string(a.raw))
		check.Equal(t, code, b.code, string(b.raw))
		ma, mb := entriesWithoutTimes(t, a.body), entriesWithoutTimes(t, b.body)
		if ma == "" {
			t.Fatalf("%s %s: no managedFields in %.300s", method, path, a.raw)
		}
		check.Equal(t, mb, ma, "managedFields, elided (want: read whole)")
		return a.body
	}
	// put changes an answer with edit and PUTs it back as manager.
	put := func(t *testing.T, path string, obj map[string]any, manager string, edit func(string) string) map[string]any {
		t.Helper()
		raw, err := json.Marshal(obj)
		check.NoError(t, err)
		body := edit(string(raw))
		name := get(obj, "metadata", "name").(string)
		return both(t, "PUT", path+"/"+name+"?fieldManager="+manager, body, 200)
	}
	label := func(l string) func(string) string {
		return func(s string) string {
			return strings.Replace(s, `"metadata":{`, `"metadata":{"labels":{"`+l+`":"x"},`, 1)
		}
	}
	const v1beta1Path = "/apis/apiextensions.k8s.io/v1beta1/customresourcedefinitions"

	for i, seed := range []uint64{1, 2, 3} {
		body := string(crdgen.CRD(i, crdgen.Options{Bytes: 265 << 10, Versions: 1 + i, Seed: seed}))
		obj := both(t, "POST", crdPath+"?fieldManager=creator", body, 201)
		t.Run("SameVersions", func(t *testing.T) {
			obj = put(t, crdPath, obj, "labeler", label("same"))
		})
		t.Run("ChangedVersions", func(t *testing.T) {
			obj = put(t, crdPath, obj, "changer", func(s string) string {
				return strings.Replace(s, `"served":true`, `"served":false`, 1)
			})
		})
		t.Run("EntriesInAnotherVersion", func(t *testing.T) {
			obj = put(t, crdPath, obj, "rewriter", func(s string) string {
				s = label("rewritten")(s)
				return strings.Replace(s, `"managedFields":[`, `"managedFields":[{"manager":"old","operation":"Update",`+
					`"apiVersion":"apiextensions.k8s.io/v1beta1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:validation":{}}}},`, 1)
			})
		})
		t.Run("V1beta1", func(t *testing.T) {
			name := get(obj, "metadata", "name").(string)
			b1 := elided.do(t, "GET", v1beta1Path+"/"+name, "")
			check.Equal(t, 200, b1.code, string(b1.raw))
			put(t, v1beta1Path, b1.body, "beta", label("beta"))
		})
	}

	t.Run("DefaultKeysReordered", func(t *testing.T) {
		withDefault := func(def string) string {
			return strings.Replace(crdJSON("crontabs.stable.example.com", "stable.example.com", "crontabs", "CronTab"),
				`"replicas":{"type":"integer"}`, `"replicas":{"type":"integer"},"shape":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"default":`+def+`}`, 1)
		}
		obj := both(t, "POST", crdPath+"?fieldManager=creator", withDefault(`{"a":1,"b":2}`), 201)
		put(t, crdPath, obj, "reorderer", func(s string) string {
			if !strings.Contains(s, `"default":{"a":1,"b":2}`) {
				t.Fatalf("the default is not as written: %.2000s", s)
			}
			return strings.Replace(s, `"default":{"a":1,"b":2}`, `"default":{"b":2,"a":1}`, 1)
		})
	})
}

// entriesWithoutTimes returns obj's metadata.managedFields as JSON, each
// entry without its time.
func entriesWithoutTimes(t *testing.T, obj map[string]any) string {
	t.Helper()
	entries, _ := get(obj, "metadata", "managedFields").([]any)
	for _, e := range entries {
		delete(e.(map[string]any), "time")
	}
	if entries == nil {
		return ""
	}
	b, err := json.Marshal(entries)
	check.NoError(t, err)
	return string(b)
}
