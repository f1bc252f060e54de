package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// manyCRD has a list whose items must match ^a$: a body can break it once
// per item.
const manyCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"lists.many.example.com"},
"spec":{"group":"many.example.com","scope":"Namespaced",
 "names":{"plural":"lists","singular":"list","kind":"List2","listKind":"List2List"},
 "versions":[{"name":"v1","served":true,"storage":true,
  "schema":{"openAPIV3Schema":{"type":"object","properties":{
   "spec":{"type":"object","properties":{"items":{"type":"array","items":{"type":"string","pattern":"^a$"}}}}}}}}]}}`

// TestBadInput_ManyViolations is issue 21's finding 11: a body with 10,000
// violations came back as a 7 MB 422 that echoed every value. The answer
// is still a 422 Invalid, but it lists at most 100 causes, a last cause
// says how many more there were, and the whole Status stays small.
func TestBadInput_ManyViolations(t *testing.T) {
	s := startServer(t, t.TempDir(), serverOptions{})
	s.must(201, "POST", crdsPath, manyCRD)
	const path = "/apis/many.example.com/v1/namespaces/default/lists"
	s.poll("lists served", func() bool {
		code, _, err := s.do(context.Background(), "GET", path, "")
		return err == nil && code == 200
	})

	const n = 10000
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf("%q", strings.Repeat("v", 50)+fmt.Sprint(i))
	}
	body := `{"apiVersion":"many.example.com/v1","kind":"List2","metadata":{"name":"many"},"spec":{"items":[` + strings.Join(items, ",") + `]}}`
	code, b, err := s.do(context.Background(), "POST", path, body)
	if err != nil || code != 422 {
		t.Fatalf("POST: %d %v %.300s", code, err, b)
	}
	var st struct {
		Reason, Message string
		Details         struct {
			Causes []struct{ Reason, Message, Field string }
		}
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	causes := st.Details.Causes
	if st.Reason != "Invalid" || len(causes) != 101 {
		t.Fatalf("reason %q, %d causes", st.Reason, len(causes))
	}
	if c := causes[0]; c.Field != "spec.items[0]" || c.Reason != "FieldValueInvalid" {
		t.Errorf("first cause: %+v", c)
	}
	const left = "9900 more errors not listed: crdlab lists at most 100 causes and 64 KiB of messages (upstream lists them all)"
	if c := causes[100]; c.Field != "" || c.Message != left {
		t.Errorf("last cause: %+v", c)
	}
	if !strings.HasSuffix(st.Message, left+"]") {
		t.Errorf("message does not end with the count: …%s", st.Message[max(0, len(st.Message)-200):])
	}
	if len(b) > 64<<10 {
		t.Errorf("the answer is %d bytes", len(b))
	}
	t.Logf("%d violations: a %d-byte 422 with %d causes", n, len(b), len(causes))
}
