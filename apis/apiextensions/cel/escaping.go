package cel

import (
	"regexp"
	"strings"
)

// reservedSymbols are CEL's reserved words: a property with such a name is
// reached as __name__ (or by its own name, since 1.31).
var reservedSymbols = map[string]bool{
	"true": true, "false": true, "null": true, "in": true,
	"as": true, "break": true, "const": true, "continue": true, "else": true,
	"for": true, "function": true, "if": true, "import": true, "let": true,
	"loop": true, "package": true, "namespace": true, "return": true,
	"var": true, "void": true, "while": true,
}

var expandMatcher = regexp.MustCompile(`(__|[-./]|[^a-zA-Z0-9-./_])`)

// Escape returns the CEL name of a property: reserved words become
// __word__, and "__", ".", "-", "/" become __underscores__, __dot__,
// __dash__, __slash__. It answers false for names CEL cannot reach (empty,
// starting with a digit, other characters): such properties are left out
// of their object's type.
//
// Mirrors apiservercel.Escape in k8s.io/apiserver/pkg/cel/escaping.go.
func Escape(ident string) (string, bool) {
	if len(ident) == 0 || ('0' <= ident[0] && ident[0] <= '9') {
		return "", false
	}
	if reservedSymbols[ident] {
		return "__" + ident + "__", true
	}
	simple := true
	prevUnderscore := false
	for _, c := range ident {
		switch {
		case c == '/' || c == '-' || c == '.':
			simple = false
		case c == '_':
			if prevUnderscore {
				simple = false
			}
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		default:
			return "", false
		}
		prevUnderscore = c == '_'
		if !simple {
			break
		}
	}
	if simple {
		return ident, true
	}
	ok := true
	out := expandMatcher.ReplaceAllStringFunc(ident, func(s string) string {
		switch s {
		case "__":
			return "__underscores__"
		case ".":
			return "__dot__"
		case "-":
			return "__dash__"
		case "/":
			return "__slash__"
		}
		ok = false
		return ""
	})
	return out, ok
}

var unexpandMatcher = regexp.MustCompile(`(_{2}[^_]+_{2})`)

// Unescape reverses Escape.
//
// Mirrors apiservercel.Unescape.
func Unescape(escaped string) (string, bool) {
	if !strings.Contains(escaped, "__") {
		return escaped, true
	}
	ok := true
	out := unexpandMatcher.ReplaceAllStringFunc(escaped, func(s string) string {
		contents := s[2 : len(s)-2]
		switch contents {
		case "underscores":
			return "__"
		case "dot":
			return "."
		case "dash":
			return "-"
		case "slash":
			return "/"
		}
		if reservedSymbols[contents] {
			if len(s) != len(escaped) {
				ok = false
			}
			return contents
		}
		ok = false
		return ""
	})
	return out, ok
}
