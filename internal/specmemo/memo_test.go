package specmemo

import (
	"bytes"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testSpec stands for a CRD spec: versions give it its identity.
type testSpec struct {
	Group    string
	Versions []testVersion
	Schema   *string
}

type testVersion struct{ Name string }

// clock is a fake clock for a memo's now, and its afterFunc: it notes
// the delay of each sweep scheduled (m.mu is held), and tests call sweep.
type clock struct {
	ns     atomic.Int64
	sweeps []time.Duration
}

func (c *clock) now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *clock) advance(d time.Duration) { c.ns.Add(int64(d)) }

// fullTestMemo returns a memo bounded to n test specs and holding specs
// 0 … n-1, remembered a millisecond apart in that order.
func fullTestMemo(n int) (*Memo[testSpec, testVersion], *clock) {
	m, c := newTestMemo()
	m.maxJSON = n * len(specJSON(0))
	for i := range n {
		m.Remember(specJSON(i), newSpec(i))
		c.advance(time.Millisecond)
	}
	return m, c
}

func newTestMemo() (*Memo[testSpec, testVersion], *clock) {
	m := New(func(s *testSpec) []testVersion { return s.Versions })
	c := &clock{}
	c.ns.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	m.now = c.now
	m.afterFunc = func(d time.Duration, _ func()) { c.sweeps = append(c.sweeps, d) }
	return m, c
}

// specJSON is a spec's JSON of MinJSON+40 bytes, different for each i
// (under 10,000).
func specJSON(i int) []byte {
	return fmt.Appendf(nil, `{"group":"g%04d.example.com","pad":"%s"}`, i, bytes.Repeat([]byte("x"), MinJSON+3))
}

func newSpec(i int) testSpec {
	return testSpec{Group: fmt.Sprintf("g%d.example.com", i), Versions: []testVersion{{"v1"}}}
}

func TestMemo_Lookup(t *testing.T) {
	m, _ := newTestMemo()
	spec := m.Remember(specJSON(1), newSpec(1))
	t.Run("OK", func(t *testing.T) {
		got, ok := m.Lookup(specJSON(1))
		if !ok || &got.Versions[0] != &spec.Versions[0] {
			t.Errorf("Lookup of the remembered JSON: ok %v, shared %v", ok, ok && &got.Versions[0] == &spec.Versions[0])
		}
	})
	t.Run("OtherJSON", func(t *testing.T) {
		if _, ok := m.Lookup(specJSON(2)); ok {
			t.Error("Lookup found a spec for JSON never remembered")
		}
	})
	t.Run("Small", func(t *testing.T) {
		small := []byte(`{"group":"small"}`)
		m.Remember(small, newSpec(3))
		if _, ok := m.Lookup(small); ok {
			t.Errorf("a spec of %d bytes (under MinJSON) was remembered", len(small))
		}
	})
	t.Run("JSONCopied", func(t *testing.T) {
		b := specJSON(4)
		m.Remember(b, newSpec(4))
		b[2] = 'X'
		if _, ok := m.Lookup(specJSON(4)); !ok {
			t.Error("changing the caller's JSON changed the remembered one")
		}
	})
	if st := m.Stats(); st.Hits != 2 || st.Misses != 1 || st.Added != 2 {
		t.Errorf("Stats %+v, want 2 hits, 1 miss, 2 added", st)
	}
}

func TestMemo_Find(t *testing.T) {
	m, _ := newTestMemo()
	schema := "s"
	spec := newSpec(1)
	spec.Schema = &schema
	spec = m.Remember(specJSON(1), spec)
	t.Run("OK", func(t *testing.T) {
		same := spec // a shallow copy: the same versions and schema
		if e := m.Find(&same); e == nil || !bytes.Equal(e.JSON, specJSON(1)) {
			t.Errorf("Find of a shallow copy: %v", e)
		}
	})
	t.Run("FieldChanged", func(t *testing.T) {
		changed := spec
		changed.Group = "other"
		if e := m.Find(&changed); e != nil {
			t.Error("Find found a spec whose group differs")
		}
	})
	t.Run("PointerChanged", func(t *testing.T) {
		other := "s"
		changed := spec
		changed.Schema = &other
		if e := m.Find(&changed); e != nil {
			t.Error("Find found a spec whose schema is another (equal) one")
		}
	})
	t.Run("DeepCopy", func(t *testing.T) {
		cp := spec
		cp.Versions = append([]testVersion(nil), spec.Versions...)
		if e := m.Find(&cp); e != nil {
			t.Error("Find found a spec whose versions are a copy")
		}
	})
	t.Run("NoVersions", func(t *testing.T) {
		if e := m.Find(&testSpec{}); e != nil {
			t.Error("Find found a spec without versions")
		}
	})
}

