package responsewriters

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/crdlab/crdlab/handler/negotiation"
	"sigs.k8s.io/yaml"
)

// WriteError answers err as a metav1.Status (always JSON), with the code
// ErrorToStatus gives it. A 429 or 503 carrying retryAfterSeconds also
// sets Retry-After, as upstream does.
//
// Mirrors ErrorNegotiated in responsewriters/writers.go.
func WriteError(w http.ResponseWriter, err error) {
	st := ErrorToStatus(err).ErrStatus
	if d := st.Details; d != nil && d.RetryAfterSeconds > 0 &&
		(st.Code == http.StatusTooManyRequests || st.Code == http.StatusServiceUnavailable || st.Code == http.StatusGatewayTimeout) {
		w.Header().Set("Retry-After", strconv.Itoa(int(d.RetryAfterSeconds)))
	}
	body, mErr := json.Marshal(st)
	if mErr != nil {
		http.Error(w, mErr.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", negotiation.MediaTypeJSON)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(int(st.Code))
	_, _ = w.Write(append(body, '\n'))
}

// WriteObject answers obj (anything encoding/json can marshal) with code,
// in the representation opts names.
//
// Mirrors WriteObjectNegotiated in responsewriters/writers.go.
func WriteObject(w http.ResponseWriter, opts negotiation.Options, code int, obj any) {
	body, err := Marshal(opts, obj)
	if err != nil {
		WriteError(w, err)
		return
	}
	w.Header().Set("Content-Type", opts.ContentType())
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

// WriteEncoded answers an object already written as compact JSON, b, as
// WriteObject answers a JSONAppender that appends b, without copying b
// into a new body: a real-size CRD's answer is a quarter of a megabyte,
// and each copy was garbage at once.
func WriteEncoded(w http.ResponseWriter, opts negotiation.Options, code int, b []byte) {
	if opts.Pretty || opts.MediaType == negotiation.MediaTypeYAML {
		WriteObject(w, opts, code, EncodedJSON(b))
		return
	}
	w.Header().Set("Content-Type", opts.ContentType())
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	if _, err := w.Write(b); err == nil {
		_, _ = w.Write(newline)
	}
}

var newline = []byte{'\n'}

// EncodedJSON is an object or document already written as compact JSON:
// written as it is (json.RawMessage would have encoding/json validate and
// compact it again), and indented or turned into YAML only when the
// client asks for that.
type EncodedJSON []byte

// MarshalJSON returns it (for indented and YAML answers).
func (b EncodedJSON) MarshalJSON() ([]byte, error) { return b, nil }

// AppendJSON appends it (JSONAppender).
func (b EncodedJSON) AppendJSON(dst []byte) ([]byte, error) { return append(dst, b...), nil }

// WriteJSON answers obj as plain JSON.
func WriteJSON(w http.ResponseWriter, code int, obj any) {
	WriteObject(w, negotiation.Options{MediaType: negotiation.MediaTypeJSON}, code, obj)
}

// JSONAppender is an object that writes its own JSON: AppendJSON appends
// exactly what encoding/json's Marshal would write for it (compact, valid)
// to dst. Marshal uses it instead of encoding/json, which would reflect
// over the object and then scan the output of its MarshalJSON method again
// to validate and compact it; for a list of thousands of custom resources
// that second pass alone is a quarter of the encoding time.
type JSONAppender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// Marshal encodes obj as opts asks: JSON (indented if Pretty) followed by
// a newline, or YAML.
func Marshal(opts negotiation.Options, obj any) ([]byte, error) {
	var body []byte
	var err error
	if a, ok := obj.(JSONAppender); ok && !opts.Pretty {
		body, err = a.AppendJSON(nil)
	} else if opts.Pretty {
		body, err = json.MarshalIndent(obj, "", "  ")
	} else {
		body, err = json.Marshal(obj)
	}
	if err != nil {
		return nil, err
	}
	if opts.MediaType == negotiation.MediaTypeYAML {
		return yaml.JSONToYAML(body)
	}
	return append(body, '\n'), nil
}
