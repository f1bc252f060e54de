package bolt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"math/bits"
	"os"
	"runtime/debug"
	"slices"
	"time"
)

// This file reads an existing data file as plain bytes, before bbolt maps
// it, and refuses one that bbolt could not read safely. bbolt trusts its
// pages: on a damaged one it panics, sometimes in a goroutine of its own
// that no recover reaches (the freelist rebuild of Open with
// NoFreelistSync), and a page past the end of a truncated file is a SIGBUS
// in the mapping. bbolt also initialises an empty file as a new database,
// which would rewind every resourceVersion to 0. checkFile only reads and
// never writes. Where it can (unix), it maps the file read-only, as far as
// the file reaches, and reads a page only once the meta page's page count
// is checked against the file's size; a fault in the mapping anyway (the
// file cut short meanwhile) is an error, not a crash
// (debug.SetPanicOnFault). Elsewhere it reads the file with ReadAt. The
// mapping saves copying the whole file: the walk reads only each page's
// element table and keys.
//
// It walks the page tree from the meta page bbolt would pick, as bbolt's
// Tx.Check does, and checks everything bbolt relies on when it reads a
// page: the page's id, type and overflow are in range, the file holds it,
// its elements and their keys and values lie inside it, keys are in order
// (within a page and against its parent's), no page is reached twice, and
// the bucket headers and inline buckets are whole. Record contents are
// not its business: every record carries its own checksum (record.go).
//
// The layout it reads is bbolt's format version 2 (go.etcd.io/bbolt
// internal/common: page.go, meta.go, bucket.go), in the machine's byte
// order, as bbolt writes it.

// The bbolt format, as in go.etcd.io/bbolt/internal/common.
const (
	bboltMagic     = 0xED0CDAED
	bboltVersion   = 2
	pageHeaderSize = 16 // id uint64, flags uint16, count uint16, overflow uint32
	elementSize    = 16 // a branch or leaf page element
	bucketHeader   = 16 // root pgid uint64, sequence uint64
	metaSize       = 64 // magic, version, pageSize, flags, root bucket, freelist, pgid, txid, checksum

	branchPage   = 0x01
	leafPage     = 0x02
	metaPage     = 0x04
	freelistPage = 0x10
	bucketLeaf   = 0x01 // a leaf element that is a sub-bucket

	noFreelist = ^uint64(0)
	// maxDepth bounds the walk: a B+tree of bbolt pages is a few levels
	// deep, buckets nest twice in crdlab's files.
	maxDepth = 64
)

var ne = binary.NativeEndian

// meta is a bbolt meta page.
type meta struct {
	page                      int // 0 or 1
	pageSize                  uint32
	root, freelist, hwm, txid uint64
	magicOK, versionOK, sumOK bool
}

func (m meta) valid() bool { return m.magicOK && m.versionOK && m.sumOK }

func parseMeta(buf []byte, page int) meta {
	m := meta{page: page}
	if len(buf) < pageHeaderSize+metaSize {
		return m
	}
	b := buf[pageHeaderSize : pageHeaderSize+metaSize]
	m.magicOK = ne.Uint32(b[0:]) == bboltMagic
	m.versionOK = ne.Uint32(b[4:]) == bboltVersion
	m.pageSize = ne.Uint32(b[8:])
	m.root = ne.Uint64(b[16:])
	m.freelist = ne.Uint64(b[32:])
	m.hwm = ne.Uint64(b[40:])
	m.txid = ne.Uint64(b[48:])
	h := fnv.New64a()
	h.Write(b[:56])
	m.sumOK = h.Sum64() == ne.Uint64(b[56:])
	return m
}

// checkFile returns nil if path does not exist (Open creates it) or if
// bbolt can read it safely; otherwise ErrForeignFile or ErrCorrupt,
// naming the file and the first problem found, or ErrLocked if another
// process holds the file for longer than lockTimeout.
func checkFile(path string, lockTimeout time.Duration) error {
	c, err := checkFileMapped(path, lockTimeout)
	c.close()
	return err
}

