package client

import (
	"bytes"
	"encoding/json"
	"io"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// eventReader splits a watch stream into events. Servers — crdlab and
// kube-apiserver alike — write each event as {"type":"T","object":{…}}:
// an event of that shape is cut out of the buffered bytes by a scan that
// follows strings and brackets only (the object's decoder checks its
// JSON), where a json.Decoder scans every byte through its state machine
// and decodes the envelope by reflection; the garbage collector reads an
// event for every write of every object. At the first event of another
// shape the reader hands the rest of the stream to a json.Decoder for
// good, so any JSON stream is read as before.
//
// Plays the part of the JSON framer of k8s.io/apimachinery's
// pkg/util/framer (NewJSONFramedReader), which a json.Decoder also backs.
type eventReader struct {
	r   io.Reader
	buf []byte // buf[pos:] is read and not yet taken
	pos int
	err error // the error of the last read, returned once buf is used up
	// dec, once set, reads every further event.
	dec *json.Decoder
	cut cutState
}

// eventReaderMinRead is the least an eventReader asks the stream for,
// and its buffer's first size. The buffer lives as long as the watch,
// and the garbage collector watches every resource: at 32 KiB it was a
// quarter of what the collector's monitor of a CRD's resource holds
// (BenchmarkMemoryPerCRD). Events of a few hundred bytes need no more,
// and a larger event grows the buffer.
const eventReaderMinRead = 4 << 10

func newEventReader(r io.Reader) *eventReader { return &eventReader{r: r} }

// next reads one event into raw (raw.Object is its own copy).
func (e *eventReader) next(raw *metav1.WatchEvent) error {
	for e.dec == nil {
		n, shaped, whole := cutEvent(e.buf[e.pos:], &e.cut, raw)
		if whole {
			e.pos += n
			return nil
		}
		if !shaped {
			break
		}
		if e.err != nil {
			if e.err == io.EOF && len(bytes.TrimLeft(e.buf[e.pos:], " \t\r\n")) == 0 {
				return io.EOF
			}
			break // a torn event: the decoder says what it is
		}
		e.fill()
	}
	if e.dec == nil {
		rest := io.Reader(bytes.NewReader(e.buf[e.pos:]))
		if e.err != nil {
			rest = io.MultiReader(rest, errReader{e.err})
		} else {
			rest = io.MultiReader(rest, e.r)
		}
		e.dec, e.buf = json.NewDecoder(rest), nil
	}
	return e.dec.Decode(raw)
}

// fill reads once more into buf, growing it as needed.
func (e *eventReader) fill() {
	if e.pos > 0 {
		e.buf = e.buf[:copy(e.buf, e.buf[e.pos:])]
		e.pos = 0
	}
	if cap(e.buf)-len(e.buf) < eventReaderMinRead/2 {
		grown := make([]byte, len(e.buf), max(2*cap(e.buf), eventReaderMinRead))
		copy(grown, e.buf)
		e.buf = grown
	}
	n, err := e.r.Read(e.buf[len(e.buf):cap(e.buf)])
	e.buf = e.buf[:len(e.buf)+n]
	if err != nil {
		e.err = err
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// cutState is how far cutEvent got into an event that is not all there
// yet, so that the next try goes on from there instead of scanning the
// object again (an event that trickles in is scanned once).
type cutState struct {
	inObject bool // the head is read: the object starts at start
	typ      [2]int
	start, i int // the object's first byte; the next byte to scan
	depth    int
	inString bool
}

// cutEvent looks for an event {"type":"T","object":{…}} at the start of b
// (after white space), going on from st. whole: it is all there, n bytes
// long, and raw holds it. Otherwise shaped says whether b could be the
// start of one (more bytes are needed; st remembers the scan); false
// means another shape.
func cutEvent(b []byte, st *cutState, raw *metav1.WatchEvent) (n int, shaped, whole bool) {
	if !st.inObject {
		i := 0
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
			i++
		}
		const head, mid = `{"type":"`, `","object":`
		if !hasPrefix(b[i:], head) {
			return 0, len(b)-i < len(head) && hasPrefix([]byte(head), string(b[i:])), false
		}
		i += len(head)
		t := i
		for i < len(b) && ('A' <= b[i] && b[i] <= 'Z' || 'a' <= b[i] && b[i] <= 'z') {
			i++
		}
		if i == len(b) {
			return 0, true, false
		}
		typ := [2]int{t, i}
		if !hasPrefix(b[i:], mid) {
			return 0, len(b)-i < len(mid) && hasPrefix([]byte(mid), string(b[i:])), false
		}
		i += len(mid)
		if i == len(b) {
			return 0, true, false
		}
		if b[i] != '{' {
			return 0, false, false
		}
		*st = cutState{inObject: true, typ: typ, start: i, i: i}
	}
	for ; st.i < len(b); st.i++ {
		if st.inString {
			// Most of a CRD's bytes are in strings (descriptions): jump to
			// the next quote. It ends the string unless the backslashes
			// right before it are an odd number (then the last one
			// escapes it); the run cannot reach back past the string's
			// opening quote, which is in b.
			q := bytes.IndexByte(b[st.i:], '"')
			if q < 0 {
				st.i = len(b)
				return 0, true, false // the string goes on in what is still to come
			}
			st.i += q
			n := 0
			for b[st.i-1-n] == '\\' {
				n++
			}
			if n%2 == 0 {
				st.inString = false
			}
			continue
		}
		c := b[st.i]
		switch c {
		case '"':
			st.inString = true
		case '{', '[':
			st.depth++
		case '}', ']':
			if st.depth > 1 {
				st.depth--
				continue
			}
			end := st.i + 1
			if end == len(b) {
				return 0, true, false // the event's closing brace is still to come
			}
			if b[end] != '}' {
				return 0, false, false
			}
			raw.Type = string(b[st.typ[0]:st.typ[1]])
			raw.Object = append(raw.Object[:0:0], b[st.start:end]...)
			*st = cutState{}
			return end + 1, true, true
		}
	}
	return 0, true, false
}

// hasPrefix reports whether b starts with s.
func hasPrefix(b []byte, s string) bool { return len(b) >= len(s) && string(b[:len(s)]) == s }
