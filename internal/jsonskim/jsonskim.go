package jsonskim

import "bytes"

// Scanner reads JSON text B from offset I. Its methods report false when
// the text is not what they read; the caller then gives up (and usually
// decodes the text the slow way).
type Scanner struct {
	B []byte
	I int
	// KeyAt is the offset of the opening quote of the key whose value
	// Object's callback is reading.
	KeyAt int
	// Escaped says a key Object read had a backslash escape (keys are
	// handed over raw, escapes and all: their bytes are then not their
	// value).
	Escaped bool
}

// Space skips white space.
func (s *Scanner) Space() {
	i, b := s.I, s.B
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	s.I = i
}

// End reports whether only white space is left.
func (s *Scanner) End() bool {
	s.Space()
	return s.I == len(s.B)
}

// Byte consumes c if it is next (white space is not skipped).
func (s *Scanner) Byte(c byte) bool {
	if s.I < len(s.B) && s.B[s.I] == c {
		s.I++
		return true
	}
	return false
}

// Literal consumes word if it is next.
func (s *Scanner) Literal(word string) bool {
	if bytes.HasPrefix(s.B[s.I:], []byte(word)) {
		s.I += len(word)
		return true
	}
	return false
}

// Str reads a string (white space before it is skipped) and returns its
// raw content in place; escaped says it had a backslash escape.
func (s *Scanner) Str() (raw []byte, escaped, ok bool) {
	s.Space()
	if !s.Byte('"') {
		return nil, false, false
	}
	// A local index: the loop is the skim's hot one.
	b, start := s.B, s.I
	for i := start; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			s.I = i + 1
			return b[start:i], escaped, true
		case c == '\\':
			escaped = true
			i++
		case c < 0x20:
			return nil, false, false
		}
	}
	return nil, false, false
}

// Skip reads one value of any kind (white space before it is skipped):
// strings for their quotes, brackets counted, and a number, true, false or
// null up to the next delimiter.
func (s *Scanner) Skip() bool {
	s.Space()
	if s.I >= len(s.B) {
		return false
	}
	switch s.B[s.I] {
	case '"':
		_, _, ok := s.Str()
		return ok
	case '{', '[':
		depth, b := 0, s.B
		for i := s.I; i < len(b); i++ {
			switch b[i] {
			case '"':
				s.I = i
				if _, _, ok := s.Str(); !ok {
					return false
				}
				i = s.I - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					s.I = i + 1
					return true
				}
			}
		}
		return false
	default:
		start, b := s.I, s.B
		for i := start; i < len(b); i++ {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				s.I = i
				return i > start
			case '"', '{', '[', ':':
				return false
			}
		}
		s.I = len(b)
		return len(b) > start
	}
}

// Object reads an object, calling field with each key (raw, in place:
// field must not keep it); field must read the key's value, or return
// false to stop the walk there (Object then returns false too).
func (s *Scanner) Object(field func(key []byte) bool) bool {
	s.Space()
	if !s.Byte('{') {
		return false
	}
	s.Space()
	if s.Byte('}') {
		return true
	}
	for {
		s.Space()
		s.KeyAt = s.I
		key, escaped, ok := s.Str()
		if !ok {
			return false
		}
		s.Escaped = s.Escaped || escaped
		s.Space()
		if !s.Byte(':') || !field(key) {
			return false
		}
		s.Space()
		switch {
		case s.Byte(','):
		case s.Byte('}'):
			return true
		default:
			return false
		}
	}
}

// Array reads an array and returns each element's span (white space
// before it is skipped).
func (s *Scanner) Array() ([][]byte, bool) {
	s.Space()
	if !s.Byte('[') {
		return nil, false
	}
	out := [][]byte{}
	s.Space()
	if s.Byte(']') {
		return out, true
	}
	for {
		s.Space()
		start := s.I
		if !s.Skip() {
			return nil, false
		}
		out = append(out, s.B[start:s.I])
		s.Space()
		switch {
		case s.Byte(','):
		case s.Byte(']'):
			return out, true
		default:
			return nil, false
		}
	}
}
