package client_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/flowcontrol"
	"github.com/crdlab/crdlab/client/internal/apitest"
	"github.com/crdlab/crdlab/machinery/clock"
)

// newClient returns an unthrottled RESTClient for stable.example.com/v1 on host.
func newClient(t *testing.T, host string) *client.RESTClient {
	t.Helper()
	c, err := client.RESTClientFor(&client.Config{Host: host, GroupVersion: &stableV1, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// captured is what a capturing server saw of one request.
type captured struct {
	method, uri string
	header      http.Header
	body        string
}

// newCapturingServer answers every request with answer and sends what it
// saw on the returned channel.
func newCapturingServer(t *testing.T, code int, answer string) (*httptest.Server, <-chan captured) {
	t.Helper()
	seen := make(chan captured, 16)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		seen <- captured{r.Method, r.URL.RequestURI(), r.Header.Clone(), string(body)}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, answer)
	}))
	t.Cleanup(ts.Close)
	return ts, seen
}

func ptr[T any](v T) *T { return &v }

func TestRequest_URL(t *testing.T) {
	c := newClient(t, "http://h")
	for _, tc := range []struct {
		name string
		req  *client.Request
		want string
	}{
		{"Collection", c.Get().Resource("crontabs"),
			"/apis/stable.example.com/v1/crontabs"},
		{"LowerCasesResource", c.Get().Resource("CronTabs"),
			"/apis/stable.example.com/v1/crontabs"},
		{"NamespacedName", c.Get().Namespace("ns").Resource("crontabs").Name("a"),
			"/apis/stable.example.com/v1/namespaces/ns/crontabs/a"},
		{"SubResource", c.Put().Namespace("ns").Resource("crontabs").Name("a").SubResource("status"),
			"/apis/stable.example.com/v1/namespaces/ns/crontabs/a/status"},
		{"EmptyNamespaceIsAllNamespaces", c.Get().Namespace("").Resource("crontabs"),
			"/apis/stable.example.com/v1/crontabs"},
		{"NamespaceIfScopedFalse", c.Get().NamespaceIfScoped("ns", false).Resource("crontabs"),
			"/apis/stable.example.com/v1/crontabs"},
		{"AbsPath", c.Get().AbsPath("/apis", "apiextensions.k8s.io"),
			"/apis/apiextensions.k8s.io"},
		{"AbsPathKeepsTrailingSlash", c.Get().AbsPath("/apis/"),
			"/apis/"},
		{"PrefixSuffix", c.Get().Prefix("x").Resource("crontabs").Name("a").Suffix("y"),
			"/apis/stable.example.com/v1/x/crontabs/a/y"},
		{"ListOptions", c.Get().Resource("crontabs").VersionedParams(&metav1.ListOptions{
			LabelSelector: "app=web", FieldSelector: "metadata.name=a", Watch: true, AllowWatchBookmarks: true,
			ResourceVersion: "10", ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
			TimeoutSeconds: ptr(int64(300)), Limit: 5, Continue: "tok", SendInitialEvents: ptr(true),
		}), "/apis/stable.example.com/v1/crontabs?allowWatchBookmarks=true&continue=tok&fieldSelector=metadata.name%3Da" +
			"&labelSelector=app%3Dweb&limit=5&resourceVersion=10&resourceVersionMatch=NotOlderThan" +
			"&sendInitialEvents=true&timeoutSeconds=300&watch=true"},
		{"ZeroOptionsAddNothing", c.Get().Resource("crontabs").VersionedParams(&metav1.ListOptions{}),
			"/apis/stable.example.com/v1/crontabs"},
		{"CreateOptions", c.Post().Resource("crontabs").VersionedParams(&metav1.CreateOptions{
			DryRun: []string{metav1.DryRunAll}, FieldManager: "kubectl", FieldValidation: metav1.FieldValidationStrict,
		}), "/apis/stable.example.com/v1/crontabs?dryRun=All&fieldManager=kubectl&fieldValidation=Strict"},
		{"PatchOptionsForce", c.Patch(client.ApplyPatchType).Resource("crontabs").Name("a").VersionedParams(&metav1.PatchOptions{
			Force: ptr(true), FieldManager: "m",
		}), "/apis/stable.example.com/v1/crontabs/a?fieldManager=m&force=true"},
		{"ParamsAddUp", c.Get().Resource("crontabs").Param("labelSelector", "a").VersionedParams(&metav1.ListOptions{LabelSelector: "b"}),
			"/apis/stable.example.com/v1/crontabs?labelSelector=a&labelSelector=b"},
		{"Timeout", c.Get().Resource("crontabs").Timeout(30 * time.Second),
			"/apis/stable.example.com/v1/crontabs?timeout=30s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.req.Error(); err != nil {
				t.Fatal(err)
			}
			if got := tc.req.URL().RequestURI(); got != tc.want {
				t.Fatalf("URL\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestRequest_BuildErrors(t *testing.T) {
	var sent atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sent.Add(1) }))
	defer ts.Close()
	c := newClient(t, ts.URL)
	for _, tc := range []struct {
		name string
		req  *client.Request
		want string
	}{
		{"EmptyName", c.Get().Resource("crontabs").Name(""), "resource name may not be empty"},
		{"NameTwice", c.Get().Resource("crontabs").Name("a").Name("b"), `resource name already set to "a"`},
		{"ResourceTwice", c.Get().Resource("crontabs").Resource("foos"), `resource already set to "crontabs"`},
		{"NameWithSlash", c.Get().Resource("crontabs").Name("a/b"), `invalid resource name "a/b"`},
		{"DotDotNamespace", c.Get().Namespace("..").Resource("crontabs"), `invalid namespace ".."`},
		{"NamespaceTwice", c.Get().Namespace("a").Namespace("b"), `namespace already set to "a"`},
		{"SubResourceTwice", c.Get().Resource("x").Name("a").SubResource("status").SubResource("scale"), `subresource already set`},
		{"EmptyNamespaceOnCreate", c.Post().Namespace("").Resource("crontabs"), "an empty namespace may not be set during creation"},
		{"EmptyNamespaceWithName", c.Get().Namespace("").Resource("crontabs").Name("a"), "an empty namespace may not be set when a resource name is provided"},
		{"UnencodableBody", c.Post().Resource("crontabs").Body(map[string]any{"f": func() {}}), "encoding the request body"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.req.Do(context.Background()).Error()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
	if n := sent.Load(); n != 0 {
		t.Fatalf("%d broken requests were sent", n)
	}
}

func TestRequest_Headers(t *testing.T) {
	t.Run("ObjectBody", func(t *testing.T) {
		ts, seen := newCapturingServer(t, http.StatusCreated, `{"kind":"CronTab"}`)
		c, err := client.RESTClientFor(&client.Config{Host: ts.URL, GroupVersion: &stableV1, QPS: -1,
			BearerToken: "s3cret", UserAgent: "crdlab-test/1"})
		if err != nil {
			t.Fatal(err)
		}
		obj := &unstructured.Unstructured{Object: map[string]any{"kind": "CronTab", "metadata": map[string]any{"name": "a"}}}
		var created bool
		if err := c.Post().Namespace("ns").Resource("crontabs").Body(obj).Do(context.Background()).WasCreated(&created).Error(); err != nil {
			t.Fatal(err)
		}
		if !created {
			t.Error("WasCreated = false on 201")
		}
		got := <-seen
		if got.method != http.MethodPost {
			t.Errorf("method = %s", got.method)
		}
		for h, want := range map[string]string{
			"Content-Type":  "application/json",
			"Accept":        "application/json, */*",
			"Authorization": "Bearer s3cret",
			"User-Agent":    "crdlab-test/1",
		} {
			if v := got.header.Get(h); v != want {
				t.Errorf("%s = %q, want %q", h, v, want)
			}
		}
		if got.body != `{"kind":"CronTab","metadata":{"name":"a"}}` {
			t.Errorf("body = %s", got.body)
		}
	})
	t.Run("PatchBody", func(t *testing.T) {
		ts, seen := newCapturingServer(t, http.StatusOK, `{}`)
		c := newClient(t, ts.URL)
		patch := []byte(`{"spec":{"replicas":3}}`)
		if err := c.Patch(client.MergePatchType).Resource("crontabs").Name("a").Body(patch).Do(context.Background()).Error(); err != nil {
			t.Fatal(err)
		}
		got := <-seen
		if ct := got.header.Get("Content-Type"); ct != string(client.MergePatchType) {
			t.Errorf("Content-Type = %q, want merge patch", ct)
		}
		if got.method != http.MethodPatch || got.body != string(patch) {
			t.Errorf("sent %s %s", got.method, got.body)
		}
		if ua := got.header.Get("User-Agent"); !strings.Contains(ua, "crdlab") {
			t.Errorf("default User-Agent = %q", ua)
		}
		if a := got.header.Get("Authorization"); a != "" {
			t.Errorf("Authorization = %q without a token", a)
		}
	})
	t.Run("NilPointerBodySendsNothing", func(t *testing.T) {
		ts, seen := newCapturingServer(t, http.StatusOK, `{}`)
		c := newClient(t, ts.URL)
		var opts *metav1.DeleteOptions
		if err := c.Delete().Resource("crontabs").Name("a").Body(opts).Do(context.Background()).Error(); err != nil {
			t.Fatal(err)
		}
		if got := <-seen; got.body != "" || got.header.Get("Content-Type") != "" {
			t.Errorf("sent body %q with Content-Type %q", got.body, got.header.Get("Content-Type"))
		}
	})
}

func TestRequest_Timeout(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // never answers
	}))
	defer ts.Close()
	c, err := client.RESTClientFor(&client.Config{Host: ts.URL, GroupVersion: &stableV1, QPS: -1, Timeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Get().Resource("crontabs").Do(context.Background()).Error()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
}

// TestRequest_RateLimited checks that requests wait for the client's limiter
// and watches do not.
func TestRequest_RateLimited(t *testing.T) {
	var sent atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{}`)
	}))
	defer ts.Close()
	fakeClock := clock.NewFakeClock(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	limiter := flowcontrol.NewTokenBucketRateLimiterWithClock(1, 1, fakeClock)
	c, err := client.RESTClientFor(&client.Config{Host: ts.URL, GroupVersion: &stableV1, RateLimiter: limiter})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Get().Resource("crontabs").Do(ctx).Error(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Get().Resource("crontabs").Do(ctx).Error() }()
	for fakeClock.Waiters() == 0 {
		runtime.Gosched()
	}
	if n := sent.Load(); n != 1 {
		t.Fatalf("%d requests sent before the refill, want 1", n)
	}

	// A watch is not throttled: it goes while the request above waits.
	w, err := c.Get().Resource("crontabs").Param("watch", "true").Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w.Stop()
	if n := sent.Load(); n != 2 {
		t.Fatalf("%d requests sent, want the watch to pass", n)
	}

	fakeClock.Step(time.Second)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := sent.Load(); n != 3 {
		t.Fatalf("%d requests sent after the refill, want 3", n)
	}
}

func TestRequest_Stream(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/missing") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404,"message":"gone"}`)
			return
		}
		io.WriteString(w, "line 1\nline 2\n")
	}))
	defer ts.Close()
	c := newClient(t, ts.URL)
	t.Run("OK", func(t *testing.T) {
		rc, err := c.Get().Resource("logs").Name("a").Stream(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if err != nil || string(b) != "line 1\nline 2\n" {
			t.Fatalf("read %q, %v", b, err)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		_, err := c.Get().Resource("logs").Name("missing").Stream(context.Background())
		if reason := statusReason(err); reason != metav1.StatusReasonNotFound {
			t.Fatalf("err = %v, reason %q", err, reason)
		}
	})
}

func TestResult_Into(t *testing.T) {
	ctx := context.Background()
	t.Run("ClearsStaleFields", func(t *testing.T) {
		ts, _ := newCapturingServer(t, http.StatusOK, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}`)
		into := &metav1.PartialObjectMetadata{}
		into.Labels = map[string]string{"stale": "yes"}
		if err := newClient(t, ts.URL).Get().Resource("x").Name("b").Do(ctx).Into(into); err != nil {
			t.Fatal(err)
		}
		if into.Name != "b" || into.Labels != nil {
			t.Fatalf("decoded %+v", into.ObjectMeta)
		}
	})
	t.Run("SuccessStatusIsNoError", func(t *testing.T) {
		ts, _ := newCapturingServer(t, http.StatusOK, `{"kind":"Status","apiVersion":"v1","status":"Success"}`)
		u := &unstructured.Unstructured{}
		if err := newClient(t, ts.URL).Delete().Resource("x").Do(ctx).Into(u); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("FailureStatusIn2xxIsAnError", func(t *testing.T) {
		ts, _ := newCapturingServer(t, http.StatusOK, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Conflict","code":409}`)
		err := newClient(t, ts.URL).Get().Resource("x").Do(ctx).Into(&unstructured.Unstructured{})
		if statusReason(err) != metav1.StatusReasonConflict {
			t.Fatalf("err = %v, want Conflict", err)
		}
	})
	t.Run("ErrEmptyBody", func(t *testing.T) {
		ts, _ := newCapturingServer(t, http.StatusOK, ``)
		var code int
		err := newClient(t, ts.URL).Get().Resource("x").Do(ctx).StatusCode(&code).Into(&unstructured.Unstructured{})
		if err == nil || !strings.Contains(err.Error(), "0-length response") || code != http.StatusOK {
			t.Fatalf("err = %v, code %d", err, code)
		}
	})
}