// checked is a file checkFileMapped found bbolt can read, still mapped
// as the check read it: Open rebuilds the index from these pages
// (DB.rebuild, checked.eachElem). The check has just read every page of
// this mapping, and a second pass over them costs 1 % of the first; the
// first pass over bbolt's own mapping of the same file costs as much as
// the check's again, about 4 µs a 16 KiB page on the machine of
// docs/perf.md (0.26 s of bolt.Open at 100,000 objects), MAP_POPULATE or
// not (the cost is in reaching each page of a new mapping, not in
// filling it).
type checked struct {
	data     []byte // the mapping; nil: the file was read with ReadAt (or is new)
	unmap    func()
	pageSize uint64
	txid     uint64 // the meta page's transaction
	// history is the history bucket's root page, as the check found it
	// in the root bucket's leaf; 0 if it did not (an inline bucket, a
	// root bucket of more than one page).
	history uint64
}

// close unmaps the file. A nil checked closes too.
func (c *checked) close() {
	if c != nil && c.unmap != nil {
		c.unmap()
		c.data, c.unmap = nil, nil
	}
}

// historyAt returns the history bucket's root page in the mapping if the
// file is still at transaction txid with that root (bbolt opened the file
// the check read: nothing was written between them), or 0.
func (c *checked) historyAt(txid, root uint64) uint64 {
	if c == nil || c.data == nil || c.history == 0 || c.txid != txid || c.history != root {
		return 0
	}
	return c.history
}

// eachElem calls fn with the key and value of every leaf element of the
// tree at page id, in key order (sub-buckets are not entered). The check
// has walked these pages; their bounds are checked again all the same,
// as ErrCorrupt, so that no change to the file can make it panic. A fault
// reading the mapping is ErrCorrupt too (catchFaults).
func (c *checked) eachElem(id uint64, fn func(k, v []byte) error) error {
	return catchFaults(func() error { return c.eachElemAt(id, fn, 0) })
}

func (c *checked) eachElemAt(id uint64, fn func(k, v []byte) error, depth int) error {
	ps := c.pageSize
	if depth > maxDepth || id < 2 || id >= uint64(len(c.data))/ps {
		return corrupt("the rebuild reached page %d, outside the file", id)
	}
	p := c.data[id*ps:]
	end := (uint64(ne.Uint32(p[12:])) + 1) * ps
	if end > uint64(len(p)) {
		return corrupt("the rebuild reached page %d, which runs past the file", id)
	}
	p = p[:end]
	flags, count := ne.Uint16(p[8:]), int(ne.Uint16(p[10:]))
	if pageHeaderSize+count*elementSize > len(p) {
		return corrupt("page %d has %d elements, more than it holds", id, count)
	}
	for i := range count {
		e := pageHeaderSize + i*elementSize
		switch flags {
		case branchPage:
			if err := c.eachElemAt(ne.Uint64(p[e+8:]), fn, depth+1); err != nil {
				return err
			}
		case leafPage:
			elemFlags, pos, ksize, vsize := ne.Uint32(p[e:]), int(ne.Uint32(p[e+4:])), int(ne.Uint32(p[e+8:])), int(ne.Uint32(p[e+12:]))
			k := e + pos
			if k > len(p) || ksize > len(p)-k || vsize > len(p)-k-ksize {
				return corrupt("element %d of page %d lies outside the page", i, id)
			}
			if elemFlags&bucketLeaf != 0 {
				continue
			}
			if err := fn(p[k:k+ksize:k+ksize], p[k+ksize:k+ksize+vsize:k+ksize+vsize]); err != nil {
				return err
			}
		default:
			return corrupt("page %d has the type %#x where a branch or leaf page belongs", id, flags)
		}
	}
	return nil
}

// checkFileMapped is checkFile, and on success (of a file that exists)
// the file still mapped for the rebuild; the caller closes it.
func checkFileMapped(path string, lockTimeout time.Duration) (*checked, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	defer f.Close()
	if err := lockShared(f, lockTimeout); errors.Is(err, ErrLocked) {
		return nil, fmt.Errorf("%w: %s", ErrLocked, path)
	} else if err != nil {
		return nil, fmt.Errorf("storage: lock %s: %w", path, err)
	}
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("storage: stat %s: %w", path, err)
	}
	c := &fileChecker{r: f, size: info.Size(), blocks: map[int64][]byte{}}
	out := &checked{}
	if c.size > 0 {
		data, unmap, err := mapFile(f, c.size)
		if err != nil {
			return nil, fmt.Errorf("storage: map %s: %w", path, err)
		}
		c.data, out.data, out.unmap = data, data, unmap
	}
	var ce *checkError
	if err := c.checkFaults(); errors.As(err, &ce) {
		out.close()
		return nil, fmt.Errorf("%w: %s: %s", ce.kind, path, ce.msg)
	}
	out.pageSize, out.txid, out.history = uint64(c.pageSize), c.txid, c.history
	// The mapping holds the open file, and with it the shared lock, after
	// f is closed: bbolt's exclusive lock would wait for it.
	if err := unlock(f); err != nil {
		out.close()
		return nil, fmt.Errorf("storage: unlock %s: %w", path, err)
	}
	return out, nil
}

