package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/scheme"
)

func statusReason(err error) metav1.StatusReason { return apierrors.ReasonForError(err) }

// answering returns a server that answers every request with code,
// contentType and body.
func answering(t *testing.T, code int, contentType, body string) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(code)
		io.WriteString(w, body)
	}))
	t.Cleanup(ts.Close)
	return ts
}

func statusBody(t *testing.T, err *apierrors.StatusError) string {
	t.Helper()
	b, jerr := json.Marshal(err.ErrStatus)
	if jerr != nil {
		t.Fatal(jerr)
	}
	return string(b)
}

// TestRequest_StatusErrors sends the Status bodies crdlab's server answers
// with and checks that the client returns them whole, as *StatusError.
func TestRequest_StatusErrors(t *testing.T) {
	gr := scheme.GroupResource{Group: "stable.example.com", Resource: "crontabs"}
	for _, tc := range []struct {
		name string
		err  *apierrors.StatusError
		is   func(error) bool
	}{
		{"NotFound", apierrors.NewNotFound(gr, "a"), apierrors.IsNotFound},
		{"AlreadyExists", apierrors.NewAlreadyExists(gr, "a"), apierrors.IsAlreadyExists},
		{"Conflict", apierrors.NewConflict(gr, "a", errors.New(apierrors.OptimisticLockErrorMsg)), apierrors.IsConflict},
		{"Invalid", apierrors.NewInvalid(scheme.GroupKind{Group: "stable.example.com", Kind: "CronTab"}, "a",
			[]metav1.StatusCause{{Type: metav1.CauseTypeFieldValueInvalid, Field: "spec.replicas", Message: "must be >= 0"}}), apierrors.IsInvalid},
		{"Expired", apierrors.NewResourceExpired("too old resource version: 1 (5)"), apierrors.IsResourceExpired},
		{"Gone", apierrors.NewGone("gone"), apierrors.IsGone},
		{"InternalError", apierrors.NewInternalError(errors.New("boom")), apierrors.IsInternalError},
		{"UnsupportedMediaType", apierrors.NewUnsupportedMediaType("application/strategic-merge-patch+json",
			[]string{"application/merge-patch+json"}), apierrors.IsUnsupportedMediaType},
		{"TooManyRequests", apierrors.NewTooManyRequests("slow down", 2), apierrors.IsTooManyRequests},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := answering(t, int(tc.err.ErrStatus.Code), "application/json", statusBody(t, tc.err))
			err := newClient(t, ts.URL).Get().Resource("crontabs").Name("a").Do(context.Background()).Into(&unstructured.Unstructured{})
			var se *apierrors.StatusError
			if !errors.As(err, &se) {
				t.Fatalf("err = %T %v, want *StatusError", err, err)
			}
			if !tc.is(err) {
				t.Fatalf("Is%s(%v) = false", tc.name, err)
			}
			if !tc.is(fmt.Errorf("syncing crontab: %w", err)) {
				t.Fatalf("Is%s is false on the wrapped error", tc.name)
			}
			if se.ErrStatus.Code != tc.err.ErrStatus.Code || se.Error() != tc.err.Error() {
				t.Fatalf("got %d %q, want %d %q", se.ErrStatus.Code, se.Error(), tc.err.ErrStatus.Code, tc.err.Error())
			}
			if tc.err.ErrStatus.Details != nil && len(tc.err.ErrStatus.Details.Causes) > 0 {
				if got := se.ErrStatus.Details.Causes[0]; got != tc.err.ErrStatus.Details.Causes[0] {
					t.Fatalf("cause = %+v", got)
				}
			}
			if client.IsUnexpectedServerError(err) {
				t.Fatal("a Status from the server counted as unexpected")
			}
		})
	}
	t.Run("StatusWithoutCodeGetsHTTPCode", func(t *testing.T) {
		ts := answering(t, http.StatusNotFound, "application/json", `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","message":"x"}`)
		err := newClient(t, ts.URL).Get().Resource("crontabs").Name("a").Do(context.Background()).Error()
		if apierrors.CodeForError(err) != http.StatusNotFound || !apierrors.IsNotFound(err) {
			t.Fatalf("err = %v, code %d", err, apierrors.CodeForError(err))
		}
	})
}

