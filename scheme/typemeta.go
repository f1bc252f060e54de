package scheme

// typeMetaOf reads apiVersion and kind from j, a JSON object, as
// json.Unmarshal into struct{ APIVersion `json:"apiVersion"`; Kind
// `json:"kind"` } reads them — the last of repeated keys wins, null leaves
// a field as it was — but without encoding/json's two passes over the
// whole document (a real-size CRD is hundreds of KB, and every request
// body is asked for its kind). It looks at the other values only as far
// as strings and nesting go: it does not check that j is valid JSON (the
// caller does, or decodes j after). ok is false when it cannot tell the
// way encoding/json would: j is not an object, a key or one of the two
// values is not plain ASCII without escapes, a key matches "apiVersion"
// or "kind" only in another case, a value is neither a string nor null.
func typeMetaOf(j []byte) (apiVersion, kind string, ok bool) {
	i := skipSpace(j, 0)
	if i >= len(j) || j[i] != '{' {
		return "", "", false
	}
	i = skipSpace(j, i+1)
	if i < len(j) && j[i] == '}' {
		return "", "", true
	}
	for {
		end, plain := stringEnd(j, i)
		if end < 0 || !plain {
			return "", "", false
		}
		key := string(j[i+1 : end-1])
		i = skipSpace(j, end)
		if i >= len(j) || j[i] != ':' {
			return "", "", false
		}
		i = skipSpace(j, i+1)
		var field *string
		switch {
		case key == "apiVersion":
			field = &apiVersion
		case key == "kind":
			field = &kind
		case foldEqual(key, "apiVersion"), foldEqual(key, "kind"):
			return "", "", false
		}
		switch {
		case field == nil:
			if i = skipValue(j, i); i < 0 {
				return "", "", false
			}
		case i < len(j) && j[i] == '"':
			end, plain := stringEnd(j, i)
			if end < 0 || !plain {
				return "", "", false
			}
			*field = string(j[i+1 : end-1])
			i = end
		case len(j)-i >= 4 && string(j[i:i+4]) == "null":
			i += 4
		default:
			return "", "", false
		}
		i = skipSpace(j, i)
		if i >= len(j) {
			return "", "", false
		}
		switch j[i] {
		case '}':
			return apiVersion, kind, true
		case ',':
			i = skipSpace(j, i+1)
		default:
			return "", "", false
		}
	}
}

// foldEqual reports whether the ASCII strings a and b are equal but for
// case.
func foldEqual(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func skipSpace(j []byte, i int) int {
	for i < len(j) && (j[i] == ' ' || j[i] == '\t' || j[i] == '\n' || j[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index after the string that starts at j[i] (a
// quote), or -1; plain is false if the string has escapes, control bytes
// or bytes outside ASCII.
func stringEnd(j []byte, i int) (end int, plain bool) {
	if i >= len(j) || j[i] != '"' {
		return -1, false
	}
	plain = true
	for i++; i < len(j); i++ {
		switch c := j[i]; {
		case c == '"':
			return i + 1, plain
		case c == '\\':
			plain = false
			i++
		case c < 0x20 || c >= 0x80:
			plain = false
		}
	}
	return -1, false
}

// skipValue returns the index after the value that starts at j[i], or -1;
// it follows strings and nesting only.
func skipValue(j []byte, i int) int {
	if i >= len(j) {
		return -1
	}
	switch j[i] {
	case '"':
		end, _ := stringEnd(j, i)
		return end
	case '{', '[':
		depth := 0
		for i < len(j) {
			switch j[i] {
			case '"':
				end, _ := stringEnd(j, i)
				if end < 0 {
					return -1
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	for i < len(j) { // a literal: true, false, null, a number
		switch j[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}
