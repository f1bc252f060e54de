package version

import (
	"regexp"
	"strconv"
)

var kubeVersionRegex = regexp.MustCompile(`^v([\d]+)(?:(alpha|beta)([\d]+))?$`)

type versionType int

const (
	versionTypeAlpha versionType = iota
	versionTypeBeta
	versionTypeGA
)

func parseKubeVersion(v string) (major int, vType versionType, minor int, ok bool) {
	sub := kubeVersionRegex.FindStringSubmatch(v)
	if sub == nil {
		return 0, 0, 0, false
	}
	major, err := strconv.Atoi(sub[1])
	if err != nil {
		return 0, 0, 0, false
	}
	switch sub[2] {
	case "alpha":
		vType = versionTypeAlpha
	case "beta":
		vType = versionTypeBeta
	default:
		vType = versionTypeGA
	}
	if sub[3] != "" {
		if minor, err = strconv.Atoi(sub[3]); err != nil {
			return 0, 0, 0, false
		}
	}
	return major, vType, minor, true
}

// CompareKubeAwareVersionStrings compares two version names as kube does:
// it returns a positive number if v1 has higher priority than v2, negative
// if lower, 0 if equal. GA beats beta beats alpha; within one kind the
// higher major, then the higher minor wins; versions that do not look like
// kube versions ("foo1") come after all that do, in lexical order.
//
// Mirrors k8s.io/apimachinery/pkg/version.CompareKubeAwareVersionStrings.
func CompareKubeAwareVersionStrings(v1, v2 string) int {
	if v1 == v2 {
		return 0
	}
	v1major, v1type, v1minor, ok1 := parseKubeVersion(v1)
	v2major, v2type, v2minor, ok2 := parseKubeVersion(v2)
	switch {
	case !ok1 && !ok2:
		if v1 < v2 {
			return 1 // lexical order: earlier is "higher"
		}
		return -1
	case !ok1:
		return -1
	case !ok2:
		return 1
	}
	if v1type != v2type {
		return int(v1type) - int(v2type)
	}
	if v1major != v2major {
		return v1major - v2major
	}
	return v1minor - v2minor
}