func TestMemo_Remember(t *testing.T) {
	t.Run("SameJSONSharesFirst", func(t *testing.T) {
		m, _ := newTestMemo()
		first := m.Remember(specJSON(1), newSpec(1))
		second := m.Remember(specJSON(1), newSpec(1))
		if &second.Versions[0] != &first.Versions[0] {
			t.Error("a second decode of the same JSON was not given the first spec")
		}
		if st := m.Stats(); st.Added != 1 {
			t.Errorf("Added %d, want 1", st.Added)
		}
	})
	t.Run("LargerThanTheBound", func(t *testing.T) {
		m, _ := newTestMemo()
		m.maxJSON = len(specJSON(0)) - 1
		m.Remember(specJSON(1), newSpec(1))
		m.Remember(specJSON(2), newSpec(2))
		if _, ok := m.Lookup(specJSON(1)); ok || len(m.Entries()) != 1 {
			t.Errorf("%d entries over the bound, want the last one", len(m.Entries()))
		}
	})
	t.Run("FirstRememberedDroppedFirst", func(t *testing.T) {
		// The controllers take CRDs in the order they were created: the
		// spec remembered first is the one most likely done with, even
		// if it was used last.
		const maxTestEntries = 8
		m, _ := fullTestMemo(maxTestEntries)
		m.Lookup(specJSON(0))
		m.Remember(specJSON(maxTestEntries), newSpec(maxTestEntries))
		if _, ok := m.Lookup(specJSON(0)); ok {
			t.Error("the first spec remembered was kept beyond the bound")
		}
		for _, i := range []int{1, maxTestEntries - 1, maxTestEntries} {
			if _, ok := m.Lookup(specJSON(i)); !ok {
				t.Errorf("spec %d was dropped", i)
			}
		}
		if st := m.Stats(); st.Evicted != 1 || len(m.Entries()) != maxTestEntries || st.PeakJSON != m.maxJSON {
			t.Errorf("Evicted %d with %d entries (peak %d bytes), want 1 with %d (%d bytes)",
				st.Evicted, len(m.Entries()), st.PeakJSON, maxTestEntries, m.maxJSON)
		}
	})
	t.Run("FinishedDroppedFirst", func(t *testing.T) {
		// Specs whose CRDs are done with (Finish) go before those still on
		// their way once FinishGrace has passed, the first remembered
		// first; then, as before, the first remembered.
		const maxTestEntries = 4
		m, c := fullTestMemo(maxTestEntries)
		for _, i := range []int{3, 2} {
			spec, _ := m.Lookup(specJSON(i))
			m.Finish(m.Find(&spec))
		}
		// Within FinishGrace a finished spec is kept as any other.
		m.Remember(specJSON(maxTestEntries), newSpec(maxTestEntries))
		if _, ok := m.Lookup(specJSON(0)); ok {
			t.Error("within the grace, the first spec remembered was kept")
		}
		c.advance(FinishGrace)
		var kept []int
		for i := maxTestEntries + 1; i < maxTestEntries+4; i++ {
			m.Remember(specJSON(i), newSpec(i))
			c.advance(time.Millisecond)
		}
		for i := range maxTestEntries + 4 {
			if _, ok := m.Lookup(specJSON(i)); ok {
				kept = append(kept, i)
			}
		}
		// After the grace: 2 and 3 (finished, 2 remembered first) go,
		// then 1 (the first remembered left).
		if want := []int{4, 5, 6, 7}; !slices.Equal(kept, want) {
			t.Errorf("kept %v, want %v", kept, want)
		}
	})
}

func TestMemo_Sweep(t *testing.T) {
	m, c := newTestMemo()
	m.Remember(specJSON(1), newSpec(1))
	m.NoteWritten(specJSON(2), newSpec(2))
	c.advance(Idle - time.Second)
	m.Remember(specJSON(3), newSpec(3))
	m.Lookup(specJSON(4)) // a miss is not a use
	c.advance(time.Second)
	m.sweep()
	m.mu.Lock()
	if len(m.byHash) != 2 {
		t.Errorf("%d entries left while one was used within Idle, want both (an entry is not dropped for its own idleness)", len(m.byHash))
	}
	if len(m.written) != 0 {
		t.Error("a written spec not read back within Idle was kept")
	}
	if !m.sweeping {
		t.Error("no sweep scheduled while entries are left")
	}
	m.mu.Unlock()

	c.advance(Idle)
	m.sweep()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.byHash) != 0 || len(m.byID) != 0 || m.json != 0 {
		t.Errorf("%d entries (%d by spec, %d bytes) left once none was used for Idle, want none", len(m.byHash), len(m.byID), m.json)
	}
	if m.sweeping {
		t.Error("a sweep is scheduled in an empty memo")
	}
}

