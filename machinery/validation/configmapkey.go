package validation

import (
	"regexp"
	"strings"
)

const configMapKeyFmt = `[-._a-zA-Z0-9]+`
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"

var configMapKeyRegexp = regexp.MustCompile("^" + configMapKeyFmt + "$")

// IsConfigMapKey checks a key of a ConfigMap's or a Secret's data: at most
// 253 characters of alphanumerics, '-', '_' and '.', and not "." or a
// name starting with ".." (keys become file names when mounted).
//
// Mirrors k8s.io/apimachinery/pkg/util/validation.IsConfigMapKey.
func IsConfigMapKey(value string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, MaxLenError(DNS1123SubdomainMaxLength))
	}
	if !configMapKeyRegexp.MatchString(value) {
		errs = append(errs, RegexError(configMapKeyErrMsg, configMapKeyFmt, "key.name", "KEY_NAME", "key-name"))
	}
	switch {
	case value == ".":
		errs = append(errs, `must not be '.'`)
	case value == "..":
		errs = append(errs, `must not be '..'`)
	case strings.HasPrefix(value, ".."):
		errs = append(errs, `must not start with '..'`)
	}
	return errs
}