// checkFaults is check, with a fault reading the mapping (a page the file
// no longer holds) returned as ErrCorrupt rather than crashing the process.
func (c *fileChecker) checkFaults() error { return catchFaults(c.check) }

// catchFaults runs f, a fault reading the mapping returned as ErrCorrupt.
// SetPanicOnFault is the calling goroutine's: a goroutine of the walk
// (walkSplit) calls it too.
func catchFaults(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			if _, fault := p.(interface{ Addr() uintptr }); !fault {
				panic(p)
			}
			err = corrupt("the file cannot be read: %v", p)
		}
	}()
	return f()
}

type checkError struct {
	kind error
	msg  string
}

func (e *checkError) Error() string { return e.msg }

func corrupt(format string, args ...any) error {
	return &checkError{ErrCorrupt, fmt.Sprintf(format, args...)}
}

// fileChecker walks one file.
type fileChecker struct {
	r        io.ReaderAt
	size     int64
	pageSize int64
	hwm      uint64           // pages below the high water mark are the database
	txid     uint64           // the meta page's transaction
	history  uint64           // the history bucket's root page, if the root bucket's leaf holds it (checked.history)
	seen     []uint64         // a bit per page: reached so far (overflow pages too)
	blocks   map[int64][]byte // the blocks read last (read)
	data     []byte           // the file, mapped read-only; nil: read with r
	split    bool             // walk the first branch page's halves on two goroutines (walkSplit)
}

func (c *fileChecker) check() error {
	if c.size == 0 {
		return corrupt("the file is empty (0 bytes), so it holds no revision counter; starting on it would rewind every resourceVersion to 0")
	}
	m, err := c.pickMeta()
	if err != nil {
		return err
	}
	c.pageSize, c.hwm, c.txid = int64(m.pageSize), m.hwm, m.txid
	if m.hwm < 3 || m.root < 2 || m.root >= m.hwm {
		return corrupt("meta page %d (transaction %d) has root page %d and %d pages", m.page, m.txid, m.root, m.hwm)
	}
	if m.hwm > uint64(c.size/c.pageSize) {
		return corrupt("the file is truncated: it has %d bytes, and its %d pages of %d bytes need more", c.size, m.hwm, c.pageSize)
	}
	c.seen = make([]uint64, (m.hwm+63)/64)
	c.split = c.data != nil && m.hwm >= splitPages
	c.seen[0] = 0b11 // the meta pages
	var free []byte
	if m.freelist != noFreelist {
		if free, err = c.checkFreelist(m.freelist); err != nil {
			return err
		}
	}
	if _, err = c.walk(m.root, nil, nil, 0); err != nil {
		return err
	}
	// A page both in use and listed free would be handed out by bbolt's
	// next commit and overwritten while the tree still holds it.
	for i := 0; i+8 <= len(free); i += 8 {
		if id := ne.Uint64(free[i:]); c.seen[id/64]&(1<<(id%64)) != 0 {
			return corrupt("freelist page %d lists page %d, which is in use", m.freelist, id)
		}
	}
	return nil
}

