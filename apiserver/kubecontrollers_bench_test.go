package apiserver

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// BenchmarkKubeControllers_Create16 is what the namespace controller and
// the garbage collector cost the bench's create16 phase: 16 clients
// POSTing custom resources of about 600 bytes (workload.CRD.Object) over
// loopback HTTP, with the kube controllers on (as crdlab serve runs) and
// off (the bench's crdlab-no-kube-controllers row). It reports the
// process's CPU per create (server and clients: the clients' share is the
// same in both) once the garbage collector's graph holds the last object,
// so that events it has yet to process are counted. Storage does not
// fsync. Profile the "on" case with
//
//	go test -run '^$' -bench 'KubeControllers_Create16/controllers=on' -benchtime 3000x -cpuprofile cpu.out ./apiserver/
func BenchmarkKubeControllers_Create16(b *testing.B) {
	for _, bc := range []struct {
		name        string
		controllers []string
	}{
		{"controllers=on", nil},
		{"controllers=off", []string{"-" + NamespaceControllerName, "-" + GarbageCollectorControllerName}},
	} {
		b.Run(bc.name, func(b *testing.B) { benchKubeControllersCreate(b, bc.controllers) })
	}
}

func benchKubeControllersCreate(b *testing.B, controllers []string) {
	const clients = 16
	s, url := benchServerWith(b, &Config{Controllers: controllers})
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	payload := strings.Repeat("0123456789abcdef", 20)
	// create POSTs custom resource i and returns its UID.
	create := func(i int64) (metav1.UID, error) {
		body := fmt.Sprintf(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c%d","namespace":"default","labels":{"app":"crdbench","shard":"s%d"}},"spec":{"size":%d,"color":"blue","counter":%d,"payload":%q,"tags":["alpha","beta","gamma"]}}`,
			i, i%16, i%1000, i, payload)
		resp, err := c.Post(url+"/apis/stable.example.com/v1/namespaces/default/crontabs", "application/json", strings.NewReader(body))
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusCreated {
			return "", fmt.Errorf("create c%d: HTTP %d: %s", i, resp.StatusCode, out)
		}
		return metav1.UID(fieldOf(out, "uid")), nil
	}
	// seen waits until the garbage collector's graph holds uid (at once
	// when it does not run): its monitors have processed every event
	// before uid's create.
	seen := func(uid metav1.UID) {
		gc := s.kubeControllers.collector.Load()
		if gc == nil {
			return
		}
		for deadline := time.Now().Add(30 * time.Second); !gc.GraphHasUID(uid); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatalf("the garbage collector did not see %s within 30s", uid)
			}
		}
	}
	// A first create: the collector monitors crontabs once discovery
	// told it of the CRD.
	var next atomic.Int64
	uid, err := create(next.Add(1))
	if err != nil {
		b.Fatal(err)
	}
	seen(uid)

	cpu0, start := cpuTime(), time.Now()
	b.ReportAllocs()
	b.ResetTimer()
	n := int64(b.N)
	var (
		wg     sync.WaitGroup
		failed atomic.Pointer[error]
	)
	for range clients {
		wg.Go(func() {
			for i := next.Add(1); i <= n+1; i = next.Add(1) {
				if _, err := create(i); err != nil {
					failed.CompareAndSwap(nil, &err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		b.Fatal(*err)
	}
	// One more create, after every other one: once the collector has it,
	// it has them all.
	if uid, err = create(n + 2); err != nil {
		b.Fatal(err)
	}
	seen(uid)
	b.StopTimer()
	elapsed := time.Since(start)
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N+1), "cpu-ms/create")
	b.ReportMetric(float64(b.N+1)/elapsed.Seconds(), "creates/s")
}

// fieldOf is the first string value of key in a JSON object (enough for
// the uid of an object just created).
func fieldOf(body []byte, key string) string {
	k := []byte(`"` + key + `":"`)
	i := bytes.Index(body, k)
	if i < 0 {
		return ""
	}
	rest := body[i+len(k):]
	return string(rest[:bytes.IndexByte(rest, '"')])
}
