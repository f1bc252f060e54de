package v1_test

import (
	"encoding/json"
	"testing"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

func TestTime_JSONRoundTrip(t *testing.T) {
	in := metav1.NewTime(time.Date(2024, 5, 1, 10, 0, 0, 999, time.FixedZone("X", 3600)))
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `"2024-05-01T09:00:00Z"` {
		t.Errorf("Marshal = %s, want UTC RFC 3339 with seconds", b)
	}
	var out metav1.Time
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !out.Equal(&in) {
		t.Errorf("round trip: %v != %v", out, in)
	}
}

func TestTime_Null(t *testing.T) {
	var zero metav1.Time
	if b, _ := json.Marshal(zero); string(b) != "null" {
		t.Errorf("zero time = %s, want null", b)
	}
	out := metav1.Now()
	if err := json.Unmarshal([]byte("null"), &out); err != nil || !out.IsZero() {
		t.Errorf("null → %v, %v", out, err)
	}
	var nilTime *metav1.Time
	if !nilTime.IsZero() || !nilTime.Equal(nil) {
		t.Error("nil-safe IsZero/Equal")
	}
	if err := json.Unmarshal([]byte(`"yesterday"`), &out); err == nil {
		t.Error("a non-RFC 3339 string should fail")
	}
}

func TestObjectMeta_CreationTimestampNull(t *testing.T) {
	b, _ := json.Marshal(metav1.ObjectMeta{Name: "a"})
	if string(b) != `{"name":"a","creationTimestamp":null}` {
		t.Errorf("got %s (upstream prints creationTimestamp: null)", b)
	}
}