func TestResult_Get(t *testing.T) {
	ts, _ := newCapturingServer(t, http.StatusOK, `{"apiVersion":"stable.example.com/v1","kind":"CronTabList","metadata":{"resourceVersion":"7"},"items":[{"kind":"CronTab","metadata":{"name":"a"}}]}`)
	obj, err := newClient(t, ts.URL).Get().Resource("crontabs").Do(context.Background()).Get()
	if err != nil {
		t.Fatal(err)
	}
	list, ok := obj.(*unstructured.UnstructuredList)
	if !ok || len(list.Items) != 1 || list.Items[0].GetName() != "a" || list.GetResourceVersion() != "7" {
		t.Fatalf("Get = %#v", obj)
	}
}

// TestRESTClient_Concurrent sends requests from many goroutines through one
// client and one limiter.
func TestRESTClient_Concurrent(t *testing.T) {
	srv := apitest.NewServer(t)
	c, err := client.RESTClientFor(&client.Config{Host: srv.URL, GroupVersion: &stableV1, QPS: 1000, Burst: 1000})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 5 {
				obj := newCronTab("ns", "c-"+string(rune('a'+i))+string(rune('a'+j)))
				if err := c.Post().Namespace("ns").Resource("crontabs").Body(obj).Do(ctx).Error(); err != nil {
					t.Error(err)
				}
				if err := c.Get().Namespace("ns").Resource("crontabs").Do(ctx).Into(&unstructured.UnstructuredList{}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	list := &unstructured.UnstructuredList{}
	if err := c.Get().Namespace("ns").Resource("crontabs").Do(ctx).Into(list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 40 {
		t.Fatalf("%d objects, want 40", len(list.Items))
	}
}

// newCronTab returns a CronTab object named name.
func newCronTab(namespace, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"spec":       map[string]any{"cronSpec": "* * * * */5", "replicas": int64(1)},
	}}
	u.SetNamespace(namespace)
	u.SetName(name)
	return u
}