// TestRequest_UnstructuredErrors sends bodies that are not a Status (a
// proxy's page, a panic's text) and checks the reason made from the code.
func TestRequest_UnstructuredErrors(t *testing.T) {
	for _, tc := range []struct {
		name              string
		verb              string
		code              int
		contentType, body string
		reason            metav1.StatusReason
		message           string
	}{
		{"NotFoundText", http.MethodGet, 404, "text/plain; charset=utf-8", "404 page not found\n", metav1.StatusReasonNotFound,
			`the server could not find the requested resource (get crontabs.stable.example.com a)`},
		{"ConflictOnPostIsAlreadyExists", http.MethodPost, 409, "", "exists", metav1.StatusReasonAlreadyExists,
			`the server reported a conflict (post crontabs.stable.example.com a)`},
		{"ConflictOnPut", http.MethodPut, 409, "", "stale", metav1.StatusReasonConflict,
			`the server reported a conflict (put crontabs.stable.example.com a)`},
		{"Invalid", http.MethodPut, 422, "text/plain", "bad", metav1.StatusReasonInvalid,
			`the server rejected our request due to an error in our request (put crontabs.stable.example.com a)`},
		{"GoneHasNoReason", http.MethodGet, 410, "text/plain", "gone", metav1.StatusReasonUnknown,
			`the server responded with the status code 410 but did not return more information (get crontabs.stable.example.com a)`},
		{"InternalErrorQuotesText", http.MethodGet, 500, "text/plain", "panic: nil map\n", metav1.StatusReasonInternalError,
			`an error on the server ("panic: nil map") has prevented the request from succeeding (get crontabs.stable.example.com a)`},
		{"HTMLIsQuotedToo", http.MethodGet, 502, "text/html", "<html>bad gateway</html>", metav1.StatusReasonInternalError,
			`an error on the server ("<html>bad gateway</html>") has prevented the request from succeeding (get crontabs.stable.example.com a)`},
		{"JSONButNotStatus", http.MethodGet, 503, "application/json", `{"error":"down"}`, metav1.StatusReasonServiceUnavailable,
			`the server is currently unable to handle the request (get crontabs.stable.example.com a)`},
		{"TooManyRequests", http.MethodGet, 429, "", "", metav1.StatusReasonTooManyRequests,
			`the server has received too many requests and has asked us to try again later (get crontabs.stable.example.com a)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := answering(t, tc.code, tc.contentType, tc.body)
			err := newClient(t, ts.URL).Verb(tc.verb).Resource("crontabs").Name("a").Do(context.Background()).Error()
			var se *apierrors.StatusError
			if !errors.As(err, &se) {
				t.Fatalf("err = %T %v, want *StatusError", err, err)
			}
			if se.ErrStatus.Reason != tc.reason || se.ErrStatus.Code != int32(tc.code) {
				t.Errorf("reason, code = %q, %d; want %q, %d", se.ErrStatus.Reason, se.ErrStatus.Code, tc.reason, tc.code)
			}
			if se.Error() != tc.message {
				t.Errorf("message\n got %s\nwant %s", se.Error(), tc.message)
			}
			if d := se.ErrStatus.Details; d == nil || d.RetryAfterSeconds != 3 || d.Kind != "crontabs" || d.Name != "a" {
				t.Errorf("details = %+v", d)
			}
			if !client.IsUnexpectedServerError(fmt.Errorf("wrapped: %w", err)) {
				t.Error("IsUnexpectedServerError = false")
			}
		})
	}
	t.Run("JSONMessageIsUnknown", func(t *testing.T) {
		ts := answering(t, 500, "application/json", `{"error":"x"}`)
		err := newClient(t, ts.URL).Get().AbsPath("/healthz").Do(context.Background()).Error()
		if !strings.Contains(err.Error(), `("unknown")`) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("DoRaw", func(t *testing.T) {
		ts := answering(t, 404, "text/plain", "nope")
		body, err := newClient(t, ts.URL).Get().AbsPath("/version").DoRaw(context.Background())
		if !apierrors.IsNotFound(err) || string(body) != "nope" {
			t.Fatalf("DoRaw = %q, %v", body, err)
		}
	})
}
