package client

import (
	"encoding/json"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/internal/specmemo"
	"github.com/crdlab/crdlab/scheme"
)

// SharedSpecs lets a CRD client decode a spec once. A real-size CRD's spec
// is hundreds of KB of schema, and on its way to Established a controller
// sees it again and again unchanged: in the watch event of its create and
// of each status write, and in the answer of each status write. The CRD
// client of CRDsSharingSpecs remembers the specs it decoded by their JSON;
// a CRD whose spec is, byte for byte, a remembered one gets that spec
// (shared), and only the rest (metadata, status) is decoded. A body whose
// spec is a remembered one is written by copying the spec's JSON as the
// server wrote it.
//
// The rule that makes the sharing safe: a spec decoded by such a client is
// read only, as an informer's cache is (DeepCopy copies all of it). The
// server's own controllers change a CRD's status and metadata only.
//
// The memo is internal/specmemo's, as the server's storage codec uses.
// Upstream has nothing like it: client-go decodes every event and answer
// whole, and an informer's transform runs on every object.
type SharedSpecs struct {
	prepare func(*apiextensionsv1.CustomResourceDefinitionSpec)
	memo    *specmemo.Memo[apiextensionsv1.CustomResourceDefinitionSpec, apiextensionsv1.CustomResourceDefinitionVersion]
}

// NewSharedSpecs returns an empty memo. prepare, if not nil, is run once
// on every spec the client decodes whole, before the spec is shared: the
// CRD informer's controller.ShareSpecSchemas, which changes the spec in
// place and so cannot run on a shared one.
func NewSharedSpecs(prepare func(*apiextensionsv1.CustomResourceDefinitionSpec)) *SharedSpecs {
	return &SharedSpecs{prepare: prepare, memo: specmemo.New(
		func(s *apiextensionsv1.CustomResourceDefinitionSpec) []apiextensionsv1.CustomResourceDefinitionVersion {
			return s.Versions
		})}
}

// decode decodes data, a CRD's JSON, into crd (which must be zero). A
// spec decoded before is not decoded again (decodeShared); one decoded
// whole is prepared and remembered.
func (s *SharedSpecs) decode(data []byte, crd *apiextensionsv1.CustomResourceDefinition) error {
	specJSON, shared, err := s.decodeShared(data, crd)
	if shared || err != nil {
		return err
	}
	if err := decodeJSONInto(data, crd); err != nil {
		return err
	}
	s.prepareSpec(&crd.Spec)
	crd.Spec = s.memo.Remember(specJSON, crd.Spec)
	s.finishEstablished(crd)
	return nil
}

// finishEstablished says to the memo that an Established CRD's spec is
// one the controllers are done with: it goes first when the memo is full
// (specmemo.Entry.Finish).
func (s *SharedSpecs) finishEstablished(crd *apiextensionsv1.CustomResourceDefinition) {
	if helpers.IsCRDConditionTrue(crd, apiextensionsv1.Established) {
		if e := s.memo.Find(&crd.Spec); e != nil {
			s.memo.Finish(e)
		}
	}
}

// decodeShared decodes data into crd if its spec is a remembered one: the
// rest with an empty spec in its place, then the remembered spec put in.
// Otherwise shared is false and crd untouched; specJSON is the spec's
// JSON, if data has one.
func (s *SharedSpecs) decodeShared(data []byte, crd *apiextensionsv1.CustomResourceDefinition) (specJSON []byte, shared bool, err error) {
	start, end, found := apiextensionsv1.SpecSpan(data)
	if !found {
		return nil, false, nil
	}
	spec, hit := s.memo.Lookup(data[start:end])
	if !hit {
		return data[start:end], false, nil
	}
	if err := decodeJSONInto(specmemo.Splice(data, start, end, []byte("{}")), crd); err != nil {
		return nil, true, err
	}
	crd.Spec = spec
	s.finishEstablished(crd)
	return nil, true, nil
}

