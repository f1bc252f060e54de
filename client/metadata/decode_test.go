package metadata

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// serverBodies are PartialObjectMetadata and whole objects as servers
// write them: the scanner must take them itself.
var serverBodies = []string{
	// As crdlab writes a watch event's object.
	`{"apiVersion":"meta.k8s.io/v1","kind":"PartialObjectMetadata","metadata":{"annotations":{"a":"b"},"creationTimestamp":"2026-12-02T07:00:00Z","finalizers":["foregroundDeletion"],"generation":3,"labels":{"app":"x","shard":"s1"},"managedFields":[{"apiVersion":"bench.crdlab.dev/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{".":{},"f:size":{}}},"manager":"crdbench","operation":"Update","time":"2026-12-02T07:00:01Z"}],"name":"w-000001","namespace":"default","ownerReferences":[{"apiVersion":"v1","blockOwnerDeletion":true,"controller":false,"kind":"ConfigMap","name":"owner","uid":"u-1"}],"resourceVersion":"1234","uid":"9c1e2f4a-0000-4000-8000-000000000001"}}`,
	// A whole object (a server that cannot convert), indented.
	"{\n  \"apiVersion\": \"stable.example.com/v1\",\n  \"kind\": \"CronTab\",\n  \"metadata\": {\"name\": \"a\", \"namespace\": \"default\", \"uid\": \"u\", \"creationTimestamp\": \"2026-12-02T07:00:00Z\", \"deletionTimestamp\": \"2026-12-02T08:00:00+01:00\", \"deletionGracePeriodSeconds\": 0},\n  \"spec\": {\"cronSpec\": \"* * * * */5\", \"n\": [1.5, -2e3, 0, true, false, null, {}], \"nested\": {\"kind\": \"not mine\"}},\n  \"status\": {}\n}\n",
	// Nulls, empty values, unknown keys.
	`{"apiVersion":null,"kind":"PartialObjectMetadata","metadata":{"name":"n","labels":null,"annotations":{},"finalizers":null,"ownerReferences":[],"generation":null,"creationTimestamp":null,"deletionTimestamp":null,"managedFields":[{"manager":"m","time":null,"fieldsV1":null}],"somethingNew":[1,2]},"extra":true}`,
	`{"metadata":null}`,
	`{}`,
	// Keys given twice: encoding/json merges maps and slice elements.
	`{"metadata":{"labels":{"a":"1"},"ownerReferences":[{"name":"x","uid":"1"},{"name":"y"}],"generation":2},"metadata":{"labels":{"b":"2"},"ownerReferences":[{"uid":"2"}],"name":"z"}}`,
}

// otherBodies are left to encoding/json: it reads them otherwise than
// the obvious way, or refuses them.
var otherBodies = []string{
	`{"Kind":"PartialObjectMetadata","metadata":{"name":"a"}}`,
	`{"kind":"PartialObjectMetadata","Metadata":{"name":"a"}}`,
	`{"kind":"PartialObjectMetadata","metadata":{"Name":"a","name":"b"}}`,
	`{"kind":"PartialObjectMetadata","metadata":{"ownerReferences":[{"UID":"u","name":"a"}]}}`,
	`{"kind":"PartialObjectMetadata","metadata":{"managedFields":[{"Manager":"m"}]}}`,
	`{"kind":"PartialObjectMetadata","metadata":{"labels":{"a":null}}}`,
	`{"kind":"PartialObjectMetadata","metadata":{"finalizers":["a",null]}}`,
	`{"kind":"PartialObjectMetadata","metadata":{"generation":1.5}}`,
	`{"kind":"PartialObjectMetadata","metadata":{"generation":"1"}}`,
	`{"kind":"PartialObjectMetadata","metadata":{"generation":1000000000000000000}}`,
	`{"kind":"PartialObjectMetadata","metadata":{"generation":99999999999999999999}}`,
	`{"kind":"PartialObjectMetadata","metadata":{"generation":01}}`,
	`{"kind":"PartialObjectMetadata","metadata":{"creationTimestamp":"yesterday"}}`,
	`{"kind":"PartialObjectMetadata","metadata":{"creationTimestamp":5}}`,
	`{"kind":"PartialObjectMetadata","metadata":{"name":5}}`,
	`{"kind":"PartialObjectMetadata","metadata":"a"}`,
	`{"kind":"PartialObjectMetadata","metadata":{"ownerReferences":[{"controller":"yes"}]}}`,
	`{"kind":1}`,
	`{"kind":"PartialObjectMetadata","metadata":{"name":"caf\u00e9","namespace":"d\"q"}}`,
	`{"kind":"PartialObjectMetadata","metadata":{"name":"café"}}`,
	`{"kind":"PartialObjectMetadata","spec":[1,2,}`,
	`{"kind":"PartialObjectMetadata"`,
	`{"kind":"PartialObjectMetadata"} x`,
	`[]`,
	`null`,
	strings.Repeat(`{"a":`, 2000) + `1` + strings.Repeat(`}`, 2000),
}

