package labels

import (
	"fmt"
	"regexp"
	"strings"
)

// The formats and messages below are upstream's
// (k8s.io/apimachinery/pkg/util/validation/validation.go), so a client sees
// the same text from crdlab as from kube-apiserver.
const (
	qualifiedNameFmt    = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	qualifiedNameErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	qualifiedNameMaxLen = 63

	labelValueFmt    = "(" + qualifiedNameFmt + ")?"
	labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueMaxLen = 63

	dns1123LabelFmt        = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt    = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1123SubdomainMaxLen = 253
)

var (
	qualifiedNameRegexp    = regexp.MustCompile("^" + qualifiedNameFmt + "$")
	labelValueRegexp       = regexp.MustCompile("^" + labelValueFmt + "$")
	dns1123SubdomainRegexp = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
)

// IsQualifiedName returns why value is not a valid label key (or other
// qualified name), or nil: an optional DNS-subdomain prefix and "/", then a
// name of at most 63 characters.
//
// Mirrors validation.IsQualifiedName.
func IsQualifiedName(value string) []string {
	var errs []string
	parts := strings.Split(value, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, m := range isDNS1123Subdomain(prefix) {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return []string{"a qualified name " + regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > qualifiedNameMaxLen {
		errs = append(errs, "name part "+maxLenError(qualifiedNameMaxLen))
	}
	if !qualifiedNameRegexp.MatchString(name) {
		errs = append(errs, "name part "+regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsValidLabelValue returns why value is not a valid label value, or nil.
//
// Mirrors validation.IsValidLabelValue.
func IsValidLabelValue(value string) []string {
	var errs []string
	if len(value) > labelValueMaxLen {
		errs = append(errs, maxLenError(labelValueMaxLen))
	}
	if !labelValueRegexp.MatchString(value) {
		errs = append(errs, regexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

func isDNS1123Subdomain(value string) []string {
	var errs []string
	if len(value) > dns1123SubdomainMaxLen {
		errs = append(errs, maxLenError(dns1123SubdomainMaxLen))
	}
	if !dns1123SubdomainRegexp.MatchString(value) {
		errs = append(errs, regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

func maxLenError(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

// regexError words a failed regular expression as upstream's RegexError:
// msg (e.g. 'a' or 'b', regex used for validation is 'fmt').
func regexError(msg, format string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + format + "')"
	}
	return msg + " (e.g. '" + strings.Join(examples, "' or '") + "', regex used for validation is '" + format + "')"
}

// validateKey returns the field error for an invalid key, "" if valid.
func validateKey(key, path string) string {
	if errs := IsQualifiedName(key); len(errs) > 0 {
		return invalid(path, key, strings.Join(errs, "; "))
	}
	return ""
}