// decodeList decodes data, a CustomResourceDefinitionList's JSON, into
// list: the items cut out by splitList and the envelope read by
// encoding/json (the whole body, if splitList declines it), each item as
// decode does, but without remembering its spec (a relist of thousands of
// CRDs would push out the specs of the CRDs in flight). An informer lists again when its
// watch falls behind, and encoding/json alone reads a real-size CRD's
// schemas many times over (apiextensions/v1.SplitJSON says why).
func (s *SharedSpecs) decodeList(data []byte, list *apiextensionsv1.CustomResourceDefinitionList) error {
	return s.decodeListSplit(data, list, true)
}

// decodeListSplit is decodeList; split says to cut the items out with
// splitList (false: encoding/json reads the envelope and finds the
// items, as tests compare).
func (s *SharedSpecs) decodeListSplit(data []byte, list *apiextensionsv1.CustomResourceDefinitionList, split bool) error {
	var env struct {
		metav1.TypeMeta `json:",inline"`
		ListMeta        metav1.ListMeta `json:"metadata"`
		Items           []itemJSON      `json:"items"`
	}
	var (
		envelope []byte
		items    [][]byte
		ok       bool
	)
	if split {
		envelope, items, ok = splitList(data)
	}
	if ok {
		if err := json.Unmarshal(envelope, &env); err != nil {
			return err
		}
		if items != nil {
			env.Items = make([]itemJSON, len(items))
			for i, it := range items {
				env.Items[i] = it
			}
		}
	} else if err := json.Unmarshal(data, &env); err != nil {
		return err
	}
	*list = apiextensionsv1.CustomResourceDefinitionList{TypeMeta: env.TypeMeta, ListMeta: env.ListMeta}
	if env.Items != nil {
		list.Items = make([]apiextensionsv1.CustomResourceDefinition, len(env.Items))
	}
	for i, item := range env.Items {
		crd := &list.Items[i]
		if _, shared, err := s.decodeShared(item, crd); shared || err != nil {
			if err != nil {
				return err
			}
			continue
		}
		if err := decodeJSONInto(item, crd); err != nil {
			return err
		}
		s.prepareSpec(&crd.Spec)
	}
	return nil
}

// itemJSON is one list item's JSON: the span of data that json.Unmarshal
// hands UnmarshalJSON, kept without a copy (json.RawMessage copies it)
// while decodeList decodes the item. At 2,000 real-size CRDs the informer's
// first list is a 530 MB body, and the copies were as much again.
type itemJSON []byte

func (i *itemJSON) UnmarshalJSON(b []byte) error {
	*i = b
	return nil
}

func (s *SharedSpecs) prepareSpec(spec *apiextensionsv1.CustomResourceDefinitionSpec) {
	if s.prepare != nil {
		s.prepare(spec)
	}
}

// encode writes crd as a request body, as scheme.MarshalJSON does, but
// for a CRD whose spec is a remembered one: then the rest is written with
// an empty spec, and the spec's JSON as the server wrote it copied in. The
// body's spec is the one the server sent, as it sent it (the server's
// storage codec finds it byte for byte among the specs it remembers); it
// decodes to the remembered spec, which was decoded from it.
//
// remember is set for a status write: a spec not remembered (dropped by
// the memo's bound since it was decoded) is then written whole and
// remembered with the JSON written, so that the answer and the watch
// events of the write, whose spec is that JSON when the server writes as
// the client does, find it instead of decoding it whole again. A status
// write's spec is the informer's, read only like every spec the client
// decoded; it decodes from the JSON written for it.
func (s *SharedSpecs) encode(crd *apiextensionsv1.CustomResourceDefinition, remember bool) ([]byte, error) {
	e := s.memo.Find(&crd.Spec)
	if e == nil {
		b, err := scheme.MarshalJSON(crd)
		if err == nil && remember {
			if start, end, found := apiextensionsv1.SpecSpan(b); found {
				s.memo.Remember(b[start:end], crd.Spec)
			}
		}
		return b, err
	}
	stub := *crd
	stub.Spec = apiextensionsv1.CustomResourceDefinitionSpec{}
	b, err := scheme.MarshalJSON(&stub)
	if err != nil {
		return nil, err
	}
	start, end, found := apiextensionsv1.SpecSpan(b)
	if !found {
		return scheme.MarshalJSON(crd)
	}
	return specmemo.Splice(b, start, end, e.JSON), nil
}
