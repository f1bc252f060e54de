package duration

import (
	"testing"
	"time"
)

func TestHumanDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{-2 * time.Second, "<invalid>"},
		{-500 * time.Millisecond, "0s"},
		{45 * time.Second, "45s"},
		{119 * time.Second, "119s"},
		{5*time.Minute + 10*time.Second, "5m10s"},
		{5 * time.Minute, "5m"},
		{90 * time.Minute, "90m"},
		{3*time.Hour + 20*time.Minute, "3h20m"},
		{30 * time.Hour, "30h"},
		{52 * time.Hour, "2d4h"},
		{40 * 24 * time.Hour, "40d"},
		{(365*3 + 20) * 24 * time.Hour, "3y20d"},
		{365 * 9 * 24 * time.Hour, "9y"},
	} {
		if got := HumanDuration(tc.d); got != tc.want {
			t.Errorf("HumanDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
