package bolt

import (
	"log/slog"
	"time"

	"github.com/crdlab/crdlab/trace"
)

// Options tune a DB. The zero value is a safe default: every write is
// fsynced, history is kept until Compact is called (as etcd without
// --auto-compaction), watchers may fall 1024 events behind.
type Options struct {
	// RetainRevisions, if > 0, turns on automatic compaction that keeps at
	// least the last RetainRevisions revisions.
	// Mirrors etcd's --auto-compaction-mode=revision.
	RetainRevisions int64
	// RetainAge, if > 0, turns on automatic compaction that keeps at least
	// the history written in the last RetainAge, sampled every
	// CompactInterval (so up to RetainAge+CompactInterval is kept).
	// Mirrors etcd's --auto-compaction-mode=periodic. With both set, a
	// revision is forgotten only once it is outside both windows.
	RetainAge time.Duration
	// DefragmentFree is the fraction of the data file that must be free
	// pages after a compaction (and at least 1 MiB) for Compact to
	// defragment the file (Defragment): copy its live pages into a new
	// file, shrinking it, with writes paused only for the last step.
	// Default 0.4; negative: never (as etcd, which defragments only when
	// asked). Where most objects change in every compaction window, each
	// compaction frees that much, and bbolt would reuse the pages anyway:
	// a higher fraction, or never, saves the copies.
	DefragmentFree float64
	// CompactInterval is how often the auto-compaction loop runs.
	// Default: one minute.
	CompactInterval time.Duration
	// KeepListed, if > 0, makes the automatic compaction keep the history
	// after the current revision of every list read, and every watch
	// begun from now, in the last KeepListed: the watch an informer opens
	// from its list's resourceVersion is then not told 410 Gone by a
	// compaction that came between the two (listed.go). crdlab serve:
	// 75 s, the least history upstream's watch cache keeps
	// (storagebackend's DefaultEventsHistoryWindow). Compact, called by
	// hand, keeps nothing for it.
	KeepListed time.Duration

	// WatchBufferSize is how many events a watcher may have waiting for
	// its reader before it is closed as too slow (without an error, as
	// upstream's cacher: the client watches again from its last
	// resourceVersion). Default 1024.
	WatchBufferSize int
	// BookmarkInterval is how often a watcher that allows bookmarks gets
	// a BOOKMARK, counted from when it became live: each watcher keeps its
	// own phase (bookmarks.go), so the garbage collector's watch per
	// resource (2,000 CRDs: 2,000 watches) is not written to all at once.
	// Default one minute, as upstream's cacher (defaultBookmarkFrequency
	// in k8s.io/apiserver's cacher.go).
	BookmarkInterval time.Duration

	// MaxObjectSize is the largest encoded object a write may store.
	// Default 1.5 MiB (etcd's --max-request-bytes).
	MaxObjectSize int
	// MaxBatchSize is the most writes grouped into one commit. Default 1000.
	MaxBatchSize int
	// MaxValueInMemory is the largest encoded object whose bytes the
	// index keeps in memory after its write is committed; a larger one (a
	// real-size CRD is 100–300 KB) stays in the data file and is read from
	// it when a reader needs it (value.go). Values read at Open always stay
	// on disk. Default 64 KiB (memoMaxValue: smaller objects are kept
	// decoded too); negative: none, every value is read from the file.
	MaxValueInMemory int

	// MemoIdle is how long a decoded object a get or a list left on a
	// record (its decodeMemo) is kept without being read again: every
	// MemoIdle a sweep forgets those no reader asked for since the last
	// sweep, so an object is let go between MemoIdle and twice that after
	// its last read, and the next read decodes it again (memo.go).
	// Default 5s; negative: never forget (objects stay until their record
	// is superseded).
	MemoIdle time.Duration

	// ExpiryInterval is how often objects past their TTL are deleted
	// (ttl.go). Default 500ms, as often as etcd's lessor revokes expired
	// leases.
	ExpiryInterval time.Duration
	// Now is the clock expiry reads. Default time.Now; tests set a fake.
	Now func() time.Time

	// LockTimeout is how long Open waits for another process to release
	// the data file. Default 1s.
	LockTimeout time.Duration
	// Strict runs Check at Open and after every compaction (as bbolt's
	// StrictMode runs Tx.Check), failing Open on any finding. Check reads
	// the whole file: for tests and debugging.
	Strict bool
	// Writer names the codecs the server writes objects with (a
	// version its packages keep, such as the CRD codec's
	// customresourcedefinition.CodecVersion). Open keeps it in the file
	// with the revision from which it writes (meta/writer and
	// meta/writerSince, changed when another Writer opens the file), so
	// that a reader can tell which stored bytes this build wrote:
	// WrittenSince. Empty: none is known to be.
	Writer string
	// NoSync skips fsync on commit. A crash may then lose acknowledged
	// writes or corrupt the file: for throwaway tests only.
	NoSync bool

	// Logger gets compactions, slow watchers and failures. Default: discard.
	Logger *slog.Logger
	// Tracer, if set, gets an event for every committed write and every
	// event handed to watchers (trace.go). Nil: tracing off.
	Tracer *trace.Tracer
}

// withDefaults returns o with every unset field at its default.
func (o Options) withDefaults() Options {
	if o.CompactInterval <= 0 {
		o.CompactInterval = time.Minute
	}
	if o.DefragmentFree == 0 {
		o.DefragmentFree = 0.4
	}
	if o.WatchBufferSize <= 0 {
		o.WatchBufferSize = 1024
	}
	if o.BookmarkInterval <= 0 {
		o.BookmarkInterval = time.Minute
	}
	if o.MaxObjectSize <= 0 {
		o.MaxObjectSize = 3 << 19 // 1.5 MiB
	}
	if o.MaxValueInMemory == 0 {
		o.MaxValueInMemory = memoMaxValue
	}
	if o.MaxBatchSize <= 0 {
		o.MaxBatchSize = 1000
	}
	if o.MemoIdle == 0 {
		o.MemoIdle = defaultMemoIdle
	}
	if o.ExpiryInterval <= 0 {
		o.ExpiryInterval = 500 * time.Millisecond
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}
