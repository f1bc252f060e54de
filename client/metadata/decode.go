package metadata

import (
	"bytes"
	"encoding/json"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// decodePartial decodes body into partial as json.Unmarshal does, in one
// pass without reflection: the garbage collector decodes the metadata of
// every write of every object, and encoding/json spent as much CPU on its
// ≈ 600 bytes as crdlab's fast decoder on a whole object. The scanner
// takes the JSON servers write (no escapes or non-ASCII bytes in strings,
// keys in their exact case, whole numbers where ObjectMeta has int64s,
// times in RFC 3339); on anything else it gives up and json.Unmarshal
// decides, with its own error. FuzzDecodePartial checks that both agree.
//
// Keys and skipped values are read in place, without a copy: per event
// only the values kept are allocated. What omit names, the scanner
// checks but keeps nothing of (nil, as the garbage collector's informers
// trim it anyway): managedFields are most of what an event's metadata
// allocates, labels and annotations a map and two strings per entry.
func decodePartial(body []byte, partial *metav1.PartialObjectMetadata, omit omitted) error {
	s := scanner{b: body, omit: omit}
	if s.partial(partial) && s.end() {
		return nil
	}
	*partial = metav1.PartialObjectMetadata{}
	if err := json.Unmarshal(body, partial); err != nil {
		return err
	}
	omit.clear(&partial.ObjectMeta)
	return nil
}

// omitted is what a client's objects come without (Client.OmitManagedFields,
// Client.OmitLabelsAndAnnotations).
type omitted struct {
	managedFields bool
	// labels: metadata.labels and metadata.annotations.
	labels bool
}

// clear drops from m what o omits.
func (o omitted) clear(m *metav1.ObjectMeta) {
	if o.managedFields {
		m.ManagedFields = nil
	}
	if o.labels {
		m.Labels, m.Annotations = nil, nil
	}
}

// scanner reads JSON from b at i. Every method reports false when the
// input is not what it handles; the caller then gives up.
type scanner struct {
	b     []byte
	i     int
	depth int // nesting, bounded: deeper input goes to encoding/json
	// omit: what is checked, not kept.
	omit omitted
	// discard is set while something omitted is read (managedFields into
	// scratch): strings, maps and fieldsV1 are checked, not copied.
	discard bool
	scratch metav1.ManagedFieldsEntry
}

const maxDepth = 1000

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// end reports whether only white space is left.
func (s *scanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

// next reports whether the next byte (after white space) is c, and
// consumes it if so.
func (s *scanner) next(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// null consumes a null.
func (s *scanner) null() bool {
	s.space()
	if len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

// str reads a string of printable ASCII without escapes.
func (s *scanner) str() (string, bool) {
	b, ok := s.raw()
	return string(b), ok
}

// raw reads a string as str does, and returns its bytes in place (for
// keys and skipped values, which need no copy).
func (s *scanner) raw() ([]byte, bool) {
	if !s.next('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c == '"' {
			v := s.b[start:s.i]
			s.i++
			return v, true
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			return nil, false
		}
		s.i++
	}
	return nil, false
}

// object reads {…}, calling field for each key, which must consume its
// value. The key is in place in the input: field must not keep it
// (a switch on string(key) does not copy it).
func (s *scanner) object(field func(key []byte) bool) bool {
	if s.depth++; s.depth > maxDepth || !s.next('{') {
		return false
	}
	defer func() { s.depth-- }()
	if s.next('}') {
		return true
	}
	for {
		k, ok := s.raw()
		if !ok || !s.next(':') || !field(k) {
			return false
		}
		if s.next('}') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

// array reads […], calling elem for each element.
func (s *scanner) array(elem func() bool) bool {
	if s.depth++; s.depth > maxDepth || !s.next('[') {
		return false
	}
	defer func() { s.depth-- }()
	if s.next(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if s.next(']') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

// skip consumes any value (checking its grammar: it is left out, but
// encoding/json would refuse a body with a broken one).
func (s *scanner) skip() bool {
	s.space()
	if s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.object(func([]byte) bool { return s.skip() })
	case c == '[':
		return s.array(s.skip)
	case c == '"':
		_, ok := s.raw()
		return ok
	case c == 't':
		return s.word("true")
	case c == 'f':
		return s.word("false")
	case c == 'n':
		return s.null()
	case c == '-' || '0' <= c && c <= '9':
		_, _, ok := s.number()
		return ok
	}
	return false
}

func (s *scanner) word(w string) bool {
	if len(s.b)-s.i >= len(w) && string(s.b[s.i:s.i+len(w)]) == w {
		s.i += len(w)
		return true
	}
	return false
}

// number consumes a JSON number; whole is whether it has no fraction or
// exponent, and n its value if it is whole and fits an int64.
func (s *scanner) number() (n int64, whole, ok bool) {
	s.space()
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	digits := s.i
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		s.i++
	}
	if s.i == digits || s.b[digits] == '0' && s.i-digits > 1 {
		return 0, false, false // no digits, or a leading zero
	}
	whole = true
	if s.i < len(s.b) && s.b[s.i] == '.' {
		whole = false
		s.i++
		d := s.i
		for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
			s.i++
		}
		if s.i == d {
			return 0, false, false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		whole = false
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		d := s.i
		for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
			s.i++
		}
		if s.i == d {
			return 0, false, false
		}
	}
	if !whole || s.i-digits > 18 { // 18 digits always fit an int64
		return 0, false, true
	}
	for _, c := range s.b[digits:s.i] {
		n = n*10 + int64(c-'0')
	}
	if s.b[start] == '-' {
		n = -n
	}
	return n, true, true
}

// int64 reads a whole number that fits an int64; null leaves *dst as is.
func (s *scanner) int64(dst *int64) bool {
	if s.null() {
		return true
	}
	n, whole, ok := s.number()
	if !ok || !whole {
		return false
	}
	*dst = n
	return true
}

// string reads a string; null leaves *dst as is, and so does discard.
func (s *scanner) string(dst *string) bool {
	if s.null() {
		return true
	}
	v, ok := s.raw()
	if !s.discard {
		*dst = string(v)
	}
	return ok
}

// time reads a metav1.Time as its UnmarshalJSON does (null is zero).
func (s *scanner) time(dst *metav1.Time) bool {
	if s.null() {
		*dst = metav1.Time{}
		return true
	}
	v, ok := s.str()
	if !ok {
		return false
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return false
	}
	*dst = metav1.Time{Time: t.Local()}
	return true
}

func (s *scanner) boolPtr(dst **bool) bool {
	if s.null() {
		*dst = nil
		return true
	}
	var b bool
	switch {
	case s.word("true"):
		b = true
	case s.word("false"):
	default:
		return false
	}
	*dst = &b
	return true
}

// stringMap reads a map of strings; with discard it checks one and
// leaves *dst as is.
func (s *scanner) stringMap(dst *map[string]string) bool {
	if s.discard {
		return s.null() || s.object(func([]byte) bool {
			_, ok := s.raw()
			return ok
		})
	}
	if s.null() {
		*dst = nil
		return true
	}
	m := *dst // a key given twice: encoding/json adds to the map it has
	if m == nil {
		m = map[string]string{}
	}
	ok := s.object(func(k []byte) bool {
		v, ok := s.str()
		m[string(k)] = v
		return ok
	})
	*dst = m
	return ok
}

func (s *scanner) strings(dst *[]string) bool {
	if s.null() {
		*dst = nil
		return true
	}
	l := []string{}
	ok := s.array(func() bool {
		v, ok := s.str()
		l = append(l, v)
		return ok
	})
	*dst = l
	return ok
}

// dropped reads a value with read, which would keep it, under discard:
// the scanner takes the same input as when it keeps it (and leaves to
// encoding/json, with its errors, the same input), and keeps nothing.
func (s *scanner) dropped(read func() bool) bool {
	s.discard = true
	ok := read()
	s.discard = false
	return ok
}

// unknown is a key the struct has no field for: skipped, unless it names
// one of fields in another case (encoding/json matches keys regardless of
// case).
func (s *scanner) unknown(key []byte, fields ...string) bool {
	for _, f := range fields {
		if bytes.EqualFold(key, []byte(f)) {
			return false
		}
	}
	return s.skip()
}

func (s *scanner) partial(p *metav1.PartialObjectMetadata) bool {
	return s.object(func(k []byte) bool {
		switch string(k) {
		case "apiVersion":
			return s.string(&p.APIVersion)
		case "kind":
			return s.string(&p.Kind)
		case "metadata":
			return s.null() || s.objectMeta(&p.ObjectMeta)
		}
		return s.unknown(k, "apiVersion", "kind", "metadata")
	})
}

func (s *scanner) objectMeta(o *metav1.ObjectMeta) bool {
	return s.object(func(k []byte) bool {
		switch string(k) {
		case "name":
			return s.string(&o.Name)
		case "generateName":
			return s.string(&o.GenerateName)
		case "namespace":
			return s.string(&o.Namespace)
		case "selfLink":
			return s.string(&o.SelfLink)
		case "uid":
			return s.string((*string)(&o.UID))
		case "resourceVersion":
			return s.string(&o.ResourceVersion)
		case "generation":
			return s.int64(&o.Generation)
		case "creationTimestamp":
			return s.time(&o.CreationTimestamp)
		case "deletionTimestamp":
			if s.null() {
				o.DeletionTimestamp = nil
				return true
			}
			o.DeletionTimestamp = &metav1.Time{}
			return s.time(o.DeletionTimestamp)
		case "deletionGracePeriodSeconds":
			if s.null() {
				o.DeletionGracePeriodSeconds = nil
				return true
			}
			o.DeletionGracePeriodSeconds = new(int64)
			return s.int64(o.DeletionGracePeriodSeconds)
		case "labels":
			if s.omit.labels {
				return s.dropped(func() bool { return s.stringMap(&o.Labels) })
			}
			return s.stringMap(&o.Labels)
		case "annotations":
			if s.omit.labels {
				return s.dropped(func() bool { return s.stringMap(&o.Annotations) })
			}
			return s.stringMap(&o.Annotations)
		case "finalizers":
			return s.strings(&o.Finalizers)
		case "ownerReferences":
			if s.null() {
				o.OwnerReferences = nil
				return true
			}
			return elements(s, &o.OwnerReferences, s.ownerReference)
		case "managedFields":
			if s.null() {
				o.ManagedFields = nil
				return true
			}
			if s.omit.managedFields {
				// Read as if kept, so that the scanner takes the same
				// input (and encoding/json gives the same errors), into
				// one scratch entry that is dropped.
				o.ManagedFields = nil
				s.discard = true
				ok := s.array(func() bool { return s.managedFieldsEntry(&s.scratch) })
				s.discard = false
				return ok
			}
			return elements(s, &o.ManagedFields, s.managedFieldsEntry)
		}
		return s.unknown(k, "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion",
			"generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels",
			"annotations", "finalizers", "ownerReferences", "managedFields")
	})
}

// elements reads an array into *dst as encoding/json does: each element
// decoded into the slot it has (a key given twice overwrites field by
// field), the slice cut to the array's length; [] is an empty slice.
func elements[T any](s *scanner, dst *[]T, elem func(*T) bool) bool {
	l := (*dst)[:0]
	ok := s.array(func() bool {
		if len(l) < cap(l) {
			l = l[:len(l)+1]
		} else {
			var zero T
			l = append(l, zero)
		}
		return elem(&l[len(l)-1])
	})
	if l == nil {
		l = []T{}
	}
	*dst = l
	return ok
}

func (s *scanner) ownerReference(r *metav1.OwnerReference) bool {
	return s.object(func(k []byte) bool {
		switch string(k) {
		case "apiVersion":
			return s.string(&r.APIVersion)
		case "kind":
			return s.string(&r.Kind)
		case "name":
			return s.string(&r.Name)
		case "uid":
			return s.string((*string)(&r.UID))
		case "controller":
			return s.boolPtr(&r.Controller)
		case "blockOwnerDeletion":
			return s.boolPtr(&r.BlockOwnerDeletion)
		}
		return s.unknown(k, "apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion")
	})
}

func (s *scanner) managedFieldsEntry(e *metav1.ManagedFieldsEntry) bool {
	return s.object(func(k []byte) bool {
		switch string(k) {
		case "manager":
			return s.string(&e.Manager)
		case "operation":
			return s.string((*string)(&e.Operation))
		case "apiVersion":
			return s.string(&e.APIVersion)
		case "time":
			if s.null() {
				e.Time = nil
				return true
			}
			if s.discard {
				var t metav1.Time
				return s.time(&t)
			}
			e.Time = &metav1.Time{}
			return s.time(e.Time)
		case "fieldsType":
			return s.string(&e.FieldsType)
		case "subresource":
			return s.string(&e.Subresource)
		case "fieldsV1":
			// Kept as the raw JSON it is, as FieldsV1.UnmarshalJSON does.
			if s.null() {
				e.FieldsV1 = nil
				return true
			}
			s.space()
			start := s.i
			if !s.skip() {
				return false
			}
			if !s.discard {
				e.FieldsV1 = &metav1.FieldsV1{Raw: append([]byte(nil), s.b[start:s.i]...)}
			}
			return true
		}
		return s.unknown(k, "manager", "operation", "apiVersion", "time", "fieldsType", "subresource", "fieldsV1")
	})
}
