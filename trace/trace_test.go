package trace_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/trace"
)

func TestNilTracerIsOff(t *testing.T) {
	var tr *trace.Tracer
	require.False(t, tr.Enabled())
	tr.Emit(trace.Event{Component: trace.Storage}) // no panic
	require.Nil(t, tr.Recent(0))
	require.Nil(t, tr.Subscribe(0, 1))
}

func TestEmitNumbersAndKeepsRecent(t *testing.T) {
	var log bytes.Buffer
	now := time.Date(2026, 11, 29, 18, 20, 1, 234e6, time.UTC)
	tr := trace.New(trace.Options{History: 3, Log: &log, Now: func() time.Time { return now }})
	require.True(t, tr.Enabled())
	for _, key := range []string{"a", "b", "c", "d"} {
		tr.Emit(trace.Event{Component: trace.Storage, Step: "commit", Key: key})
	}
	got := tr.Recent(0)
	require.Len(t, got, 3, "the ring keeps History events")
	require.Equal(t, []uint64{2, 3, 4}, []uint64{got[0].Seq, got[1].Seq, got[2].Seq})
	require.Equal(t, "b", got[0].Key)
	require.Equal(t, now, got[0].Time)
	require.Len(t, tr.Recent(3), 1)
	require.Equal(t, uint64(4), tr.Seq())
	require.Equal(t, now, tr.Started())
	require.Empty(t, tr.Recent(4))
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	require.Len(t, lines, 4)
	require.Equal(t, "18:20:01.234 #1 storage    commit    a", lines[0])
}

func TestSubscribeReplaysThenFollows(t *testing.T) {
	tr := trace.New(trace.Options{})
	tr.Emit(trace.Event{Step: "one"})
	tr.Emit(trace.Event{Step: "two"})
	s := tr.Subscribe(1, 2)
	defer s.Close()
	require.Len(t, s.Replay, 1)
	require.Equal(t, "two", s.Replay[0].Step)

	tr.Emit(trace.Event{Step: "three"})
	tr.Emit(trace.Event{Step: "four"})
	tr.Emit(trace.Event{Step: "five"}) // the buffer holds 2: dropped
	require.Equal(t, "three", (<-s.C).Step)
	require.Equal(t, "four", (<-s.C).Step)
	require.Equal(t, uint64(1), s.Dropped())

	s.Close()
	s.Close()
	_, open := <-s.C
	require.False(t, open)
	tr.Emit(trace.Event{Step: "six"}) // no subscriber: no panic
}

func TestFormat(t *testing.T) {
	e := trace.Event{
		Seq: 42, Time: time.Date(2026, 11, 29, 18, 20, 1, 234e6, time.UTC),
		Component: trace.Storage, Step: "commit", Actor: "kubectl",
		Resource: "customresourcedefinitions.apiextensions.k8s.io", Key: "crontabs.stable.example.com",
		ResourceVersion: "42", Duration: 812 * time.Microsecond, Message: "stored", Err: "boom",
		Upstream: "k8s.io/apiserver/pkg/storage/etcd3.(*store).Create",
	}
	require.Equal(t, "18:20:01.234 #42 storage    commit    (kubectl) customresourcedefinitions.apiextensions.k8s.io "+
		"crontabs.stable.example.com rv=42 (812µs): stored error: boom [k8s.io/apiserver/pkg/storage/etcd3.(*store).Create]",
		trace.Format(e))
}

func TestEventJSON(t *testing.T) {
	b, err := json.Marshal(trace.Event{Seq: 1, Time: time.Unix(0, 0).UTC(), Component: trace.Watch, Step: "fanout", Duration: time.Millisecond})
	require.NoError(t, err)
	require.JSONEq(t, `{"seq":1,"time":"1970-01-01T00:00:00Z","component":"watch","step":"fanout","duration":1000000,"message":""}`, string(b))
}

func TestUpstreamURL(t *testing.T) {
	for in, want := range map[string]string{
		"": "",
		"k8s.io/client-go/tools/cache.(*DeltaFIFO).Pop":           "https://pkg.go.dev/k8s.io/client-go/tools/cache#DeltaFIFO.Pop",
		"k8s.io/apiserver/pkg/storage/etcd3.(*store).Create":      "https://pkg.go.dev/k8s.io/apiserver/pkg/storage/etcd3#store.Create",
		"k8s.io/apiserver/pkg/endpoints/handlers.CreateResource":  "https://pkg.go.dev/k8s.io/apiserver/pkg/endpoints/handlers#CreateResource",
		"k8s.io/apiextensions-apiserver/pkg/controller/establish": "https://pkg.go.dev/k8s.io/apiextensions-apiserver/pkg/controller/establish",
		"k8s.io/client-go/util/workqueue.(*Typed).Add":            "https://pkg.go.dev/k8s.io/client-go/util/workqueue#Typed.Add",
	} {
		require.Equal(t, want, trace.UpstreamURL(in), in)
	}
}
