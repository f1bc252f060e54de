package v1

import (
	"encoding/json"
	"time"
)

// RFC3339Micro is the layout of MicroTime on the wire.
const RFC3339Micro = "2006-01-02T15:04:05.000000Z07:00"

// MicroTime is a Time with microsecond precision: Events' eventTime and
// Leases' acquireTime and renewTime travel in it.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime.
type MicroTime struct {
	time.Time
}

// NewMicroTime wraps t, truncated to microseconds.
func NewMicroTime(t time.Time) MicroTime { return MicroTime{t.Truncate(time.Microsecond)} }

// NowMicro is NewMicroTime(time.Now()).
func NowMicro() MicroTime { return NewMicroTime(time.Now()) }

// MarshalJSON writes "2006-01-02T15:04:05.000000Z" or null.
func (t MicroTime) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(t.UTC().Format(RFC3339Micro))
}

// UnmarshalJSON reads RFC3339Micro or null, as upstream: a time with
// another number of fractional digits is an error.
func (t *MicroTime) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pt, err := time.Parse(RFC3339Micro, s)
	if err != nil {
		return err
	}
	t.Time = pt.Local()
	return nil
}

// IsZero reports whether t is unset (nil-safe, like upstream).
func (t *MicroTime) IsZero() bool { return t == nil || t.Time.IsZero() }

// OpenAPISchemaType and OpenAPISchemaFormat describe MicroTime in OpenAPI:
// a date-time string, as upstream's.
func (MicroTime) OpenAPISchemaType() []string { return []string{"string"} }
func (MicroTime) OpenAPISchemaFormat() string { return "date-time" }
