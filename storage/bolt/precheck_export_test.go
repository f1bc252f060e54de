package bolt

import "go.etcd.io/bbolt"

// SetSplitPages sets the size (in pages) from which checkFile walks a tree
// on two goroutines (walkSplit), for a test, and returns the function that
// puts it back.
func SetSplitPages(n uint64) (restore func()) {
	old := splitPages
	splitPages = n
	return func() { splitPages = old }
}

// SetOutOfLineMin sets the size of an encoded record from which it goes
// to the values bucket (record.go), for a test, and returns the function
// that puts it back. Set it before opening the DBs the test uses.
func SetOutOfLineMin(n int) (restore func()) {
	old := outOfLineMin
	outOfLineMin = n
	return func() { outOfLineMin = old }
}

// FileShape is what HistoryShape reads from a data file.
type FileShape struct {
	Format                         string // meta/format
	Leaves, Records, Values, Stubs int    // history's leaf pages and records (stubs among them), the values bucket's records
	PlainValues                    int    // the values bucket's records kept as plain values (v2), not in a bucket of their own
}

// HistoryShape opens the closed data file at path and returns the shape of
// its history and values buckets.
func HistoryShape(path string) (FileShape, error) {
	var fs FileShape
	b, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		return fs, err
	}
	defer b.Close()
	err = b.View(func(tx *bbolt.Tx) error {
		fs.Format = string(tx.Bucket(bucketMeta).Get(metaFormat))
		h := tx.Bucket(bucketHistory)
		st := h.Stats()
		fs.Leaves, fs.Records = st.LeafPageN, st.KeyN
		_ = h.ForEach(func(_, v []byte) error {
			if isStub(v) {
				fs.Stubs++
			}
			return nil
		})
		if v := tx.Bucket(bucketValues); v != nil {
			_ = v.ForEach(func(_, val []byte) error {
				fs.Values++
				if val != nil {
					fs.PlainValues++
				}
				return nil
			})
		}
		return nil
	})
	return fs, err
}
