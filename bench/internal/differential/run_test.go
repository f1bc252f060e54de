package differential

import "testing"

// TestCausesCapped: crdlab's documented cap on causes counts as the same
// answer only when what it lists is upstream's and its note counts the
// rest.
func TestCausesCapped(t *testing.T) {
	up := []string{"FieldValueInvalid a: x", "FieldValueInvalid b: y", "FieldValueRequired c: Required value"}
	note := " : 2 more errors not listed: crdlab lists at most 100 causes and 64 KiB of messages (upstream lists them all)"
	for _, c := range []struct {
		name string
		cr   []string
		want bool
	}{
		{"Capped", []string{note, "FieldValueInvalid b: y"}, true},
		{"NoNote", []string{"FieldValueInvalid b: y"}, false},
		{"WrongCount", []string{" : 1 more errors not listed: crdlab lists at most 100 causes", "FieldValueInvalid b: y"}, false},
		{"NotUpstreams", []string{note, "FieldValueInvalid z: y"}, false},
	} {
		if got := causesCapped(up, c.cr); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}
