package v1

import (
	"encoding/json"
	"time"
)

// Time is a time.Time that travels as RFC 3339 with second precision, and as
// null when zero — exactly as upstream's metav1.Time.
type Time struct {
	time.Time
}

// NewTime wraps t, truncated to seconds as upstream stores it.
func NewTime(t time.Time) Time { return Time{t.UTC().Truncate(time.Second)} }

// Now is NewTime(time.Now()).
func Now() Time { return NewTime(time.Now()) }

// MarshalJSON writes "2006-01-02T15:04:05Z" or null.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(t.UTC().Format(time.RFC3339))
}

// UnmarshalJSON reads RFC 3339 or null.
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pt, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	t.Time = pt.Local()
	return nil
}

// IsZero reports whether t is unset (nil-safe, like upstream).
func (t *Time) IsZero() bool { return t == nil || t.Time.IsZero() }

// Equal compares two possibly nil times.
func (t *Time) Equal(u *Time) bool {
	if t.IsZero() || u.IsZero() {
		return t.IsZero() && u.IsZero()
	}
	return t.Time.Equal(u.Time)
}
