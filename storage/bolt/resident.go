package bolt

import "time"

// The data file's pages in the resident set.
//
// bbolt reads the file through a read-only shared mapping, so every page
// a reader or a commit touched (a value read, a leaf rewritten with the
// records it holds, the whole file at Open) stays in the process's
// resident set until the kernel needs the memory back. They are clean
// file pages, but they count in RSS: for real-size CRDs (265 KB each,
// three writes on the way to Established, a history leaf rewritten with
// up to four earlier records on each append) about as much as the heap.
//
// releaseMapped tells the kernel the process no longer needs them
// (madvise MADV_DONTNEED on the mapped file, resident_linux.go): they leave
// the resident set, stay in the page cache, and a later read maps them
// again from there (a minor fault, no I/O). Nothing is lost: bbolt never
// writes through the mapping (it writes the file with pwrite), so the
// mapping holds nothing the file does not.
//
// The committer releases them once no commit (writes, compaction
// deletes) and no reader's transaction (endRead: a large value read, a
// list or a watch's catch-up from history) came for releaseQuiet, or
// releaseDelay after the first since the last release: a busy server pays
// one madvise a second, and a server that went quiet holds none of the
// pages its last requests touched.

// releaseQuiet is how long without a commit the committer waits before it
// releases the mapped pages; releaseDelay is the longest it waits after
// the first commit since the last release.
const (
	releaseQuiet = 100 * time.Millisecond
	releaseDelay = time.Second
)

// releaseMapped drops the data file's mapped pages from the resident set.
// Only the committer calls it: it is the only goroutine that remaps the
// file (a commit that grows it) or swaps it (Defragment's last step), and
// the read transaction held meanwhile keeps the mapping as it is for the
// size read from it.
func (db *DB) releaseMapped() {
	tx, err := db.bbolt.Begin(false)
	if err != nil {
		return
	}
	defer tx.Rollback() //nolint:errcheck // a read transaction
	if err := adviseDontNeed(db.bbolt.Info().Data, uintptr(tx.Size())); err != nil {
		db.log.Warn("releasing the data file's mapped pages failed", "err", err)
	}
}
