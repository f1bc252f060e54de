package check

import (
	"reflect"
	"strings"
	"testing"
)

// Equal fails unless want and got are deeply equal.
func Equal(t testing.TB, want, got any, msg ...any) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("%v\nwant: %#v\n got: %#v", msg, want, got)
	}
}

// NotEqual fails if a and b are deeply equal.
func NotEqual(t testing.TB, a, b any) {
	t.Helper()
	if reflect.DeepEqual(a, b) {
		t.Fatalf("did not want %#v", a)
	}
}

// NoError fails if err is not nil.
func NoError(t testing.TB, err error, msg ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("%v: unexpected error: %v", msg, err)
	}
}

// Error fails if err is nil.
func Error(t testing.TB, err error, msg ...any) {
	t.Helper()
	if err == nil {
		t.Fatalf("%v: expected an error", msg)
	}
}

// True fails unless b.
func True(t testing.TB, b bool, msg ...any) {
	t.Helper()
	if !b {
		t.Fatalf("expected true: %v", msg)
	}
}

// False fails if b.
func False(t testing.TB, b bool, msg ...any) {
	t.Helper()
	if b {
		t.Fatalf("expected false: %v", msg)
	}
}

// Len fails unless v (a slice, map or string) has length n.
func Len(t testing.TB, v any, n int) {
	t.Helper()
	if l := reflect.ValueOf(v).Len(); l != n {
		t.Fatalf("want length %d, got %d: %#v", n, l, v)
	}
}

// Contains fails unless s contains sub.
func Contains(t testing.TB, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Fatalf("%q does not contain %q", s, sub)
	}
}

// NotEmpty fails if s is empty.
func NotEmpty(t testing.TB, s string) {
	t.Helper()
	if s == "" {
		t.Fatalf("expected a non-empty string")
	}
}
