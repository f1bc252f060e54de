package informer

import "testing"

func TestRingGrowing(t *testing.T) {
	r := newRingGrowing[int](2)
	next, want := 0, 0
	// Interleave writes and reads so the data wraps before each growth.
	for round := range 5 {
		for range 3 + round {
			r.WriteOne(next)
			next++
		}
		for range 2 {
			got, ok := r.ReadOne()
			if !ok || got != want {
				t.Fatalf("ReadOne = %d, %v; want %d", got, ok, want)
			}
			want++
		}
	}
	for r.Len() > 0 {
		got, _ := r.ReadOne()
		if got != want {
			t.Fatalf("ReadOne = %d, want %d", got, want)
		}
		want++
	}
	if want != next {
		t.Fatalf("read %d items, wrote %d", want, next)
	}
	if _, ok := r.ReadOne(); ok {
		t.Fatal("ReadOne on an empty buffer succeeded")
	}
}
