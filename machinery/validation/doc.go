// Package validation holds the name rules every API object shares: DNS
// labels and subdomains, qualified names (label and annotation keys,
// finalizers) and label values. Each check returns the messages of what is
// wrong, nil when the value is fine; the messages are upstream's word for
// word, so clients see the same text from crdlab as from kube-apiserver.
//
// It also holds IsConfigMapKey (Secret and ConfigMap data keys).
//
// It is a leaf: it imports nothing of crdlab's, so machinery/labels (label
// selectors) and apis/validation (object metadata) both call it.
//
// Vocabulary: a DNS-1123 label ("my-name", a namespace), a DNS-1123
// subdomain ("crontabs.stable.example.com", most object names, a CRD's
// group), a DNS-1035 label (starts with a letter: a version, a CRD's
// plural), a qualified name ("example.com/MyName", a label key), a label
// value (empty, or a qualified name's name part).
//
// Upstream:
//   - k8s.io/apimachinery/pkg/util/validation/validation.go
//
// Differences from upstream:
//   - only the rules above (no IP, port, percent or environment
//     variable checks).
package validation