// pickMeta reads both meta pages and returns the one bbolt would use, the
// valid one with the higher transaction id. It refuses a file with a
// damaged meta page: bbolt would fall back to the other one, which drops
// the newest commit if the damaged page held it, and crdlab cannot tell
// that from a commit a crash cut short.
func (c *fileChecker) pickMeta() (meta, error) {
	first := make([]byte, 4096)
	n, _ := c.r.ReadAt(first, 0)
	m0 := parseMeta(first[:n], 0)
	// Where the second meta page is: after the first, whose size the first
	// meta says; if it cannot, try the sizes bbolt tries.
	sizes := []int64{int64(m0.pageSize)}
	if !m0.valid() {
		sizes = sizes[:0]
		for i := range 15 {
			sizes = append(sizes, 1024<<i)
		}
	}
	if m0.valid() && c.size < 2*int64(m0.pageSize) {
		return meta{}, corrupt("the file is truncated: it has %d bytes, less than its two meta pages of %d bytes", c.size, m0.pageSize)
	}
	m1 := meta{page: 1}
	for _, ps := range sizes {
		if ps < pageHeaderSize+metaSize || ps >= c.size {
			continue
		}
		buf := make([]byte, pageHeaderSize+metaSize)
		if _, err := c.r.ReadAt(buf, ps); err != nil {
			continue
		}
		if m1 = parseMeta(buf, 1); m1.magicOK {
			break
		}
	}
	otherVersion := func(m meta) bool { return m.magicOK && m.sumOK && !m.versionOK }
	switch {
	case !m0.magicOK && !m1.magicOK:
		return meta{}, &checkError{ErrForeignFile, "it is not a bbolt database (no bbolt meta page)"}
	case otherVersion(m0) || otherVersion(m1):
		return meta{}, &checkError{ErrForeignFile, "it is a bbolt database of another format version"}
	case !m0.valid() && !m1.valid():
		return meta{}, corrupt("both bbolt meta pages are damaged")
	case !m0.valid() || !m1.valid():
		bad, good := m0, m1
		if m0.valid() {
			bad, good = m1, m0
		}
		return meta{}, corrupt("bbolt meta page %d is damaged (page %d holds transaction %d); "+
			"bbolt would fall back to it and lose the newest commit if it was on the damaged page", bad.page, good.page, good.txid)
	case m0.pageSize != m1.pageSize || m0.pageSize < 1024 || m0.pageSize > 1<<24:
		return meta{}, corrupt("the meta pages disagree on the page size (%d, %d)", m0.pageSize, m1.pageSize)
	case m1.txid > m0.txid:
		return m1, nil
	}
	return m0, nil
}

// page reads page id with its overflow pages, checking its header.
func (c *fileChecker) page(id uint64, want int) ([]byte, error) {
	if id < 2 || id >= c.hwm {
		return nil, corrupt("a reference to page %d, outside the database's pages 2–%d", id, c.hwm-1)
	}
	head, err := c.read(int64(id)*c.pageSize, pageHeaderSize)
	if err != nil {
		return nil, corrupt("page %d cannot be read: %v", id, err)
	}
	if got := ne.Uint64(head); got != id {
		return nil, corrupt("page %d has the id %d", id, got)
	}
	if flags := int(ne.Uint16(head[8:])); flags != want && !(want == branchPage|leafPage && (flags == branchPage || flags == leafPage)) {
		return nil, corrupt("page %d has the type %#x where a %s page belongs", id, flags, pageType(want))
	}
	overflow := uint64(ne.Uint32(head[12:]))
	if id+overflow >= c.hwm {
		return nil, corrupt("page %d runs past the database's last page (%d overflow pages)", id, overflow)
	}
	for i := id; i <= id+overflow; i++ {
		if c.seen[i/64]&(1<<(i%64)) != 0 {
			return nil, corrupt("page %d is reached twice", i)
		}
		c.seen[i/64] |= 1 << (i % 64)
	}
	buf, err := c.read(int64(id)*c.pageSize, int64(overflow+1)*c.pageSize)
	if err != nil {
		return nil, corrupt("page %d cannot be read: %v", id, err)
	}
	return buf, nil
}

// readBlock is the unit checkFile reads the file in: bbolt allocates
// pages mostly in order, so a walk of the tree finds most pages in a
// block it read for a neighbour (one read of 1 MiB instead of 256).
const readBlock = 1 << 20

// read returns n bytes at off. A range inside one block comes from the
// block cache (blocks are never reused, so the slices handed out stay
// valid); a larger one is read on its own.
func (c *fileChecker) read(off, n int64) ([]byte, error) {
	if c.data != nil {
		if off < 0 || n < 0 || off+n > int64(len(c.data)) {
			return nil, io.ErrUnexpectedEOF
		}
		return c.data[off : off+n : off+n], nil
	}
	b := off / readBlock
	if (off+n-1)/readBlock != b {
		buf := make([]byte, n)
		_, err := c.r.ReadAt(buf, off)
		return buf, err
	}
	block, ok := c.blocks[b]
	if !ok {
		if len(c.blocks) >= 8 {
			clear(c.blocks) // a small cache: the walk moves on
		}
		block = make([]byte, min(readBlock, c.size-b*readBlock))
		if _, err := c.r.ReadAt(block, b*readBlock); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		c.blocks[b] = block
	}
	start := off - b*readBlock
	if start+n > int64(len(block)) {
		return nil, io.ErrUnexpectedEOF
	}
	return block[start : start+n : start+n], nil
}

