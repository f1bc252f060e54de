package reliability

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// badRequest is one hostile or malformed request and the answer it must
// get.
type badRequest struct {
	name   string
	method string
	// target is the request target exactly as sent (paths are not
	// cleaned or escaped: that is the point of some cases).
	target string
	header []string // "Name: value" lines
	body   string
	// bodyLen, if > 0, sends a body of that many bytes of bodyByte
	// after body (body is then the prefix).
	bodyLen  int
	bodyByte byte
	// code and reason are the Status the server must answer with.
	code   int
	reason string
	// plain marks answers net/http gives before any crdlab code runs
	// (431): the code must match, the body is not a Status.
	plain bool
}

const (
	jsonCT  = "Content-Type: application/json"
	mergeCT = "Content-Type: application/merge-patch+json"
	jsonPCT = "Content-Type: application/json-patch+json"
	cr      = crontabsPath
	crOne   = crontabsPath + "/existing"
)

// obj is a CronTab body with spec (a JSON object's inside) and metadata
// (likewise) spliced in.
func obj(meta, spec string) string {
	return fmt.Sprintf(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{%s},"spec":{%s}}`, meta, spec)
}

const okSpec = `"cronSpec":"* * * * */5"`

// crd is a CRD body with the spec's inside given.
func crd(name, spec string) string {
	return fmt.Sprintf(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":%q},"spec":{%s}}`, name, spec)
}

const okVersions = `"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]`

