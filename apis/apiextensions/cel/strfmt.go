package cel

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// How string fields with a format become CEL durations and timestamps:
// kube-openapi's strfmt parsers, which accept more than CEL's own
// duration() and timestamp() ("3d", "2 hours", "2024-01-02T03:04:05").

var (
	durationUnits = [][]string{
		{"ns", "nano"},
		{"us", "µs", "micro"},
		{"ms", "milli"},
		{"s", "sec"},
		{"m", "min"},
		{"h", "hr", "hour"},
		{"d", "day"},
		{"w", "wk", "week"},
	}
	durationMultiplier = map[string]time.Duration{
		"ns": time.Nanosecond, "us": time.Microsecond, "ms": time.Millisecond, "s": time.Second,
		"m": time.Minute, "h": time.Hour, "d": 24 * time.Hour, "w": 7 * 24 * time.Hour,
	}
	durationMatcher = regexp.MustCompile(`((\d+)\s*([A-Za-zµ]+))`)
)

// parseStrfmtDuration mirrors strfmt.ParseDuration: Go's syntax, or a sum
// of "<n> <unit>" terms where a unit may be spelled out ("3 days").
func parseStrfmtDuration(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	var d time.Duration
	ok := false
	for _, m := range durationMatcher.FindAllStringSubmatch(s, -1) {
		factor, err := strconv.Atoi(m[2])
		if err != nil {
			return 0, err
		}
		unit := strings.ToLower(strings.TrimSpace(m[3]))
		for _, variants := range durationUnits {
			last := len(variants) - 1
			mult := durationMultiplier[variants[0]]
			for i, v := range variants {
				if (last == i && strings.HasPrefix(unit, v)) || strings.EqualFold(v, unit) {
					ok = true
					d += time.Duration(factor) * mult
				}
			}
		}
	}
	if ok {
		return d, nil
	}
	return 0, fmt.Errorf("unable to parse %s as duration", s)
}

// dateTimeLayouts are tried in order by strfmt.ParseDateTime.
var dateTimeLayouts = []string{
	"2006-01-02T15:04:05.000000Z07:00",
	"2006-01-02T15:04:05.000Z07:00",
	time.RFC3339,
	time.RFC3339Nano,
	"2006-01-02T15:04:05",
}

// parseStrfmtDateTime mirrors strfmt.ParseDateTime (an empty string is the
// Unix epoch).
func parseStrfmtDateTime(s string) (time.Time, error) {
	if s == "" {
		return time.Unix(0, 0).UTC(), nil
	}
	var last error
	for _, layout := range dateTimeLayouts {
		t, err := time.Parse(layout, s)
		if err == nil {
			return t, nil
		}
		last = err
	}
	return time.Time{}, last
}
