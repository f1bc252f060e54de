package apiserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/trace"
)

func getState(t *testing.T, url, token string) State {
	t.Helper()
	code, body := call(t, nil, "GET", url+StatePath, token, "")
	require.Equal(t, 200, code, body)
	var st State
	require.NoError(t, json.Unmarshal([]byte(body), &st))
	return st
}

// TestDebug_TracingOff checks the endpoints of a server without a tracer:
// the event stream says tracing is off, the state and the page work.
func TestDebug_TracingOff(t *testing.T) {
	ts := startServer(t, Config{})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })

	code, body := get(t, ts.url+TraceEventsPath)
	require.Equal(t, 404, code)
	require.Contains(t, body, `"reason":"NotFound"`)
	require.Contains(t, body, `tracing is off: start the server with \"crdlab serve --trace\"`)

	st := getState(t, ts.url, "")
	require.False(t, st.Tracing)
	require.NotEmpty(t, st.Queues, "the controllers' queues report to the state")
	require.Equal(t, []InformerState{{Name: "customresourcedefinitions", CacheSize: 0, Synced: true}}, st.Informers)

	code, body = get(t, ts.url+"/ui")
	require.Equal(t, 200, code, "/ui redirects to /ui/, which serves the page")
	require.Contains(t, body, "<html")
}

// TestDebug_AccessWithTokens checks that with authentication on, the
// debug endpoints need a token and the static page does not.
func TestDebug_AccessWithTokens(t *testing.T) {
	tokens := writeFile(t, "tokens.csv", "alice-token,alice,1\n")
	ts := startServer(t, Config{Authentication: AuthenticationConfig{TokenFile: tokens}, Tracer: trace.New(trace.Options{})})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	for _, p := range []string{StatePath, TraceEventsPath} {
		code, body := call(t, nil, "GET", ts.url+p, "", "")
		require.Equal(t, 401, code, "%s without a token: %s", p, body)
	}
	code, _ := call(t, nil, "GET", ts.url+UIPath, "", "")
	require.Equal(t, 200, code)
	require.True(t, getState(t, ts.url, "alice-token").Tracing)
}

// sseReader reads the "events" messages of a /debug/crdlab/events
// stream.
type sseReader struct {
	resp   *http.Response
	events chan trace.Event
	hello  chan string
}

func openEvents(t *testing.T, url string) *sseReader {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", url+TraceEventsPath, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	require.Equal(t, 200, resp.StatusCode)
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	r := &sseReader{resp: resp, events: make(chan trace.Event, 1<<16), hello: make(chan string, 1)}
	t.Cleanup(func() { cancel(); resp.Body.Close() })
	go func() {
		defer close(r.events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 16<<20)
		var name string
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && name == "hello":
				r.hello <- strings.TrimPrefix(line, "data: ")
			case strings.HasPrefix(line, "data: ") && name == "events":
				var batch []trace.Event
				if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &batch) != nil {
					return
				}
				for _, e := range batch {
					r.events <- e
				}
			}
		}
	}()
	return r
}

// TestDebug_TraceCRDJourney follows a CRD from its POST to Established
// through the event stream, and checks the state endpoint on the way.
func TestDebug_TraceCRDJourney(t *testing.T) {
	tr := trace.New(trace.Options{})
	ts := startServer(t, Config{Tracer: tr})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	stream := openEvents(t, ts.url)
	select {
	case hello := <-stream.hello:
		require.Contains(t, hello, `"tracing":true`)
		require.Contains(t, hello, `"started":"`+tr.Started().UTC().Format(time.RFC3339Nano)+`"`)
		require.Contains(t, hello, fmt.Sprintf(`"seq":%d`, tr.Seq()), "nothing happened since: hello has the last seq")
	case <-time.After(10 * time.Second):
		t.Fatal("no hello")
	}

	require.Equal(t, 201, post(t, ts.url+"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crdJSON))
	const name = "crontabs.stable.example.com"

	// Read until a controller reports the CRD Established.
	var seen []string // components, in order of first appearance for the CRD
	var steps []string
	deadline := time.After(15 * time.Second)
	for established := false; !established; {
		select {
		case e, ok := <-stream.events:
			require.True(t, ok, "the stream ended")
			if e.Key != name {
				continue
			}
			steps = append(steps, e.Component+"/"+e.Step)
			if !slices.Contains(seen, e.Component) {
				seen = append(seen, e.Component)
			}
			established = e.Component == trace.Controller && e.Step == "status" && strings.Contains(e.Message, "Established")
		case <-deadline:
			t.Fatalf("no Established status event; saw %v", steps)
		}
	}
	for _, c := range trace.Components {
		require.Contains(t, seen, c, "the CRD's path %v", seen)
	}
	// The write goes in before it comes out: handler, registry and
	// storage, then the watch that sends it (the fan-out, or a watcher
	// catching up from history, records its row before the send), and
	// only then the informer side.
	require.Equal(t, []string{trace.Handler, trace.Registry, trace.Storage, trace.Watch}, seen[:4])

	eventually(t, "state shows the CRD Established", func() bool {
		for _, c := range getState(t, ts.url, "").CRDs {
			if c.Name == name {
				for _, cond := range c.Conditions {
					if cond.Type == apiextensionsv1.Established && cond.Status == apiextensionsv1.ConditionTrue {
						return true
					}
				}
			}
		}
		return false
	})
	st := getState(t, ts.url, "")
	require.True(t, st.Tracing)
	require.Positive(t, st.Revision)
	require.Equal(t, 1, st.Informers[0].CacheSize)
	var adds int64
	for _, q := range st.Queues {
		adds += q.Adds
	}
	require.Positive(t, adds, "queues counted the CRD's keys: %+v", st.Queues)
	require.Equal(t, []string{"v1"}, st.CRDs[0].Versions)
}