func badRequests() []badRequest {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	long := strings.Repeat("a", 254)
	return []badRequest{
		// Bad JSON.
		{name: "JSONTruncated", method: "POST", target: cr, header: []string{jsonCT}, body: `{"apiVersion":"stable.example.com/v1","kind":`, code: 400, reason: "BadRequest"},
		{name: "JSONOpenBrace", method: "POST", target: cr, header: []string{jsonCT}, body: `{`, code: 400, reason: "BadRequest"},
		{name: "JSONNotJSON", method: "POST", target: cr, header: []string{jsonCT}, body: `not json`, code: 400, reason: "BadRequest"},
		{name: "JSONArray", method: "POST", target: cr, header: []string{jsonCT}, body: `[]`, code: 400, reason: "BadRequest"},
		{name: "JSONNull", method: "POST", target: cr, header: []string{jsonCT}, body: `null`, code: 400, reason: "BadRequest"},
		{name: "JSONString", method: "POST", target: cr, header: []string{jsonCT}, body: `"crontab"`, code: 400, reason: "BadRequest"},
		{name: "JSONNumber", method: "POST", target: cr, header: []string{jsonCT}, body: `42`, code: 400, reason: "BadRequest"},
		{name: "JSONEmptyObject", method: "POST", target: cr, header: []string{jsonCT}, body: `{}`, code: 400, reason: "BadRequest"},
		{name: "JSONEmptyBody", method: "POST", target: cr, header: []string{jsonCT}, body: ``, code: 400, reason: "BadRequest"},
		{name: "JSONTrailingData", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"t1"`, okSpec) + ` {}`, code: 400, reason: "BadRequest"},
		{name: "JSONTrailingBracket", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"t2"`, okSpec) + `]`, code: 400, reason: "BadRequest"},
		{name: "JSONBOM", method: "POST", target: cr, header: []string{jsonCT}, body: "\xef\xbb\xbf" + obj(`"name":"t3"`, okSpec), code: 400, reason: "BadRequest"},
		{name: "JSONNumberOverflow", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"t4"`, okSpec+`,"counter":1e400`), code: 400, reason: "BadRequest"},
		{name: "JSONDeepNesting", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"t5"`, okSpec+`,"x":`+deep), code: 400, reason: "BadRequest"},
		{name: "JSONDeepNestingObjects", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"t6"`, okSpec+`,"x":`+strings.Repeat(`{"a":`, 20000)+"1"+strings.Repeat("}", 20000)), code: 400, reason: "BadRequest"},
		{name: "JSONControlCharInString", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"t7"`, "\"cronSpec\":\"a\x01b\""), code: 400, reason: "BadRequest"},
		{name: "JSONUnknownFieldStrict", method: "POST", target: cr + "?fieldValidation=Strict", header: []string{jsonCT}, body: obj(`"name":"t10"`, okSpec+`,"nope":1`), code: 400, reason: "BadRequest"},
		{name: "JSONDuplicateFieldStrict", method: "POST", target: cr + "?fieldValidation=Strict", header: []string{jsonCT}, body: obj(`"name":"t10b","name":"t10c"`, okSpec), code: 400, reason: "BadRequest"},
		{name: "YAMLBroken", method: "POST", target: cr, header: []string{"Content-Type: application/yaml"}, body: "apiVersion: [\nkind: 1", code: 400, reason: "BadRequest"},
		{name: "YAMLAnchorBomb", method: "POST", target: cr, header: []string{"Content-Type: application/yaml"},
			body: "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n",
			code: 400, reason: "BadRequest"},

		// Wrong types and schema violations: 422 with field paths.
		{name: "TypeReplicasString", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s1"`, okSpec+`,"replicas":"three"`), code: 422, reason: "Invalid"},
		{name: "TypeReplicasFloat", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s2"`, okSpec+`,"replicas":1.5`), code: 422, reason: "Invalid"},
		{name: "TypeReplicasBool", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s3"`, okSpec+`,"replicas":true`), code: 422, reason: "Invalid"},
		{name: "SchemaMinimum", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s4"`, okSpec+`,"replicas":-1`), code: 422, reason: "Invalid"},
		{name: "SchemaMaximum", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s5"`, okSpec+`,"replicas":101`), code: 422, reason: "Invalid"},
		{name: "SchemaRequired", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s6"`, `"image":"x"`), code: 422, reason: "Invalid"},
		{name: "SchemaMaxLength", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s7"`, `"cronSpec":"`+strings.Repeat("*", 65)+`"`), code: 422, reason: "Invalid"},
		{name: "TypeSpecString", method: "POST", target: cr, header: []string{jsonCT}, body: `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"s8"},"spec":"x"}`, code: 422, reason: "Invalid"},
		{name: "TypeSpecArray", method: "POST", target: cr, header: []string{jsonCT}, body: `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"s9"},"spec":[1]}`, code: 422, reason: "Invalid"},
		{name: "TypeImageNumber", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s10"`, okSpec+`,"image":7`), code: 422, reason: "Invalid"},
		{name: "TypeMetadataString", method: "POST", target: cr, header: []string{jsonCT}, body: `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":"x","spec":{` + okSpec + `}}`, code: 400, reason: "BadRequest"},
		{name: "TypeNameNumber", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":12`, okSpec), code: 422, reason: "Invalid"},
		{name: "TypeLabelsNumber", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s12","labels":{"a":1}`, okSpec), code: 422, reason: "Invalid"},
		{name: "TypeLabelsArray", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s13","labels":["a"]`, okSpec), code: 422, reason: "Invalid"},
		{name: "TypeFinalizersString", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s15","finalizers":"x"`, okSpec), code: 422, reason: "Invalid"},
		{name: "TypeAPIVersionNumber", method: "POST", target: cr, header: []string{jsonCT}, body: `{"apiVersion":1,"kind":"CronTab","metadata":{"name":"s16"}}`, code: 400, reason: "BadRequest"},
		{name: "LabelKeyInvalid", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s17","labels":{"a b":"c"}`, okSpec), code: 422, reason: "Invalid"},
		{name: "LabelValueTooLong", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s18","labels":{"a":"`+strings.Repeat("v", 64)+`"}`, okSpec), code: 422, reason: "Invalid"},
		{name: "AnnotationsTooBig", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s19","annotations":{"a":"`+strings.Repeat("v", 256*1024+1)+`"}`, okSpec), code: 422, reason: "Invalid"},
		{name: "FinalizerInvalid", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s20","finalizers":["a b/c d"]`, okSpec), code: 422, reason: "Invalid"},
		{name: "NameInvalid", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"A_B"`, okSpec), code: 422, reason: "Invalid"},
		{name: "NameSlash", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"a/b"`, okSpec), code: 422, reason: "Invalid"},
		{name: "NameDotDot", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":".."`, okSpec), code: 422, reason: "Invalid"},
		{name: "NameNUL", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"a\u0000b"`, okSpec), code: 422, reason: "Invalid"},
		{name: "NameTooLong", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"`+long+`"`, okSpec), code: 422, reason: "Invalid"},
		{name: "NameMissing", method: "POST", target: cr, header: []string{jsonCT}, body: obj(``, okSpec), code: 422, reason: "Invalid"},
		{name: "GenerateNameInvalid", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"generateName":"A_"`, okSpec), code: 422, reason: "Invalid"},
		{name: "NamespaceMismatch", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s21","namespace":"other"`, okSpec), code: 400, reason: "BadRequest"},
		{name: "WrongGroup", method: "POST", target: cr, header: []string{jsonCT}, body: `{"apiVersion":"other.example.com/v1","kind":"CronTab","metadata":{"name":"s22"},"spec":{` + okSpec + `}}`, code: 400, reason: "BadRequest"},
		{name: "WrongKind", method: "POST", target: cr, header: []string{jsonCT}, body: `{"apiVersion":"stable.example.com/v1","kind":"Other","metadata":{"name":"s23"},"spec":{` + okSpec + `}}`, code: 422, reason: "Invalid"},
		{name: "MissingKind", method: "POST", target: cr, header: []string{jsonCT}, body: `{"apiVersion":"stable.example.com/v1","metadata":{"name":"s24"},"spec":{` + okSpec + `}}`, code: 400, reason: "BadRequest"},
		{name: "UnservedVersion", method: "POST", target: cr, header: []string{jsonCT}, body: `{"apiVersion":"stable.example.com/v2","kind":"CronTab","metadata":{"name":"s25"},"spec":{` + okSpec + `}}`, code: 400, reason: "BadRequest"},
		{name: "ResourceVersionOnCreate", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s26","resourceVersion":"5"`, okSpec), code: 400, reason: "BadRequest"},
		{name: "TypeOwnerReferencesObject", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s28","ownerReferences":{"a":1}`, okSpec), code: 422, reason: "Invalid"},
		{name: "TypeFinalizerNumber", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s29","finalizers":[1]`, okSpec), code: 422, reason: "Invalid"},
		{name: "OwnerReferenceInvalid", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"s27","ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":""}]`, okSpec), code: 422, reason: "Invalid"},

		// Huge bodies and headers.
		{name: "BodyOverLimit", method: "POST", target: cr, header: []string{jsonCT}, body: `{"a":"`, bodyLen: 4 << 20, bodyByte: 'x', code: 413, reason: "RequestEntityTooLarge"},
		{name: "BodyOverLimitPatch", method: "PATCH", target: crOne, header: []string{mergeCT}, body: `{"a":"`, bodyLen: 4 << 20, bodyByte: 'x', code: 413, reason: "RequestEntityTooLarge"},
		{name: "ContentLengthOverLimit", method: "POST", target: cr, header: []string{jsonCT, "Content-Length: 104857600"}, body: "{}", code: 413, reason: "RequestEntityTooLarge"},
		{name: "ObjectOverStorageLimit", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"h1"`, okSpec+`,"image":"`+strings.Repeat("i", 2<<20)+`"`), code: 413, reason: "RequestEntityTooLarge"},
		{name: "HeaderTooLarge", method: "GET", target: cr, header: []string{"X-Big: " + strings.Repeat("h", 2<<20)}, code: 431, plain: true},
		{name: "URLTooLong", method: "GET", target: cr + "/" + strings.Repeat("n", 100000), code: 400, reason: "BadRequest"},

		// Content types and Accept.
		{name: "ContentTypeText", method: "POST", target: cr, header: []string{"Content-Type: text/plain"}, body: obj(`"name":"c1"`, okSpec), code: 415, reason: "UnsupportedMediaType"},
		{name: "ContentTypeXML", method: "POST", target: cr, header: []string{"Content-Type: application/xml"}, body: `<crontab/>`, code: 415, reason: "UnsupportedMediaType"},
		{name: "ContentTypeProtobuf", method: "POST", target: cr, header: []string{"Content-Type: application/vnd.kubernetes.protobuf"}, body: "k8s\x00", code: 415, reason: "UnsupportedMediaType"},
		{name: "ContentTypeCBOR", method: "POST", target: cr, header: []string{"Content-Type: application/cbor"}, body: "\xd9\xd9\xf7", code: 415, reason: "UnsupportedMediaType"},
		{name: "ContentTypeUnknownJSONish", method: "POST", target: cr, header: []string{"Content-Type: application/jsonx"}, body: obj(`"name":"c2"`, okSpec), code: 415, reason: "UnsupportedMediaType"},
		{name: "PatchStrategicMerge", method: "PATCH", target: crOne, header: []string{"Content-Type: application/strategic-merge-patch+json"}, body: `{"spec":{"replicas":2}}`, code: 415, reason: "UnsupportedMediaType"},
		{name: "PatchApply", method: "PATCH", target: crOne, header: []string{"Content-Type: application/apply-patch+yaml"}, body: "spec:\n  replicas: 2\n", code: 422, reason: "Invalid"}, // no fieldManager
		{name: "PatchTextPlain", method: "PATCH", target: crOne, header: []string{"Content-Type: text/plain"}, body: `{"spec":{"replicas":2}}`, code: 415, reason: "UnsupportedMediaType"},
		{name: "PatchNoContentType", method: "PATCH", target: crOne, body: `{"spec":{"replicas":2}}`, code: 415, reason: "UnsupportedMediaType"},
		// Issue 21, finding 5: the requests a web page can make. A no-cors
		// POST has no Content-Type (upstream would read it as JSON).
		{name: "PostNoContentType", method: "POST", target: cr, body: obj(`"name":"c3"`, okSpec), code: 415, reason: "UnsupportedMediaType"},
		{name: "PostNoContentTypeCRD", method: "POST", target: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", body: crd("bs.x.example.com", `"group":"x.example.com","scope":"Namespaced","names":{"plural":"bs","kind":"B"},`+okVersions), code: 415, reason: "UnsupportedMediaType"},
		{name: "PutNoContentTypeChunked", method: "PUT", target: crOne, header: []string{"Transfer-Encoding: chunked"}, body: "2\r\n{}\r\n0\r\n\r\n", code: 415, reason: "UnsupportedMediaType"},
		{name: "HostRebound", method: "GET", target: cr, header: []string{"Host: attacker.example"}, code: 403, reason: "Forbidden"},
		{name: "HostReboundWithPortPost", method: "POST", target: cr, header: []string{"Host: attacker.example:8080", jsonCT}, body: obj(`"name":"c4"`, okSpec), code: 403, reason: "Forbidden"},
		{name: "HostLoopbackLookalike", method: "GET", target: cr, header: []string{"Host: 127.0.0.1.attacker.example"}, code: 403, reason: "Forbidden"},
		{name: "HostLocalhostSuffix", method: "GET", target: cr, header: []string{"Host: localhost.attacker.example"}, code: 403, reason: "Forbidden"},
		{name: "OriginOtherSite", method: "POST", target: cr, header: []string{"Origin: https://attacker.example", jsonCT}, body: obj(`"name":"c5"`, okSpec), code: 403, reason: "Forbidden"},
		{name: "OriginOtherSiteGet", method: "GET", target: cr, header: []string{"Origin: http://attacker.example"}, code: 403, reason: "Forbidden"},
		{name: "OriginNull", method: "POST", target: cr, header: []string{"Origin: null", jsonCT}, body: obj(`"name":"c6"`, okSpec), code: 403, reason: "Forbidden"},
		{name: "OriginLoopbackLookalike", method: "GET", target: cr, header: []string{"Origin: http://127.0.0.1.attacker.example"}, code: 403, reason: "Forbidden"},
		{name: "AcceptProtobufOnly", method: "GET", target: crOne, header: []string{"Accept: application/vnd.kubernetes.protobuf"}, code: 406, reason: "NotAcceptable"},
		{name: "AcceptHTML", method: "GET", target: cr, header: []string{"Accept: text/html"}, code: 406, reason: "NotAcceptable"},

		// Selectors and query parameters.
		{name: "LabelSelectorUnclosed", method: "GET", target: cr + "?labelSelector=a+in+(", code: 400, reason: "BadRequest"},
		{name: "LabelSelectorBangs", method: "GET", target: cr + "?labelSelector=!!", code: 400, reason: "BadRequest"},
		{name: "LabelSelectorEmptyTerm", method: "GET", target: cr + "?labelSelector=a%3Db,,c", code: 400, reason: "BadRequest"},
		{name: "LabelSelectorBadKey", method: "GET", target: cr + "?labelSelector=a+b%3Dc", code: 400, reason: "BadRequest"},
		{name: "LabelSelectorLongValue", method: "GET", target: cr + "?labelSelector=a%3D" + strings.Repeat("v", 64), code: 400, reason: "BadRequest"},
		{name: "LabelSelectorNUL", method: "GET", target: cr + "?labelSelector=a%3D%00", code: 400, reason: "BadRequest"},
		{name: "FieldSelectorUnknownField", method: "GET", target: cr + "?fieldSelector=spec.nope%3Dx", code: 400, reason: "BadRequest"},
		{name: "FieldSelectorNoOperator", method: "GET", target: cr + "?fieldSelector=metadata.name", code: 400, reason: "BadRequest"},
		{name: "FieldSelectorSetOperator", method: "GET", target: cr + "?fieldSelector=metadata.name+in+(a)", code: 400, reason: "BadRequest"},
		{name: "LimitNotANumber", method: "GET", target: cr + "?limit=ten", code: 400, reason: "BadRequest"},
		{name: "ResourceVersionNotANumber", method: "GET", target: cr + "?resourceVersion=abc", code: 400, reason: "BadRequest"},
		{name: "ResourceVersionMatchUnknown", method: "GET", target: cr + "?resourceVersion=1&resourceVersionMatch=Bogus", code: 422, reason: "Invalid"},
		{name: "ResourceVersionMatchWithoutRV", method: "GET", target: cr + "?resourceVersionMatch=Exact", code: 422, reason: "Invalid"},
		{name: "ContinueGarbage", method: "GET", target: cr + "?limit=1&continue=garbage", code: 400, reason: "BadRequest"},
		{name: "ContinueWithRV", method: "GET", target: cr + "?limit=1&continue=garbage&resourceVersion=1", code: 400, reason: "BadRequest"},
		{name: "TimeoutSecondsNotANumber", method: "GET", target: cr + "?watch=1&timeoutSeconds=soon", code: 400, reason: "BadRequest"},
		{name: "WatchResourceVersionNotANumber", method: "GET", target: cr + "?watch=1&resourceVersion=abc", code: 400, reason: "BadRequest"},
		{name: "DryRunUnknown", method: "POST", target: cr + "?dryRun=Maybe", header: []string{jsonCT}, body: obj(`"name":"q1"`, okSpec), code: 400, reason: "BadRequest"},
		{name: "FieldValidationUnknown", method: "POST", target: cr + "?fieldValidation=Lenient", header: []string{jsonCT}, body: obj(`"name":"q2"`, okSpec), code: 400, reason: "BadRequest"},
		{name: "DeleteBodyGarbage", method: "DELETE", target: crOne, header: []string{jsonCT}, body: `{"kind":`, code: 400, reason: "BadRequest"},
		{name: "DeletePropagationUnknown", method: "DELETE", target: crOne, header: []string{jsonCT}, body: `{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Sideways"}`, code: 422, reason: "Invalid"},
		{name: "DeleteGracePeriodNotANumber", method: "DELETE", target: crOne + "?gracePeriodSeconds=soon", code: 400, reason: "BadRequest"},

		// Path tricks: nothing in a URL reaches another key.
		{name: "PathDotDot", method: "GET", target: cr + "/..", code: 400, reason: "BadRequest"},
		{name: "PathDotDotEncoded", method: "GET", target: cr + "/%2e%2e", code: 400, reason: "BadRequest"},
		{name: "PathDotDotNamespace", method: "GET", target: "/apis/stable.example.com/v1/namespaces/../crontabs/existing", code: 400, reason: "BadRequest"},
		{name: "PathDotDotToCRDs", method: "DELETE", target: cr + "/../../../apiextensions.k8s.io/v1/customresourcedefinitions/" + crdName, code: 400, reason: "BadRequest"},
		{name: "PathDot", method: "GET", target: "/apis/stable.example.com/v1/namespaces/default/./crontabs", code: 400, reason: "BadRequest"},
		{name: "PathDoubleSlash", method: "GET", target: "/apis/stable.example.com/v1/namespaces/default//crontabs", code: 400, reason: "BadRequest"},
		{name: "PathEncodedSlashName", method: "GET", target: cr + "/existing%2Fstatus", code: 400, reason: "BadRequest"},
		{name: "PathEncodedSlashNamespace", method: "GET", target: "/apis/stable.example.com/v1/namespaces/default%2Fcrontabs/crontabs", code: 400, reason: "BadRequest"},
		{name: "PathEncodedBackslash", method: "GET", target: cr + "/a%5C..%5Cb", code: 400, reason: "BadRequest"},
		{name: "PathNUL", method: "GET", target: cr + "/existing%00", code: 400, reason: "BadRequest"},
		{name: "PathNewline", method: "DELETE", target: cr + "/existing%0A", code: 400, reason: "BadRequest"},
		{name: "PathPercentInName", method: "GET", target: cr + "/a%25b", code: 400, reason: "BadRequest"},
		{name: "PathNameTooLong", method: "GET", target: cr + "/" + long, code: 400, reason: "BadRequest"},
		{name: "PathNamespaceUpperCase", method: "GET", target: "/apis/stable.example.com/v1/namespaces/Default/crontabs", code: 400, reason: "BadRequest"},
		{name: "PathNamespaceTooLong", method: "POST", target: "/apis/stable.example.com/v1/namespaces/" + strings.Repeat("n", 64) + "/crontabs", header: []string{jsonCT}, body: obj(`"name":"p1"`, okSpec), code: 400, reason: "BadRequest"},
		{name: "PathResourceUpperCase", method: "GET", target: "/apis/stable.example.com/v1/namespaces/default/CronTabs", code: 400, reason: "BadRequest"},
		{name: "PathTooManySegments", method: "GET", target: crOne + "/status/extra", code: 404, reason: "NotFound"},
		{name: "PathUnknownSubresource", method: "GET", target: crOne + "/logs", code: 404, reason: "NotFound"},
		{name: "PathUnknownResource", method: "GET", target: "/apis/stable.example.com/v1/namespaces/default/cronjobs", code: 404, reason: "NotFound"},
		{name: "PathUnknownGroup", method: "GET", target: "/apis/unstable.example.com/v1/namespaces/default/crontabs", code: 404, reason: "NotFound"},
		{name: "PathUnknownVersion", method: "GET", target: "/apis/stable.example.com/v9/namespaces/default/crontabs", code: 404, reason: "NotFound"},
		{name: "PathClusterScopeOfNamespaced", method: "GET", target: "/apis/stable.example.com/v1/crontabs/existing", code: 404, reason: "NotFound"},
		{name: "PathMissingObject", method: "GET", target: cr + "/missing", code: 404, reason: "NotFound"},
		{name: "MethodUnknown", method: "PROPFIND", target: cr, code: 405, reason: "MethodNotAllowed"},
		{name: "MethodPostToName", method: "POST", target: crOne, header: []string{jsonCT}, body: obj(`"name":"existing"`, okSpec), code: 405, reason: "MethodNotAllowed"},
		{name: "MethodPutCollection", method: "PUT", target: cr, header: []string{jsonCT}, body: obj(`"name":"m1"`, okSpec), code: 405, reason: "MethodNotAllowed"},

		// Invalid CRDs.
		{name: "CRDNameNotPluralGroup", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("wrong.name", `"group":"stable.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},`+okVersions), code: 422, reason: "Invalid"},
		{name: "CRDNoVersions", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("things.stable.example.com", `"group":"stable.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"versions":[]`), code: 422, reason: "Invalid"},
		{name: "CRDTwoStorageVersions", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("things.stable.example.com", `"group":"stable.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}},{"name":"v2","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]`), code: 422, reason: "Invalid"},
		{name: "CRDNoStorageVersion", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("things.stable.example.com", `"group":"stable.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"versions":[{"name":"v1","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object"}}}]`), code: 422, reason: "Invalid"},
		{name: "CRDDefaultWrongType", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("things.stable.example.com", `"group":"stable.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"n":{"type":"integer","default":"x"}}}}}}}]`), code: 422, reason: "Invalid"},
		{name: "CRDScopeUnknown", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("things.stable.example.com", `"group":"stable.example.com","scope":"Galactic","names":{"plural":"things","kind":"Thing"},`+okVersions), code: 422, reason: "Invalid"},
		{name: "CRDPluralUpperCase", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("Things.stable.example.com", `"group":"stable.example.com","scope":"Namespaced","names":{"plural":"Things","kind":"Thing"},`+okVersions), code: 422, reason: "Invalid"},
		{name: "CRDGroupWithoutDot", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("things.example", `"group":"example","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},`+okVersions), code: 422, reason: "Invalid"},
		{name: "CRDNoSchema", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("things.stable.example.com", `"group":"stable.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"versions":[{"name":"v1","served":true,"storage":true}]`), code: 422, reason: "Invalid"},
		{name: "CRDSchemaNotStructural", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("things.stable.example.com", `"group":"stable.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"properties":{"spec":{"type":"object"}}}}}]`), code: 422, reason: "Invalid"},
		{name: "CRDSchemaBadPattern", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("things.stable.example.com", `"group":"stable.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"s":{"type":"string","pattern":"("}}}}}]`), code: 422, reason: "Invalid"},
		{name: "CRDVersionNameInvalid", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("things.stable.example.com", `"group":"stable.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"versions":[{"name":"V1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]`), code: 422, reason: "Invalid"},
		{name: "CRDWebhookWithoutConfig", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("things.stable.example.com", `"group":"stable.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"conversion":{"strategy":"Webhook"},`+okVersions), code: 422, reason: "Invalid"},
		{name: "CRDNoKind", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("things.stable.example.com", `"group":"stable.example.com","scope":"Namespaced","names":{"plural":"things"},`+okVersions), code: 422, reason: "Invalid"},
		{name: "CRDAlreadyExists", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crdJSON, code: 409, reason: "AlreadyExists"},
		{name: "CRDWrongTypeVersions", method: "POST", target: crdsPath, header: []string{jsonCT}, body: crd("things.stable.example.com", `"group":"stable.example.com","versions":"v1"`), code: 400, reason: "BadRequest"},
		{name: "CRDUnservedAPIVersion", method: "POST", target: "/apis/apiextensions.k8s.io/v1beta1/customresourcedefinitions", header: []string{jsonCT}, body: crdJSON, code: 404, reason: "NotFound"},
		{name: "CRDDeleteMissing", method: "DELETE", target: crdsPath + "/nothings.stable.example.com", code: 404, reason: "NotFound"},

		// Conflicting writes and patches.
		{name: "CreateExisting", method: "POST", target: cr, header: []string{jsonCT}, body: obj(`"name":"existing"`, okSpec), code: 409, reason: "AlreadyExists"},
		{name: "PutStaleResourceVersion", method: "PUT", target: crOne, header: []string{jsonCT}, body: obj(`"name":"existing","resourceVersion":"1"`, okSpec), code: 409, reason: "Conflict"},
		{name: "PutWithoutResourceVersion", method: "PUT", target: crOne, header: []string{jsonCT}, body: obj(`"name":"existing"`, okSpec), code: 422, reason: "Invalid"},
		{name: "PutNameMismatch", method: "PUT", target: crOne, header: []string{jsonCT}, body: obj(`"name":"other","resourceVersion":"1"`, okSpec), code: 400, reason: "BadRequest"},
		{name: "PutMissing", method: "PUT", target: cr + "/missing", header: []string{jsonCT}, body: obj(`"name":"missing","resourceVersion":"1"`, okSpec), code: 404, reason: "NotFound"},
		{name: "PutStatusStale", method: "PUT", target: crOne + "/status", header: []string{jsonCT}, body: `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"existing","resourceVersion":"1"},"status":{"replicas":3}}`, code: 409, reason: "Conflict"},
		{name: "MergePatchStaleRV", method: "PATCH", target: crOne, header: []string{mergeCT}, body: `{"metadata":{"resourceVersion":"1"},"spec":{"replicas":2}}`, code: 409, reason: "Conflict"},
		{name: "MergePatchRename", method: "PATCH", target: crOne, header: []string{mergeCT}, body: `{"metadata":{"name":"renamed"}}`, code: 400, reason: "BadRequest"},
		{name: "MergePatchNamespace", method: "PATCH", target: crOne, header: []string{mergeCT}, body: `{"metadata":{"namespace":"other"}}`, code: 400, reason: "BadRequest"},
		{name: "MergePatchKind", method: "PATCH", target: crOne, header: []string{mergeCT}, body: `{"kind":"Other"}`, code: 422, reason: "Invalid"},
		{name: "MergePatchSchemaViolation", method: "PATCH", target: crOne, header: []string{mergeCT}, body: `{"spec":{"replicas":"many"}}`, code: 422, reason: "Invalid"},
		{name: "MergePatchRemoveRequired", method: "PATCH", target: crOne, header: []string{mergeCT}, body: `{"spec":{"cronSpec":null}}`, code: 422, reason: "Invalid"},
		{name: "MergePatchNotJSON", method: "PATCH", target: crOne, header: []string{mergeCT}, body: `{"spec":`, code: 400, reason: "BadRequest"},
		{name: "MergePatchArray", method: "PATCH", target: crOne, header: []string{mergeCT}, body: `[1,2]`, code: 400, reason: "BadRequest"},
		{name: "MergePatchMissing", method: "PATCH", target: cr + "/missing", header: []string{mergeCT}, body: `{"spec":{"replicas":2}}`, code: 404, reason: "NotFound"},
		{name: "JSONPatchTestFails", method: "PATCH", target: crOne, header: []string{jsonPCT}, body: `[{"op":"test","path":"/spec/replicas","value":99},{"op":"replace","path":"/spec/replicas","value":2}]`, code: 422, reason: "Invalid"},
		{name: "JSONPatchRemoveMissing", method: "PATCH", target: crOne, header: []string{jsonPCT}, body: `[{"op":"remove","path":"/spec/nope"}]`, code: 422, reason: "Invalid"},
		{name: "JSONPatchUnknownOp", method: "PATCH", target: crOne, header: []string{jsonPCT}, body: `[{"op":"frobnicate","path":"/spec"}]`, code: 422, reason: "Invalid"},
		{name: "JSONPatchNotArray", method: "PATCH", target: crOne, header: []string{jsonPCT}, body: `{"op":"remove","path":"/spec"}`, code: 400, reason: "BadRequest"},
		{name: "JSONPatchBadPointer", method: "PATCH", target: crOne, header: []string{jsonPCT}, body: `[{"op":"add","path":"spec","value":1}]`, code: 422, reason: "Invalid"},
		{name: "JSONPatchRemoveRoot", method: "PATCH", target: crOne, header: []string{jsonPCT}, body: `[{"op":"remove","path":""}]`, code: 422, reason: "Invalid"},
		{name: "JSONPatchReplaceRootWithArray", method: "PATCH", target: crOne, header: []string{jsonPCT}, body: `[{"op":"replace","path":"","value":[]}]`, code: 400, reason: "BadRequest"},
		{name: "JSONPatchSchemaViolation", method: "PATCH", target: crOne, header: []string{jsonPCT}, body: `[{"op":"replace","path":"/spec/replicas","value":-5}]`, code: 422, reason: "Invalid"},
		{name: "JSONPatchChangeUID", method: "PATCH", target: crOne, header: []string{jsonPCT}, body: `[{"op":"replace","path":"/metadata/uid","value":"stolen"}]`, code: 422, reason: "Invalid"},
		{name: "DeletePreconditionUID", method: "DELETE", target: crOne, header: []string{jsonCT}, body: `{"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"uid":"not-the-uid"}}`, code: 409, reason: "Conflict"},
		{name: "DeletePreconditionRV", method: "DELETE", target: crOne, header: []string{jsonCT}, body: `{"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"resourceVersion":"1"}}`, code: 409, reason: "Conflict"},
		{name: "ScaleNegative", method: "PUT", target: crOne + "/scale", header: []string{jsonCT}, body: `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"existing","namespace":"default"},"spec":{"replicas":-3}}`, code: 422, reason: "Invalid"},
		{name: "ScaleNameMismatch", method: "PUT", target: crOne + "/scale", header: []string{jsonCT}, body: `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"other","namespace":"default"},"spec":{"replicas":3}}`, code: 400, reason: "BadRequest"},
	}
}

// TestBadInput sends every request of badRequests to a live server: each
// must get its 4xx Status (never a 5xx), change nothing in storage (the
// revision stays where it was), and leave the server serving (/readyz 200
// after each).
func TestBadInput(t *testing.T) {
	s := startServer(t, t.TempDir(), serverOptions{})
	setupCRD(s)
	s.must(201, "POST", cr, obj(`"name":"existing"`, okSpec+`,"replicas":1`))
	rev := s.settledRevision()

	cases := badRequests()
	if len(cases) < 100 {
		t.Fatalf("only %d cases; the issue asks for at least 100", len(cases))
	}
	host := strings.TrimPrefix(s.url, "http://")
	byCode := map[int]int{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, header, body, err := sendRaw(host, c)
			if err != nil {
				t.Fatalf("%s %s: %v", c.method, abbreviate(c.target), err)
			}
			byCode[code]++
			if code != c.code {
				t.Errorf("%s %s: %d %s\nwant %d %s", c.method, abbreviate(c.target), code, abbreviate(string(body)), c.code, c.reason)
			}
			if code >= 500 {
				t.Errorf("a 5xx for bad input: %s", body)
			}
			if !c.plain {
				var st struct {
					Kind, APIVersion, Status, Reason, Message string
					Code                                      int
				}
				if err := json.Unmarshal(body, &st); err != nil || st.Kind != "Status" || st.APIVersion != "v1" || st.Status != "Failure" ||
					st.Code != code || st.Reason != c.reason || st.Message == "" || !strings.HasPrefix(header.Get("Content-Type"), "application/json") {
					t.Errorf("answer is not the Status %d %s: %s %s", c.code, c.reason, header.Get("Content-Type"), abbreviate(string(body)))
				}
			}
			if r := s.revision(); r != rev {
				t.Errorf("the storage revision moved from %d to %d: the request wrote something", rev, r)
				rev = r
			}
			if code, _, err := s.do(t.Context(), "GET", "/readyz", ""); err != nil || code != 200 {
				t.Fatalf("/readyz after the request: %d %v", code, err)
			}
		})
	}
	// Still serving: a good write works.
	s.must(201, "POST", cr, obj(`"name":"after"`, okSpec))
	t.Logf("%d bad requests: answers by code %v; no 5xx, no write, /readyz 200 after each", len(cases), byCode)
}

// sendRaw sends c over a new connection exactly as written (HTTP/1.1,
// target untouched) and reads the answer.
func sendRaw(host string, c badRequest) (int, http.Header, []byte, error) {
	conn, err := net.DialTimeout("tcp", host, 5*time.Second)
	if err != nil {
		return 0, nil, nil, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(60 * time.Second))
	var head bytes.Buffer
	fmt.Fprintf(&head, "%s %s HTTP/1.1\r\nConnection: close\r\n", c.method, c.target)
	hasLength, hasHost, hasUA := false, false, false
	for _, h := range c.header {
		switch lh := strings.ToLower(h); {
		case strings.HasPrefix(lh, "content-length:"), strings.HasPrefix(lh, "transfer-encoding:"):
			hasLength = true
		case strings.HasPrefix(lh, "host:"):
			hasHost = true
		case strings.HasPrefix(lh, "user-agent:"):
			hasUA = true
		}
		head.WriteString(h + "\r\n")
	}
	if !hasHost {
		fmt.Fprintf(&head, "Host: %s\r\n", host)
	}
	if !hasUA {
		head.WriteString("User-Agent: crdlab-reliability\r\n")
	}
	if !hasLength {
		fmt.Fprintf(&head, "Content-Length: %d\r\n", len(c.body)+c.bodyLen)
	}
	head.WriteString("\r\n")
	w := bufio.NewWriterSize(conn, 64<<10)
	// Write the request while reading the answer: the server may answer
	// (413) before reading a huge body.
	writeErr := make(chan error, 1)
	go func() {
		_, err := w.Write(head.Bytes())
		if err == nil {
			_, err = io.WriteString(w, c.body)
		}
		for n := c.bodyLen; n > 0 && err == nil; {
			chunk := bytes.Repeat([]byte{c.bodyByte}, min(n, 64<<10))
			_, err = w.Write(chunk)
			n -= len(chunk)
		}
		if err == nil {
			err = w.Flush()
		}
		writeErr <- err
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("reading the answer (write: %v): %w", <-writeErr, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b, err
}

func abbreviate(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
