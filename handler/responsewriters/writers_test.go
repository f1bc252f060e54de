package responsewriters_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/crdlab/crdlab/handler/negotiation"
	"github.com/crdlab/crdlab/handler/responsewriters"
)

// appender is a JSONAppender of fixed JSON; encoding/json writes it the
// same (JSONAppender's contract).
type appender []byte

func (a appender) MarshalJSON() ([]byte, error) { return a, nil }

func (a appender) AppendJSON(dst []byte) ([]byte, error) { return append(dst, a...), nil }

// TestWriteEncoded checks that WriteEncoded answers what WriteObject
// answers for an object writing the same JSON: code, headers and body, in
// JSON, indented JSON and YAML.
func TestWriteEncoded(t *testing.T) {
	const js = `{"kind":"Widget","spec":{"size":3,"tags":["a","b"]}}`
	for _, opts := range []negotiation.Options{
		{MediaType: negotiation.MediaTypeJSON},
		{MediaType: negotiation.MediaTypeJSON, Pretty: true},
		{MediaType: negotiation.MediaTypeYAML},
	} {
		t.Run(opts.ContentType(), func(t *testing.T) {
			got, want := httptest.NewRecorder(), httptest.NewRecorder()
			responsewriters.WriteEncoded(got, opts, http.StatusCreated, []byte(js))
			responsewriters.WriteObject(want, opts, http.StatusCreated, appender(js))
			if got.Code != want.Code {
				t.Errorf("code %d, want %d", got.Code, want.Code)
			}
			for _, h := range []string{"Content-Type", "X-Content-Type-Options"} {
				if got.Header().Get(h) != want.Header().Get(h) {
					t.Errorf("%s %q, want %q", h, got.Header().Get(h), want.Header().Get(h))
				}
			}
			if got.Body.String() != want.Body.String() {
				t.Errorf("body %q, want %q", got.Body, want.Body)
			}
		})
	}
}