func pageType(flags int) string {
	switch flags {
	case freelistPage:
		return "freelist"
	case metaPage:
		return "meta"
	}
	return "branch or leaf"
}

// checkFreelist checks a freelist page bbolt would read (crdlab writes
// one at a clean close: DB.writeFreelist) and returns the ids it lists,
// 8 bytes each; check looks after the walk that none is in use.
func (c *fileChecker) checkFreelist(id uint64) ([]byte, error) {
	p, err := c.page(id, freelistPage)
	if err != nil {
		return nil, err
	}
	start, count := uint64(0), uint64(ne.Uint16(p[10:]))
	if count == 0xFFFF {
		start, count = 1, ne.Uint64(p[pageHeaderSize:])
	}
	if (start+count)*8 > uint64(len(p)-pageHeaderSize) {
		return nil, corrupt("freelist page %d lists %d pages, more than it holds", id, count)
	}
	ids := p[pageHeaderSize+8*start : pageHeaderSize+8*(start+count)]
	for i := 0; i < len(ids); i += 8 {
		if free := ne.Uint64(ids[i:]); free < 2 || free >= c.hwm {
			return nil, corrupt("freelist page %d lists page %d, outside the database", id, free)
		}
	}
	return ids, nil
}

// walk checks the subtree of a bucket at page id, whose keys must be at
// least min and below max (nil: unbounded), and returns its largest key.
// The key order rules are those of bbolt's Tx.Check
// (recursivelyCheckPageKeyOrder).
func (c *fileChecker) walk(id uint64, min, max []byte, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, corrupt("page %d is nested more than %d levels deep", id, maxDepth)
	}
	p, err := c.page(id, branchPage|leafPage)
	if err != nil {
		return nil, err
	}
	return c.walkPage(id, p, min, max, depth)
}

// walkPage checks the branch or leaf page p (a page of the file, or an
// inline bucket's page inside a value).
func (c *fileChecker) walkPage(id uint64, p []byte, min, max []byte, depth int) ([]byte, error) {
	if len(p) < pageHeaderSize {
		return nil, corrupt("page %d is too short for its header", id)
	}
	flags, count := ne.Uint16(p[8:]), int(ne.Uint16(p[10:]))
	if pageHeaderSize+count*elementSize > len(p) {
		return nil, corrupt("page %d has %d elements, more than it holds", id, count)
	}
	if flags == branchPage && count >= 2 && c.split {
		return c.walkSplit(id, p, min, max, depth, count)
	}
	last, err := c.walkElems(id, p, flags, 0, count, min, max, depth)
	if err != nil || count == 0 {
		return nil, err
	}
	return last, nil // the last key of a leaf, the largest key under a branch
}

// walkElems checks the elements from to to of page p (flags its type),
// prev being the key before them (min for the first), and returns the
// last key it checked.
func (c *fileChecker) walkElems(id uint64, p []byte, flags uint16, from, to int, prev, max []byte, depth int) ([]byte, error) {
	count := int(ne.Uint16(p[10:]))
	for i := from; i < to; i++ {
		e := pageHeaderSize + i*elementSize
		var pos, ksize, vsize int
		var elemFlags uint32
		var child uint64
		if flags == branchPage {
			pos, ksize, child = int(ne.Uint32(p[e:])), int(ne.Uint32(p[e+4:])), ne.Uint64(p[e+8:])
		} else if flags == leafPage {
			elemFlags, pos, ksize, vsize = ne.Uint32(p[e:]), int(ne.Uint32(p[e+4:])), int(ne.Uint32(p[e+8:])), int(ne.Uint32(p[e+12:]))
		} else {
			return nil, corrupt("page %d has the type %#x where a branch or leaf page belongs", id, flags)
		}
		k := e + pos
		if pos < 0 || ksize < 0 || vsize < 0 || k > len(p) || ksize > len(p)-k || vsize > len(p)-k-ksize {
			return nil, corrupt("element %d of page %d lies outside the page", i, id)
		}
		key := p[k : k+ksize]
		if (i == 0 && prev != nil && bytes.Compare(prev, key) > 0) || (i > 0 && bytes.Compare(prev, key) >= 0) ||
			(max != nil && bytes.Compare(key, max) >= 0) {
			return nil, corrupt("the keys of page %d are out of order at element %d", id, i)
		}
		if flags == branchPage {
			next := max
			if i < count-1 {
				n := pageHeaderSize + (i+1)*elementSize
				npos, nksize := int(ne.Uint32(p[n:])), int(ne.Uint32(p[n+4:]))
				if n+npos > len(p) || nksize > len(p)-n-npos {
					return nil, corrupt("element %d of page %d lies outside the page", i+1, id)
				}
				next = p[n+npos : n+npos+nksize]
			}
			last, err := c.walk(child, key, next, depth+1)
			if err != nil {
				return nil, err
			}
			prev = last
			continue
		}
		prev = key
		if elemFlags&bucketLeaf != 0 {
			value := p[k+ksize : k+ksize+vsize]
			if depth == 0 && vsize >= bucketHeader && bytes.Equal(key, bucketHistory) {
				c.history = ne.Uint64(value) // the root bucket is this one leaf page
			}
			if err := c.walkBucket(id, i, value, depth); err != nil {
				return nil, err
			}
		}
	}
	return prev, nil
}

