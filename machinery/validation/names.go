package validation

import (
	"fmt"
	"strings"
)

// The regular expressions and messages below are upstream's, word for word,
// so that clients see the same error text. The values are checked by the
// matchers at the end of this file, which accept exactly what the
// expressions do (FuzzNameMatchers compares them): every write validates
// its labels and annotations, and regexp's matching was a tenth of an
// update's CPU before its commit (docs/storage.md, session 13).

const (
	dns1123LabelFmt          = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123LabelErrMsg       = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubdomainFmt      = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainErrorMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1035LabelFmt          = "[a-z]([-a-z0-9]*[a-z0-9])?"
	dns1035LabelErrMsg       = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"

	qualifiedNameCharFmt    = "[A-Za-z0-9]"
	qualifiedNameExtCharFmt = "[-A-Za-z0-9_.]"
	qualifiedNameFmt        = "(" + qualifiedNameCharFmt + qualifiedNameExtCharFmt + "*)?" + qualifiedNameCharFmt
	qualifiedNameErrMsg     = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueFmt           = "(" + qualifiedNameFmt + ")?"
	labelValueErrMsg        = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
)

// Length limits of the name kinds, as upstream.
const (
	DNS1123LabelMaxLength     = 63
	DNS1123SubdomainMaxLength = 253
	DNS1035LabelMaxLength     = 63
	QualifiedNameMaxLength    = 63
	LabelValueMaxLength       = 63
)

// IsDNS1123Label checks that value is a lowercase RFC 1123 label (a
// namespace name, a CRD's plural). It returns nil if it is, else messages.
//
// Mirrors k8s.io/apimachinery/pkg/util/validation.IsDNS1123Label.
func IsDNS1123Label(value string) []string {
	var errs []string
	if len(value) > DNS1123LabelMaxLength {
		errs = append(errs, MaxLenError(DNS1123LabelMaxLength))
	}
	if !isDNS1123Label(value) {
		errs = append(errs, RegexError(dns1123LabelErrMsg, dns1123LabelFmt, "my-name", "123-abc"))
	}
	return errs
}

// IsDNS1123Subdomain checks that value is a lowercase RFC 1123 subdomain
// (most object names, a CRD's group).
//
// Mirrors k8s.io/apimachinery/pkg/util/validation.IsDNS1123Subdomain.
func IsDNS1123Subdomain(value string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, MaxLenError(DNS1123SubdomainMaxLength))
	}
	if !isDNS1123Subdomain(value) {
		errs = append(errs, RegexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// IsDNS1035Label checks that value is a DNS-1035 label (starts with a letter).
//
// Mirrors k8s.io/apimachinery/pkg/util/validation.IsDNS1035Label.
func IsDNS1035Label(value string) []string {
	var errs []string
	if len(value) > DNS1035LabelMaxLength {
		errs = append(errs, MaxLenError(DNS1035LabelMaxLength))
	}
	if !isDNS1035Label(value) {
		errs = append(errs, RegexError(dns1035LabelErrMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

// IsQualifiedName checks that value is a label or annotation key, a
// finalizer: an optional DNS subdomain prefix and "/", then a name of at
// most 63 characters.
//
// Mirrors k8s.io/apimachinery/pkg/util/validation.IsQualifiedName.
func IsQualifiedName(value string) []string {
	var errs []string
	parts := strings.Split(value, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		var prefix string
		prefix, name = parts[0], parts[1]
		if len(prefix) == 0 {
			errs = append(errs, "prefix part "+EmptyError())
		} else if msgs := IsDNS1123Subdomain(prefix); len(msgs) != 0 {
			errs = append(errs, prefixEach(msgs, "prefix part ")...)
		}
	default:
		return append(errs, "a qualified name "+RegexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if len(name) == 0 {
		errs = append(errs, "name part "+EmptyError())
	} else if len(name) > QualifiedNameMaxLength {
		errs = append(errs, "name part "+MaxLenError(QualifiedNameMaxLength))
	}
	if !isQualifiedName(name) {
		errs = append(errs, "name part "+RegexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsValidLabelValue checks a label value: empty, or a name of at most 63
// characters.
//
// Mirrors k8s.io/apimachinery/pkg/util/validation.IsValidLabelValue.
func IsValidLabelValue(value string) []string {
	var errs []string
	if len(value) > LabelValueMaxLength {
		errs = append(errs, MaxLenError(LabelValueMaxLength))
	}
	if !isLabelValue(value) {
		errs = append(errs, RegexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// MaxLenError is the message of a too-long value.
func MaxLenError(length int) string {
	return fmt.Sprintf("must be no more than %d characters", length)
}

// EmptyError is the message of an empty value.
func EmptyError() string { return "must be non-empty" }

// RegexError is the message of a value that does not match fmt, with
// examples of values that do.
func RegexError(msg, fmt string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + fmt + "')"
	}
	msg += " (e.g. "
	for i := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + examples[i] + "', "
	}
	msg += "regex used for validation is '" + fmt + "')"
	return msg
}

func prefixEach(msgs []string, prefix string) []string {
	for i := range msgs {
		msgs[i] = prefix + msgs[i]
	}
	return msgs
}

// The matchers of the expressions above: each reports whether the whole of
// s matches.

// isDNS1123Label matches dns1123LabelFmt: [a-z0-9]([-a-z0-9]*[a-z0-9])?
func isDNS1123Label(s string) bool {
	if s == "" || !isLowerAlnum(s[0]) || !isLowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if !isLowerAlnum(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

// isDNS1123Subdomain matches dns1123SubdomainFmt: labels joined by dots.
func isDNS1123Subdomain(s string) bool {
	for {
		label, rest, more := strings.Cut(s, ".")
		if !isDNS1123Label(label) {
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

// isDNS1035Label matches dns1035LabelFmt: [a-z]([-a-z0-9]*[a-z0-9])?
func isDNS1035Label(s string) bool {
	return s != "" && 'a' <= s[0] && s[0] <= 'z' && isDNS1123Label(s)
}

// isQualifiedName matches qualifiedNameFmt:
// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
func isQualifiedName(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// isLabelValue matches labelValueFmt: empty, or a qualified name.
func isLabelValue(s string) bool { return s == "" || isQualifiedName(s) }

func isLowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

func isAlnum(c byte) bool { return isLowerAlnum(c) || 'A' <= c && c <= 'Z' }
