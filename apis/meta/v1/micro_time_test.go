package v1

import (
	"encoding/json"
	"testing"
	"time"
)

func TestMicroTime_JSON(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		in := NewMicroTime(time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC))
		b, err := json.Marshal(in)
		if err != nil || string(b) != `"2026-01-02T03:04:05.123456Z"` {
			t.Fatalf("marshal = %s, %v", b, err)
		}
		var out MicroTime
		if err := json.Unmarshal(b, &out); err != nil || !out.Equal(in.Time) {
			t.Fatalf("unmarshal = %v, %v", out, err)
		}
	})
	t.Run("Null", func(t *testing.T) {
		b, _ := json.Marshal(MicroTime{})
		var out MicroTime
		if string(b) != "null" || json.Unmarshal(b, &out) != nil || !out.IsZero() {
			t.Errorf("zero time: %s", b)
		}
	})
	t.Run("ErrSecondPrecision", func(t *testing.T) {
		// Upstream's layout has exactly six fractional digits.
		var out MicroTime
		if err := json.Unmarshal([]byte(`"2026-01-02T03:04:05Z"`), &out); err == nil {
			t.Error("a time without microseconds was accepted")
		}
	})
}
