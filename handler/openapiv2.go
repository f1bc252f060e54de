package handler

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/machinery/openapi"
	openapiv2 "github.com/crdlab/crdlab/machinery/openapi/v2"
)

// openAPIV2 is the /openapi/v2 document of one state of the groups, in
// both encodings, with its ETag.
type openAPIV2 struct {
	json, proto []byte
	etag        string
}

// v2Document returns the /openapi/v2 document, building it from the v3
// document of every group version if a group changed since the last
// build.
func (o *openAPIService) v2Document(version string) (*openAPIV2, error) {
	gvs := o.groupVersions()
	docs := make([][]byte, 0, len(gvs))
	for _, gv := range gvs {
		gz, _, err := o.document(gv)
		if errors.Is(err, errNoDocument) {
			continue // removed meanwhile
		}
		if err != nil {
			return nil, err
		}
		doc, err := gunzip(gz)
		if err != nil {
			return nil, err
		}
		docs = append(docs, doc)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.v2 != nil {
		return o.v2, nil
	}
	d, err := openapiv2.FromV3(version, docs...)
	if err != nil {
		return nil, err
	}
	j, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	p, err := openapiv2.ToProto(d)
	if err != nil {
		return nil, err
	}
	o.v2 = &openAPIV2{json: j, proto: p, etag: `"` + openapi.Hash(j) + `"`}
	return o.v2, nil
}

// gunzip undoes document's compression, into a buffer of the document's
// length: a gzip stream ends with it (ISIZE, the length modulo 2^32, RFC
// 1952). io.ReadAll grew its buffer from 512 bytes, allocating several
// times a 1.4 MB document's size. The length is a hint, bounded by
// maxPlainCache: a wrong one costs a copy, not a failure.
func gunzip(gz []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	size := 0
	if len(gz) >= 4 {
		size = int(min(binary.LittleEndian.Uint32(gz[len(gz)-4:]), maxPlainCache))
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(zr); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// serveV2 answers /openapi/v2: protobuf if the client asks for it (as
// client-go does), JSON otherwise; 304 for a matching If-None-Match.
//
// Mirrors the /openapi/v2 handler of k8s.io/kube-openapi/pkg/handler
// (JSON, and the protobuf asked for by either of its media types, sent as
// application/com.github.proto-openapi.spec.v2.v1.0+protobuf).
func (o *openAPIService) serveV2(w http.ResponseWriter, r *http.Request) {
	doc, err := o.v2Document(o.version)
	if err != nil {
		o.log.Error("cannot build the OpenAPI v2 document", "err", err)
		responsewriters.WriteError(w, apierrors.NewInternalError(err))
		return
	}
	body, contentType := doc.json, "application/json"
	if acceptsProtobuf(r.Header.Get("Accept")) {
		body, contentType = doc.proto, openapiv2.MediaTypeProtobuf
	}
	w.Header().Set("ETag", doc.etag)
	w.Header().Add("Vary", "Accept")
	if r.Header.Get("If-None-Match") == doc.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", contentType)
	_, _ = w.Write(body)
}

// acceptsProtobuf reports whether accept prefers the protobuf document:
// it names it before any JSON type.
func acceptsProtobuf(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		// Not mime.ParseMediaType: the '@' of the protobuf type is not a
		// token character.
		mt, _, _ := strings.Cut(part, ";")
		switch strings.ToLower(strings.TrimSpace(mt)) {
		case openapiv2.MediaTypeProtobuf, openapiv2.MediaTypeProtobufDeprecated:
			return true
		case "application/json", "*/*", "application/*":
			return false
		}
	}
	return false
}
