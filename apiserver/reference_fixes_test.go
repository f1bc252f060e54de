package apiserver

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestChain_MatchesKubeAPIServer holds the answers in which crdlab
// differed from the real kube-apiserver v1.37.2 (e2e
// TestReferenceBuiltinAPI found them), each as upstream answers it.
func TestChain_MatchesKubeAPIServer(t *testing.T) {
	ts := readyServer(t, Config{})

	t.Run("DiscoveryVerbs", func(t *testing.T) {
		// Namespaces have no deletecollection; namespaces/finalize is
		// update only (no Getter, so no patch).
		_, body := doJSON(t, "GET", ts.url+"/api/v1", "", "")
		verbs := map[string]string{}
		for _, r := range body["resources"].([]any) {
			r := r.(map[string]any)
			b, _ := json.Marshal(r["verbs"])
			verbs[r["name"].(string)] = string(b)
		}
		for name, want := range map[string]string{
			"namespaces":          `["create","delete","get","list","patch","update","watch"]`,
			"namespaces/finalize": `["update"]`,
			"namespaces/status":   `["get","patch","update"]`,
		} {
			if verbs[name] != want {
				t.Errorf("%s verbs = %s, want %s", name, verbs[name], want)
			}
		}
	})

	t.Run("NoNamespaceDeleteCollection", func(t *testing.T) {
		code, body := doJSON(t, "DELETE", ts.url+"/api/v1/namespaces", "", "")
		if code != 405 || body["message"] != "the server does not allow this method on the requested resource" {
			t.Errorf("DELETE /api/v1/namespaces: %d %v", code, body)
		}
		if code, _ := doJSON(t, "GET", ts.url+"/api/v1/namespaces/default", "", ""); code != 200 {
			t.Errorf("default after a collection delete: %d", code)
		}
		code, body = doJSON(t, "PATCH", ts.url+"/api/v1/namespaces/default/finalize", "application/merge-patch+json", `{"spec":{"finalizers":null}}`)
		if code != 405 || body["reason"] != "MethodNotAllowed" {
			t.Errorf("PATCH finalize: %d %v", code, body)
		}
	})

	t.Run("DecodeErrorNamesTheKind", func(t *testing.T) {
		code, body := doJSON(t, "POST", ts.url+"/api/v1/namespaces/default/secrets", "application/json",
			`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"bad64"},"data":{"a":"!!not base64!!"}}`)
		want := `Secret in version "v1" cannot be handled as a Secret: `
		if msg, _ := body["message"].(string); code != 400 || !strings.HasPrefix(msg, want) {
			t.Errorf("bad base64: %d %v, want 400 %q…", code, body, want)
		}
	})

	t.Run("RulesReviewAnswersStatusOnly", func(t *testing.T) {
		code, body := doJSON(t, "POST", ts.url+"/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", "application/json",
			`{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","spec":{"namespace":"default"}}`)
		if code != 201 || body["spec"] != nil && len(body["spec"].(map[string]any)) != 0 {
			t.Errorf("rules review: %d %v, want no spec", code, body)
		}
		// AlwaysAllow: everything, and no public-info rules besides.
		b, _ := json.Marshal(nested(body, "status", "nonResourceRules"))
		if string(b) != `[{"nonResourceURLs":["*"],"verbs":["*"]}]` {
			t.Errorf("nonResourceRules = %s", b)
		}
	})
}