// omissions are the clients' choices: everything kept, managedFields
// omitted (the namespace controller's), labels and annotations too (the
// garbage collector's).
var omissions = []omitted{{}, {managedFields: true}, {managedFields: true, labels: true}}

// sameAsEncodingJSON checks decodePartial against json.Unmarshal, with
// each of omissions (json.Unmarshal's, then cleared).
func sameAsEncodingJSON(t *testing.T, body []byte) {
	t.Helper()
	for _, omit := range omissions {
		var want, got metav1.PartialObjectMetadata
		wantErr := json.Unmarshal(body, &want)
		omit.clear(&want.ObjectMeta)
		gotErr := decodePartial(body, &got, omit)
		switch {
		case (wantErr != nil) != (gotErr != nil):
			t.Errorf("%.200s (omit %v):\nencoding/json error %v, decodePartial error %v", body, omit, wantErr, gotErr)
		case wantErr != nil && wantErr.Error() != gotErr.Error():
			t.Errorf("%.200s (omit %v):\nerror %q, want encoding/json's %q", body, omit, gotErr, wantErr)
		case wantErr == nil && !reflect.DeepEqual(want, got):
			t.Errorf("%.200s (omit %v):\ngot  %#v\nwant %#v", body, omit, got, want)
		}
	}
}

// TestDecodePartial_SameAsEncodingJSON: decodePartial decodes every body
// as json.Unmarshal does, and fails where it fails; the scanner takes the
// bodies servers write itself.
func TestDecodePartial_SameAsEncodingJSON(t *testing.T) {
	for _, body := range append(append([]string{}, serverBodies...), otherBodies...) {
		sameAsEncodingJSON(t, []byte(body))
	}
	for _, body := range serverBodies {
		for _, omit := range omissions {
			s := scanner{b: []byte(body), omit: omit}
			if !s.partial(&metav1.PartialObjectMetadata{}) || !s.end() {
				t.Errorf("%s (omit %v): left to encoding/json", body, omit)
			}
		}
	}
}

// TestDecodePartial_Allocations: an event's keys and the values it skips
// are not copied; with managedFields omitted, nothing of them is. The
// counts are those of serverBodies[0]: its strings, maps, slices and
// times, and the scanner.
func TestDecodePartial_Allocations(t *testing.T) {
	body := []byte(serverBodies[0])
	for _, tc := range []struct {
		name string
		omit omitted
		max  float64
	}{
		{"ManagedFieldsKept", omitted{}, 31},
		{"ManagedFieldsOmitted", omitted{managedFields: true}, 23},
		{"LabelsAndAnnotationsOmitted", omitted{managedFields: true, labels: true}, 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := testing.AllocsPerRun(100, func() {
				var p metav1.PartialObjectMetadata
				if err := decodePartial(body, &p, tc.omit); err != nil {
					t.Fatal(err)
				}
			})
			if got > tc.max {
				t.Errorf("%v allocations, want at most %v", got, tc.max)
			}
		})
	}
}

// FuzzDecodePartial: on any input, decodePartial agrees with
// json.Unmarshal.
func FuzzDecodePartial(f *testing.F) {
	for _, b := range append(append([]string{}, serverBodies...), otherBodies...) {
		f.Add([]byte(b))
	}
	f.Fuzz(sameAsEncodingJSON)
}

func BenchmarkDecodePartial(b *testing.B) {
	body := []byte(serverBodies[0])
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p metav1.PartialObjectMetadata
			if err := json.Unmarshal(body, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, omit := range omissions {
		b.Run(fmt.Sprintf("decodePartial/omit=%+v", omit), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var p metav1.PartialObjectMetadata
				if err := decodePartial(body, &p, omit); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
