package structural

import (
	"encoding/base64"
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
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
		return true, err == nil || isOpenAPIDuration(s)
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

// durationPartRE finds the number-and-unit parts of a duration.
var durationPartRE = regexp.MustCompile(`((\d+)\s*([A-Za-zµ]+))`)

// durationUnits are the unit spellings of each duration unit; the last of
// each also matches as a prefix ("hours" as "hour").
var durationUnits = [][]string{
	{"ns", "nano"}, {"us", "µs", "micro"}, {"ms", "milli"}, {"s", "sec"},
	{"m", "min"}, {"h", "hr", "hour"}, {"d", "day"}, {"w", "wk", "week"},
}

// isOpenAPIDuration says whether some part of s is a number followed by a
// known unit: what strfmt accepts, however much else s holds ("1m-later"
// passes).
//
// Mirrors ParseDuration in k8s.io/kube-openapi/pkg/validation/strfmt/duration.go.
func isOpenAPIDuration(s string) bool {
	for _, m := range durationPartRE.FindAllStringSubmatch(s, -1) {
		if _, err := strconv.Atoi(m[2]); err != nil {
			return false // upstream gives up on a number out of range
		}
		unit := strings.ToLower(strings.TrimSpace(m[3]))
		for _, variants := range durationUnits {
			last := len(variants) - 1
			for i, v := range variants {
				if i == last && strings.HasPrefix(unit, v) || strings.EqualFold(v, unit) {
					return true
				}
			}
		}
	}
	return false
}
