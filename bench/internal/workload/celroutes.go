package workload

import (
	"fmt"
	"strings"
)

// CELRoutes is the CRD of the "create with CEL rules" phase: an HTTP route
// shaped like Gateway API's HTTPRoute, whose schema carries 10
// x-kubernetes-validations rules (path checks on each match, filter
// consistency, timeouts compared as durations, parent references, a cap
// on matches). Every created object has rules to evaluate at 17 places:
// the cost a real project's CRD puts on each write.
var CELRoutes = CRD{Plural: "celroutes", Kind: "CelRoute", cel: true}

// celRoutesSchema is the openAPIV3Schema of CELRoutes.
const celRoutesSchema = `{"type":"object","properties":{
 "spec":{"type":"object","properties":{
  "hostnames":{"type":"array","maxItems":16,"items":{"type":"string","maxLength":253}},
  "parentRefs":{"type":"array","maxItems":32,"items":{"type":"object","required":["name"],"properties":{
    "name":{"type":"string","maxLength":253},"namespace":{"type":"string","maxLength":63},"sectionName":{"type":"string","maxLength":253}}},
   "x-kubernetes-validations":[{"rule":"self.all(p1, self.all(p2, p1.name == p2.name ? (has(p1.sectionName) == has(p2.sectionName)) : true))","message":"sectionName must be specified when parentRefs includes 2 or more references to the same parent"}]},
  "rules":{"type":"array","maxItems":16,
   "x-kubernetes-validations":[{"rule":"self.all(r, !has(r.matches) || r.matches.size() <= 8)","message":"at most 8 matches per rule"}],
   "items":{"type":"object","properties":{
    "matches":{"type":"array","maxItems":8,"items":{"type":"object","properties":{
      "path":{"type":"object","properties":{
        "type":{"type":"string","enum":["Exact","PathPrefix","RegularExpression"]},
        "value":{"type":"string","maxLength":1024}},
       "x-kubernetes-validations":[
        {"rule":"(self.type in ['Exact','PathPrefix']) ? self.value.startsWith('/') : true","message":"value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']"},
        {"rule":"(self.type in ['Exact','PathPrefix']) ? !self.value.contains('//') : true","message":"must not contain '//' when type one of ['Exact', 'PathPrefix']"},
        {"rule":"(self.type in ['Exact','PathPrefix']) ? !self.value.contains('/./') : true","message":"must not contain '/./' when type one of ['Exact', 'PathPrefix']"},
        {"rule":"(self.type in ['Exact','PathPrefix']) ? self.value.matches(r\"\"\"^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$\"\"\") : true","message":"must only contain valid characters"}]}}}},
    "filters":{"type":"array","maxItems":16,"items":{"type":"object","required":["type"],"properties":{
      "type":{"type":"string","enum":["RequestHeaderModifier","RequestRedirect"]},
      "requestRedirect":{"type":"object","properties":{"scheme":{"type":"string","maxLength":5}}},
      "requestHeaderModifier":{"type":"object","properties":{"set":{"type":"array","maxItems":16,"items":{"type":"object","properties":{"name":{"type":"string","maxLength":64},"value":{"type":"string","maxLength":256}}}}}}},
     "x-kubernetes-validations":[{"rule":"(self.type == 'RequestRedirect') == has(self.requestRedirect)","message":"filter.requestRedirect must be set for and only for RequestRedirect filter.type"}]},
     "x-kubernetes-validations":[{"rule":"self.filter(f, f.type == 'RequestHeaderModifier').size() <= 1","message":"RequestHeaderModifier filter cannot be repeated"}]},
    "timeouts":{"type":"object","properties":{"request":{"type":"string","maxLength":16},"backendRequest":{"type":"string","maxLength":16}},
     "x-kubernetes-validations":[{"rule":"!(has(self.request) && has(self.backendRequest) && duration(self.request) != duration('0s') && duration(self.backendRequest) > duration(self.request))","message":"backendRequest timeout cannot be longer than request timeout"}]},
    "backendRefs":{"type":"array","maxItems":16,"items":{"type":"object","required":["name"],"properties":{
      "kind":{"type":"string","maxLength":63},"name":{"type":"string","maxLength":253},"port":{"type":"integer"},"weight":{"type":"integer"}},
     "x-kubernetes-validations":[{"rule":"(!has(self.kind) || self.kind == 'Service') ? has(self.port) : true","message":"Must have port for Service reference"}]}}}}}}},
 "status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}`

// celRouteJSON is the CRD manifest of CELRoutes.
func celRouteJSON(c CRD) []byte {
	return fmt.Appendf(nil, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":%q},
"spec":{"group":%q,"scope":"Namespaced",
 "names":{"plural":%q,"singular":%q,"kind":%q,"listKind":%q},
 "versions":[{"name":%q,"served":true,"storage":true,"subresources":{"status":{}},
  "schema":{"openAPIV3Schema":%s}}]}}`,
		c.Name(), Group, c.Plural, strings.ToLower(c.Kind), c.Kind, c.Kind+"List", Version, celRoutesSchema)
}

// celRouteObject is a valid route: two matches, two filters, timeouts,
// two backends and two parents — every rule of the schema runs.
func celRouteObject(c CRD, ns, name string, counter int) []byte {
	return fmt.Appendf(nil, `{"apiVersion":"%s/%s","kind":%q,"metadata":{"name":%q,"namespace":%q,"labels":{"app":"crdbench"}},"spec":{
"hostnames":["shop-%d.example.com"],
"parentRefs":[{"name":"gw","namespace":"infra","sectionName":"http"},{"name":"gw","namespace":"infra","sectionName":"https"}],
"rules":[{"matches":[{"path":{"type":"PathPrefix","value":"/cart/%d"}},{"path":{"type":"Exact","value":"/checkout"}}],
 "filters":[{"type":"RequestHeaderModifier","requestHeaderModifier":{"set":[{"name":"x-route","value":"r%d"}]}},{"type":"RequestRedirect","requestRedirect":{"scheme":"https"}}],
 "timeouts":{"request":"10s","backendRequest":"2s"},
 "backendRefs":[{"name":"cart","port":8080,"weight":90},{"name":"cart-canary","port":8080,"weight":10}]}]}}`,
		Group, Version, c.Kind, name, ns, counter%100, counter, counter)
}
