package bolt

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestCompactionTarget(t *testing.T) {
	t0 := time.Unix(1000, 0)
	samples := []revSample{{t0, 10}, {t0.Add(time.Minute), 50}, {t0.Add(2 * time.Minute), 80}}
	now := t0.Add(2*time.Minute + 30*time.Second)
	cases := []struct {
		name     string
		keepRevs int64
		keepAge  time.Duration
		want     int64
	}{
		{"RevisionsOnly", 30, 0, 70},
		{"RevisionsMoreThanHistory", 500, 0, 0},
		{"AgeOnly", 0, 90 * time.Second, 50},      // the newest sample at least 90s old
		{"AgeNoSampleOldEnough", 0, time.Hour, 0}, // nothing old enough yet
		{"BothKeepsTheLargerWindow", 30, 90 * time.Second, 50},
		{"BothKeepsTheLargerWindowByRevisions", 90, 90 * time.Second, 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := compactionTarget(append([]revSample(nil), samples...), now, 100, c.keepRevs, c.keepAge)
			require.Equal(t, c.want, got)
		})
	}
	t.Run("OldSamplesAreDropped", func(t *testing.T) {
		_, left := compactionTarget(append([]revSample(nil), samples...), now, 100, 0, 90*time.Second)
		require.Equal(t, samples[1:], left)
	})
}