// splitPages is the size (in pages of 16 KiB: 256 MiB) from which
// checkFile walks the largest bucket's tree on two cores: a walk's cost is
// the first read of every page, about 6 µs a page on the machine of
// docs/perf.md (0.30 s of a start on 100,000 objects, 51,500 pages). A
// variable for tests.
var splitPages uint64 = 1 << 14

// walkSplit checks the branch page p as walkPage does, its second half of
// children on another goroutine with a checker of its own (the pages seen
// so far, then its own), once per walk: the first branch page with two
// children or more, the root of the history bucket in crdlab's files.
// Each half's pages must not meet the other's; the key that ends the
// first half must come before the one that starts the second.
func (c *fileChecker) walkSplit(id uint64, p []byte, min, max []byte, depth, count int) ([]byte, error) {
	c.split = false
	h := count / 2
	seenBefore := slices.Clone(c.seen)
	c2 := &fileChecker{r: c.r, size: c.size, pageSize: c.pageSize, hwm: c.hwm, data: c.data,
		seen: slices.Clone(c.seen), blocks: map[int64][]byte{}}
	type result struct {
		last []byte
		err  error
	}
	second := make(chan result, 1)
	go func() {
		var r result
		r.err = catchFaults(func() (err error) {
			// prev nil: the order of element h after element h-1 is
			// checked below, once both halves are done.
			r.last, err = c2.walkElems(id, p, branchPage, h, count, nil, max, depth)
			return err
		})
		second <- r
	}()
	last1, err1 := c.walkElems(id, p, branchPage, 0, h, min, max, depth)
	r2 := <-second
	if err1 != nil {
		return nil, err1
	}
	if r2.err != nil {
		return nil, r2.err
	}
	for w := range c.seen {
		if both := c.seen[w] & c2.seen[w] &^ seenBefore[w]; both != 0 {
			return nil, corrupt("page %d is reached twice", uint64(w)*64+uint64(bits.TrailingZeros64(both)))
		}
		c.seen[w] |= c2.seen[w]
	}
	e := pageHeaderSize + h*elementSize
	pos, ksize := int(ne.Uint32(p[e:])), int(ne.Uint32(p[e+4:]))
	if bytes.Compare(last1, p[e+pos:e+pos+ksize]) >= 0 { // in the page: walkElems checked
		return nil, corrupt("the keys of page %d are out of order at element %d", id, h)
	}
	return r2.last, nil
}

// walkBucket checks a sub-bucket: its root page, or the inline page
// inside its value.
func (c *fileChecker) walkBucket(id uint64, elem int, value []byte, depth int) error {
	if len(value) < bucketHeader {
		return corrupt("bucket %d of page %d has a value of %d bytes, too short for a bucket", elem, id, len(value))
	}
	if root := ne.Uint64(value); root != 0 {
		_, err := c.walk(root, nil, nil, depth+1)
		return err
	}
	inline := value[bucketHeader:]
	if len(inline) < pageHeaderSize || ne.Uint16(inline[8:]) != leafPage {
		return corrupt("the inline bucket %d of page %d is not a leaf page", elem, id)
	}
	_, err := c.walkPage(id, inline, nil, nil, depth+1)
	return err
}
