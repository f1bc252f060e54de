package customresourcedefinition

import (
	"bytes"
	"math"
	"strconv"

	"github.com/crdlab/crdlab/apis/apiextensions"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// This file lets a list of CRDs go out as storage holds them. A CRD is
// stored as the v1 JSON a client gets, less its resourceVersion: Codec
// writes what the handler writes (scheme.MarshalJSON of the v1 object),
// and what it writes has its defaults already, so reading it back —
// decoding with the defaults, converting to the internal version and
// back, writing — gives the same bytes. A list then need not decode at
// all: each item is the stored bytes with the resourceVersion spliced in
// (AppendStored). At a restart on 2,000 real-size CRDs the informers'
// first lists decoded every CRD only to write it again: 20–30 s of CPU
// (docs/crd-memory.md, "Session 23").
//
// That holds for bytes this build's Codec wrote. Bytes an older build
// wrote may lack a default a newer decode fills in, so only records of a
// revision at or after the backend's WrittenSince — from which every
// write was made by a server with this CodecVersion — are spliced; older
// ones are decoded and written as a get's answer (DecodeStored).
//
// Upstream has no such shortcut: its lists come from the watch cache's
// decoded objects, each converted and encoded again.

// CodecVersion names what Codec writes. The server gives it to storage as
// its writer (bolt.Options.Writer): records written since a server with
// another CodecVersion last opened the file hold this version's bytes.
// Change it whenever Codec's bytes for a CRD could change — a new default,
// a field written differently — or lists would hand out old bytes as new:
// TestCodecVersion pins what this version writes.
const CodecVersion = "crdlab customresourcedefinitions v1 codec 1"

// StoresJSON marks Codec as a storage.JSONStorer: its stored bytes are
// JSON, which a list may take as they are (ListOptions.Encoded).
func (Codec) StoresJSON() {}

var _ storage.JSONStorer = Codec{}

// storedHead is how the bytes Codec writes begin, up to metadata's value.
var storedHead = []byte(`{"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1","metadata":{`)

// writtenSinceOf is the backend's WrittenSince, or math.MaxInt64 when it
// keeps none (etcd: bytes there may be anyone's).
func writtenSinceOf(backend storage.Backend) int64 {
	if w, ok := backend.(interface{ WrittenSince() int64 }); ok {
		return w.WrittenSince()
	}
	return math.MaxInt64
}

// ReadsAsStored says a list in gv may take storage's bytes (AppendStored):
// gv is v1, the version CRDs are stored in, and the backend tells which
// bytes this build wrote.
func (r *REST) ReadsAsStored(gv scheme.GroupVersion) bool {
	return gv == apiextensionsv1.SchemeGroupVersion && r.writtenSince != math.MaxInt64
}

// AppendStored appends to dst the v1 JSON a client gets for the CRD
// stored as o.Data at revision o.Rev: the stored bytes with
// ,"resourceVersion":"<o.Rev>" after the uid, where the Go struct writes
// it. ok is false, and dst unchanged, for gv other than v1, a record older
// than the backend's WrittenSince, or bytes that do not begin as Codec
// writes them: the caller decodes those (DecodeStored).
func (r *REST) AppendStored(dst []byte, o storage.ObjectJSON, gv scheme.GroupVersion) ([]byte, bool) {
	if gv != apiextensionsv1.SchemeGroupVersion || o.Rev < r.writtenSince || !bytes.HasPrefix(o.Data, storedHead) {
		return dst, false
	}
	metaStart := len(storedHead) - 1
	at, ok := storage.StructMetaSplice(o.Data[metaStart:])
	if !ok {
		return dst, false
	}
	at += metaStart
	dst = append(dst, o.Data[:at]...)
	dst = append(dst, `,"resourceVersion":"`...)
	dst = strconv.AppendInt(dst, o.Rev, 10)
	dst = append(dst, '"')
	return append(dst, o.Data[at:]...), true
}

// DecodeStored decodes the CRD stored as o.Data at revision o.Rev, as a
// get reads it: the internal object, its resourceVersion set.
func (r *REST) DecodeStored(o storage.ObjectJSON) (scheme.Object, error) {
	crd := &apiextensions.CustomResourceDefinition{}
	if err := r.codec.Decode(o.Data, crd); err != nil {
		return nil, err
	}
	crd.ResourceVersion = strconv.FormatInt(o.Rev, 10)
	return crd, nil
}
