package customresourcedefinition

import (
	"bytes"
	"sync"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/internal/specmemo"
)

// A real-size CRD's spec is hundreds of KB of schema, and a CRD is read
// from and written to storage many times on its way to Established: every
// /status write decodes the stored CRD, encodes the new one, and decodes
// what it wrote for the answer and for the watchers — while a status
// write keeps the stored spec (statusStrategy). specMemo remembers the
// specs the codec last wrote or read, as their stored JSON and as the
// decoded internal spec, so that a stored value whose spec is one of
// them is decoded without its spec (the remembered one is shared), and a
// CRD whose spec is a remembered one is encoded by copying the JSON.
//
// The rule that makes the sharing safe: a spec the storage codec decodes
// is read only — nothing changes it in place, in the registry (the
// strategies replace a spec or copy it, never edit it), the handler (it
// converts CRDs to write them) or storage (its watchers share one decoded
// object already). DeepCopy still copies all of it, so a copy may be
// changed. specmemo_test.go:TestSpecMemo_SharedSpecsUnchanged checks the
// remembered specs after every kind of write; the race detector sees any
// writer.
//
// Upstream has nothing like it: each read decodes the whole CRD (its
// watch cache keeps one decoded object per revision).
type specMemo = specmemo.Memo[apiextensions.CustomResourceDefinitionSpec, apiextensions.CustomResourceDefinitionVersion]

func newSpecMemo() *specMemo {
	return specmemo.New(func(s *apiextensions.CustomResourceDefinitionSpec) []apiextensions.CustomResourceDefinitionVersion {
		return s.Versions
	})
}

// An entry's State says whether its JSON is what the v1 writer writes for
// its spec (wireSame), is not (wireDiffers: stored by an older build, or
// without a default), or is not known yet (0; Codec.EncodeWire).
const (
	wireSame    = 1
	wireDiffers = 2
)

// confirmWritten is called once spec, decoded from specJSON, is
// remembered: if Encode wrote specJSON for a spec equal to it
// (apiextensions.EqualSpecs: the same values, numbers by their bits),
// specJSON is what the v1 writer writes for spec, and its entry is
// marked so (wireSame) without a whole write to see (Codec.EncodeWire).
// A create's answer and first watch event are then copied too (when the
// reader that decoded the spec first has compared it before they are
// written: another reader may share the entry a moment before).
func (c Codec) confirmWritten(specJSON []byte, spec *apiextensions.CustomResourceDefinitionSpec) {
	if written, e, ok := c.memo.TakeWritten(specJSON, spec); ok && apiextensions.EqualSpecs(spec, &written) {
		e.State.CompareAndSwap(0, wireSame)
	}
}

// decodes are the specs being decoded whole at this moment (Codec.Decode).
// A create's read-back and the create's watch event decode the same new
// spec at the same moment (storage hands the event to its watchers as the
// write commits): each missed the memo, and each read the whole spec. Now
// the second waits for the first and shares the spec it remembered.
type decodes struct {
	mu sync.Mutex // guards inFlight
	// inFlight has one entry per spec JSON being decoded whole, until its
	// decoder has remembered it (or failed).
	inFlight []*decoding
}

// decoding is one spec being decoded whole.
type decoding struct {
	specJSON []byte
	done     chan struct{} // closed when the decode has ended
}

// start reports whether another decode of specJSON is in flight: then
// wait is closed when it ends. Else the caller's decode is in flight
// until it calls end.
func (d *decodes) start(specJSON []byte) (wait <-chan struct{}, end func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, e := range d.inFlight {
		if bytes.Equal(e.specJSON, specJSON) {
			return e.done, nil
		}
	}
	e := &decoding{specJSON: specJSON, done: make(chan struct{})}
	d.inFlight = append(d.inFlight, e)
	return nil, func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		for i, o := range d.inFlight {
			if o == e {
				d.inFlight = append(d.inFlight[:i], d.inFlight[i+1:]...)
				break
			}
		}
		close(e.done)
	}
}
