package builtin_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apis/builtin"
	"github.com/crdlab/crdlab/apis/core"
	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	"github.com/crdlab/crdlab/apis/events"
	eventsv1 "github.com/crdlab/crdlab/apis/events/v1"
	"github.com/crdlab/crdlab/scheme"
)

func codecs(t *testing.T) scheme.CodecFactory {
	t.Helper()
	s := scheme.NewScheme()
	builtin.Install(s)
	return scheme.NewCodecFactory(s)
}

// An events.k8s.io/v1 Event goes through the hub (core.Event) into
// core/v1 and back, with its renamed fields moved on the way.
func TestEvent_EventsV1ThroughTheHubToCoreV1(t *testing.T) {
	c := codecs(t)
	in := `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e1","namespace":"default"},
	  "eventTime":"2026-01-02T03:04:05.123456Z","reportingController":"example.com/ctrl","reportingInstance":"ctrl-1",
	  "action":"Sync","reason":"Synced","note":"all good","type":"Normal",
	  "regarding":{"kind":"ConfigMap","namespace":"default","name":"cm"},"deprecatedCount":3}`
	hub, err := c.DecodeToVersion([]byte(in), events.SchemeGroupVersion, scheme.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	ev := hub.(*core.Event)
	if ev.Message != "all good" || ev.InvolvedObject.Name != "cm" || ev.Count != 3 || ev.ReportingController != "example.com/ctrl" {
		t.Fatalf("hub = %+v", ev)
	}
	b, err := c.Encode(hub, corev1.SchemeGroupVersion)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["apiVersion"] != "v1" || got["message"] != "all good" || got["reportingComponent"] != "example.com/ctrl" ||
		got["count"] != 3.0 || got["eventTime"] != "2026-01-02T03:04:05.123456Z" {
		t.Errorf("core/v1 = %s", b)
	}
	if _, ok := got["note"]; ok {
		t.Errorf("core/v1 has events.k8s.io's note: %s", b)
	}

	// And back: core/v1 → hub → events.k8s.io/v1 is the object we started from.
	hub2, err := c.DecodeToVersion(b, core.SchemeGroupVersion, scheme.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	back, err := c.Scheme().ConvertToVersion(hub2, eventsv1.SchemeGroupVersion)
	if err != nil {
		t.Fatal(err)
	}
	e := back.(*eventsv1.Event)
	if e.Note != "all good" || e.Regarding.Name != "cm" || e.DeprecatedCount != 3 || e.APIVersion != "events.k8s.io/v1" {
		t.Errorf("events.k8s.io/v1 = %+v", e)
	}
}

// stringData is merged into data on the way in, overwriting the same
// key, and never comes back out; type defaults to Opaque.
func TestSecret_StringDataMergedIntoData(t *testing.T) {
	c := codecs(t)
	in := `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},
	  "data":{"a":"b2xk","keep":"eA=="},"stringData":{"a":"new","b":"plain"}}`
	hub, err := c.DecodeToVersion([]byte(in), core.SchemeGroupVersion, scheme.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	s := hub.(*core.Secret)
	if string(s.Data["a"]) != "new" || string(s.Data["b"]) != "plain" || string(s.Data["keep"]) != "x" {
		t.Errorf("data = %q", s.Data)
	}
	if s.Type != core.SecretTypeOpaque {
		t.Errorf("type = %q, want Opaque", s.Type)
	}
	b, err := c.Encode(hub, corev1.SchemeGroupVersion)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "stringData") || !strings.Contains(string(b), `"a":"bmV3"`) {
		t.Errorf("v1 = %s", b)
	}
}

func TestNamespace_Defaults(t *testing.T) {
	c := codecs(t)
	obj, _, err := c.Decode([]byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-a"}}`), scheme.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ns := obj.(*corev1.Namespace)
	if ns.Labels[corev1.LabelMetadataName] != "team-a" || ns.Status.Phase != corev1.NamespaceActive {
		t.Errorf("namespace = %+v", ns)
	}
}

func TestList_Decodes(t *testing.T) {
	c := codecs(t)
	in := "apiVersion: v1\nkind: List\nmetadata: {}\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n"
	obj, _, err := c.Decode([]byte(in), scheme.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if l := obj.(*corev1.List); len(l.Items) != 1 || !strings.Contains(string(l.Items[0]), `"ConfigMap"`) {
		t.Errorf("list = %+v", l)
	}
}

// Every built-in kind survives external → hub → external unchanged
// (creationTimestamp: null is how an unset one travels, as upstream).
func TestRoundTrip(t *testing.T) {
	c := codecs(t)
	for _, doc := range []string{
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"creationTimestamp":null,"name":"c","namespace":"n"},"immutable":true,"data":{"k":"v"},"binaryData":{"b":"AAE="}}`,
		`{"apiVersion":"v1","kind":"Namespace","metadata":{"creationTimestamp":null,"name":"n","labels":{"kubernetes.io/metadata.name":"n"}},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Terminating","conditions":[{"type":"NamespaceContentRemaining","status":"True","lastTransitionTime":"2026-01-02T03:04:05Z","reason":"SomeResourcesRemain","message":"m"}]}}`,
		`{"apiVersion":"v1","kind":"Event","metadata":{"creationTimestamp":null,"name":"e","namespace":"n"},"involvedObject":{"kind":"Pod","name":"p"},"reason":"R","message":"M","source":{"component":"c"},"firstTimestamp":"2026-01-02T03:04:05Z","lastTimestamp":"2026-01-02T03:04:05Z","count":2,"type":"Warning","eventTime":null,"reportingComponent":"","reportingInstance":""}`,
		`{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"creationTimestamp":null,"name":"l","namespace":"n"},"spec":{"holderIdentity":"me","leaseDurationSeconds":15,"acquireTime":"2026-01-02T03:04:05.000001Z","renewTime":"2026-01-02T03:04:06.500000Z","leaseTransitions":1}}`,
		`{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","metadata":{"creationTimestamp":null},"spec":{"resourceAttributes":{"namespace":"n","verb":"list","resource":"secrets","labelSelector":{"rawSelector":"a=b"}}},"status":{"allowed":true,"reason":"r"}}`,
		`{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","metadata":{"creationTimestamp":null},"spec":{"namespace":"n"},"status":{"resourceRules":[{"verbs":["get"],"apiGroups":[""],"resources":["secrets"]}],"nonResourceRules":[{"verbs":["get"],"nonResourceURLs":["/healthz"]}],"incomplete":false}}`,
		`{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview","metadata":{"creationTimestamp":null},"status":{"userInfo":{"username":"alice","uid":"1","groups":["dev"],"extra":{"k":["v"]}}}}`,
	} {
		gvk, err := scheme.Kind([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(gvk.Kind, func(t *testing.T) {
			hub, err := c.DecodeToVersion([]byte(doc), gvk.GroupKind().WithVersion(scheme.APIVersionInternal).GroupVersion(), scheme.DecodeOptions{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			out, err := c.Encode(hub, gvk.GroupVersion())
			if err != nil {
				t.Fatal(err)
			}
			if !sameJSON(t, doc, string(out)) {
				t.Errorf("round trip changed the object:\n in: %s\nout: %s", doc, out)
			}
		})
	}
}

func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Fatal(err)
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}
