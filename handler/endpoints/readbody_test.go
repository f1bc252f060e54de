package endpoints

import (
	"bytes"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadBody reads what io.ReadAll reads, whatever Content-Length says
// (exact, short, long, absent, beyond what is presized) and however the
// body comes (in small reads, with an error).
func TestReadBody(t *testing.T) {
	body := strings.Repeat("0123456789", 1000)
	tests := []struct {
		name   string
		length int64
		reader func() io.Reader
	}{
		{"Exact", int64(len(body)), func() io.Reader { return strings.NewReader(body) }},
		{"ExactInSmallReads", int64(len(body)), func() io.Reader { return iotest.OneByteReader(strings.NewReader(body)) }},
		{"SaysLess", 10, func() io.Reader { return strings.NewReader(body) }},
		{"SaysMore", int64(len(body)) * 3, func() io.Reader { return strings.NewReader(body) }},
		{"Unknown", -1, func() io.Reader { return strings.NewReader(body) }},
		{"BeyondPresized", maxPresizedBody + 1, func() io.Reader { return strings.NewReader(body) }},
		{"Empty", 0, func() io.Reader { return strings.NewReader("") }},
		{"ErrRead", int64(len(body)), func() io.Reader {
			return io.MultiReader(strings.NewReader(body[:100]), iotest.ErrReader(errors.New("cut")))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/", tt.reader())
			r.ContentLength = tt.length
			got, err := readBody(r)
			want, wantErr := io.ReadAll(tt.reader())
			if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) {
				t.Errorf("readBody = %d bytes, %v; io.ReadAll %d bytes, %v", len(got), err, len(want), wantErr)
			}
		})
	}
}
