package limits_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/crdlab/crdlab/apiserver/limits"
)

// With every read-only slot taken, the next read is answered at once with
// 429 and Retry-After; /readyz still answers.
func ExampleLimiter_Handler() {
	l := limits.New(limits.Config{MaxRequestsInFlight: 1}, nil)
	release := make(chan struct{})
	started := make(chan struct{})
	h := l.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/readyz" {
			fmt.Fprint(w, "ok")
			return
		}
		close(started)
		<-release // a slow list
	}))
	go h.ServeHTTP(httptest.NewRecorder(), newRequest("GET", crontabs, nil))
	<-started

	w := httptest.NewRecorder()
	h.ServeHTTP(w, newRequest("GET", crontabs, nil))
	fmt.Println(w.Code, "Retry-After:", w.Header().Get("Retry-After"))
	w = httptest.NewRecorder()
	h.ServeHTTP(w, newRequest("GET", "/readyz", nil))
	fmt.Println(w.Code, w.Body)
	close(release)
	// Output:
	// 429 Retry-After: 1
	// 200 ok
}