// TestMemo_SweepAtIdleAfterLastUse: the memo empties Idle after its last
// use, not up to twice Idle (a sweep once kept entries used since the
// last one for a whole Idle more), so that the server's idle collection,
// which waits a little longer than Idle once requests stop, frees what
// the memo held. A written spec is swept when it is Idle old.
func TestMemo_SweepAtIdleAfterLastUse(t *testing.T) {
	m, c := newTestMemo()
	m.Remember(specJSON(1), newSpec(1))
	c.advance(Idle / 2)
	m.Lookup(specJSON(1))
	c.advance(Idle / 2)
	m.sweep()

	m.mu.Lock()
	if len(m.byHash) != 1 {
		t.Fatalf("%d entries left by a sweep %s after the last use, want 1", len(m.byHash), Idle/2)
	}
	if got, want := c.sweeps, []time.Duration{Idle, Idle / 2}; !slices.Equal(got, want) {
		t.Errorf("sweeps scheduled in %v, want %v (the last Idle after the last use)", got, want)
	}
	m.mu.Unlock()

	c.advance(Idle / 4)
	m.NoteWritten(specJSON(2), newSpec(2))
	c.advance(Idle / 4)
	m.sweep()
	m.mu.Lock()
	if len(m.byHash) != 0 {
		t.Errorf("%d entries left Idle after the last use, want none", len(m.byHash))
	}
	if got, want := c.sweeps[2:], []time.Duration{Idle * 3 / 4}; !slices.Equal(got, want) {
		t.Errorf("with a written spec %s old left: sweeps scheduled in %v, want %v", Idle/4, got, want)
	}
	m.mu.Unlock()
}

func TestMemo_TakeWritten(t *testing.T) {
	m, _ := newTestMemo()
	written := newSpec(1)
	m.NoteWritten(specJSON(1), written)
	t.Run("NotRemembered", func(t *testing.T) {
		other := newSpec(1)
		if _, _, ok := m.TakeWritten(specJSON(2), &other); ok {
			t.Error("TakeWritten gave a spec for JSON never written")
		}
	})
	t.Run("OK", func(t *testing.T) {
		read := m.Remember(specJSON(1), newSpec(1))
		got, e, ok := m.TakeWritten(specJSON(1), &read)
		if !ok || &got.Versions[0] != &written.Versions[0] || e == nil || &e.Spec.Versions[0] != &read.Versions[0] {
			t.Fatalf("TakeWritten: ok %v, entry %v", ok, e)
		}
		if _, _, ok := m.TakeWritten(specJSON(1), &read); ok {
			t.Error("a written spec was taken twice")
		}
	})
	t.Run("AnotherReadersSpec", func(t *testing.T) {
		m.NoteWritten(specJSON(3), newSpec(3))
		m.Remember(specJSON(3), newSpec(3))
		notShared := newSpec(3)
		if _, _, ok := m.TakeWritten(specJSON(3), &notShared); ok {
			t.Error("TakeWritten answered for a spec that is not the remembered one")
		}
	})
}

// TestMemo_Concurrent runs every method at once (for the race detector)
// and checks that readers of one JSON end up sharing one spec.
func TestMemo_Concurrent(t *testing.T) {
	m, _ := newTestMemo()
	// Fewer specs than MaxJSON holds: none is dropped, so every reader of
	// a JSON must get the first reader's spec.
	const readers, rounds, specs = 8, 64, 31
	got := make([][]*testVersion, readers)
	var wg sync.WaitGroup
	for r := range readers {
		wg.Go(func() {
			for i := range rounds {
				b := specJSON(i % specs)
				spec, ok := m.Lookup(b)
				if !ok {
					m.NoteWritten(b, newSpec(i))
					spec = m.Remember(b, newSpec(i))
					m.TakeWritten(b, &spec)
				}
				if e := m.Find(&spec); e != nil {
					e.State.CompareAndSwap(0, 1)
				}
				if i == 0 {
					got[r] = append(got[r], &spec.Versions[0])
				}
			}
			m.Stats()
			m.Entries()
		})
	}
	wg.Wait()
	for r := range readers {
		if got[r][0] != got[0][0] {
			t.Errorf("reader %d got another spec for the same JSON than reader 0", r)
		}
	}
}

func TestSplice(t *testing.T) {
	for _, tc := range []struct {
		name, data  string
		start, end  int
		value, want string
	}{
		{"CutOut", `{"spec":{"a":1},"status":{}}`, 8, 15, `{}`, `{"spec":{},"status":{}}`},
		{"CopiedIn", `{"spec":{},"status":{}}`, 8, 10, `{"a":1}`, `{"spec":{"a":1},"status":{}}`},
		{"AtEnd", `{"spec":{}}`, 8, 10, `[]`, `{"spec":[]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.data)
			if got := Splice(data, tc.start, tc.end, []byte(tc.value)); string(got) != tc.want {
				t.Errorf("Splice = %s, want %s", got, tc.want)
			}
			if string(data) != tc.data {
				t.Errorf("Splice changed its input: %s", data)
			}
		})
	}
}
