package structural

import (
	"encoding/base64"
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// The string formats checked, after kube-openapi's strfmt default registry
// restricted to the formats a CRD may use (apiextensions validation's
// supportedFormats).
var (
	uuidRE     = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	uuid3RE    = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	uuid4RE    = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	uuid5RE    = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	hostLabel  = regexp.MustCompile(`^[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?$`)
	hexColorRE = regexp.MustCompile(`^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
	rgbColorRE = regexp.MustCompile(`^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$`)
	bsonIDRE   = regexp.MustCompile(`^[0-9a-fA-F]{24}$`)
	durationRE = regexp.MustCompile(`^(\d+(\.\d+)?\s*(ns|us|µs|ms|s|m|h|d|w|sec|secs|second|seconds|min|mins|minute|minutes|hour|hours|day|days|week|weeks)\s*)+$`)
)

// checkFormat reports whether format is one this package checks, and if
// so whether s conforms to it.
func checkFormat(format, s string) (known, ok bool) {
	switch format {
	case "date-time", "datetime":
		_, err := time.Parse(time.RFC3339Nano, s)
		return true, err == nil
	case "date":
		_, err := time.Parse("2006-01-02", s)
		return true, err == nil
	case "byte":
		_, err := base64.StdEncoding.DecodeString(s)
		return true, err == nil
	case "uuid":
		return true, uuidRE.MatchString(s)
	case "uuid3":
		return true, uuid3RE.MatchString(s)
	case "uuid4":
		return true, uuid4RE.MatchString(s)
	case "uuid5":
		return true, uuid5RE.MatchString(s)
	case "ipv4":
		ip := net.ParseIP(s)
		return true, ip != nil && strings.Contains(s, ".")
	case "ipv6":
		ip := net.ParseIP(s)
		return true, ip != nil && strings.Contains(s, ":")
	case "cidr":
		_, _, err := net.ParseCIDR(s)
		return true, err == nil
	case "mac":
		_, err := net.ParseMAC(s)
		return true, err == nil
	case "email":
		_, err := mail.ParseAddress(s)
		return true, err == nil
	case "hostname":
		return true, isHostname(s)
	case "uri":
		_, err := url.ParseRequestURI(s)
		return true, err == nil
	case "duration":
		_, err := time.ParseDuration(s)
		return true, err == nil || durationRE.MatchString(s)
	case "hexcolor":
		return true, hexColorRE.MatchString(s)
	case "rgbcolor":
		return true, rgbColorRE.MatchString(s)
	case "bsonobjectid":
		return true, bsonIDRE.MatchString(s)
	}
	return false, true
}

// isHostname approximates strfmt's RFC 1123 hostname check (ASCII only).
func isHostname(s string) bool {
	if s == "" || len(s) > 255 {
		return false
	}
	for _, label := range strings.Split(strings.TrimSuffix(s, "."), ".") {
		if !hostLabel.MatchString(label) {
			return false
		}
	}
	return true
}
