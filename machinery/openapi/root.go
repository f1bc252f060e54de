package openapi

import (
	"crypto/sha512"
	"encoding/json"
	"fmt"
)

// discoveryGroupVersion is one entry of the root document. Mirrors
// handler3.OpenAPIV3DiscoveryGroupVersion.
type discoveryGroupVersion struct {
	ServerRelativeURL string `json:"serverRelativeURL"`
}

// RootDocument returns the document served at /openapi/v3: for each path
// ("apis/stable.example.com/v1") the URL of its document, with its hash:
//
//	{"paths":{"apis/g/v":{"serverRelativeURL":"/openapi/v3/apis/g/v?hash=HASH"}}}
//
// groupVersions maps each path to the Hash of its document.
//
// Mirrors (*handler3.OpenAPIService).getGroupBytes.
func RootDocument(groupVersions map[string]string) []byte {
	paths := make(map[string]discoveryGroupVersion, len(groupVersions))
	for p, hash := range groupVersions {
		paths[p] = discoveryGroupVersion{ServerRelativeURL: "/openapi/v3/" + p + "?hash=" + hash}
	}
	b, _ := json.Marshal(struct {
		Paths map[string]discoveryGroupVersion `json:"paths"`
	}{paths})
	return b
}

// Hash returns the hash of a document that clients see in its URL and
// ETag: the SHA-512 in upper-case hex.
//
// Mirrors handler3's computeETag.
func Hash(doc []byte) string {
	return fmt.Sprintf("%X", sha512.Sum512(doc))
}
