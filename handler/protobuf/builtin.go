package protobuf

import "time"

// builtinDescriptors are the descriptors of the built-in kinds crdlab
// serves, which controller-runtime's client (and client-go's clientsets,
// when asked) send as protobuf: core/v1 Namespace, Secret, ConfigMap,
// Event; events.k8s.io/v1 Event; coordination.k8s.io/v1 Lease; the
// self-reviews. Field numbers are those of k8s.io/api's generated.proto
// files.
func builtinDescriptors(objectMeta, t *descriptor) map[string]*descriptor {
	// k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto: MicroTime, and
	// the selector requirements.
	microTime := &descriptor{name: "MicroTime", fields: map[int]field{1: i64("seconds"), 2: {name: "nanos", kind: kindInt32}},
		toJSON: microTimeToJSON}
	requirement := &descriptor{name: "SelectorRequirement", fields: map[int]field{1: str("key"), 2: str("operator"), 3: strs("values")}}

	// k8s.io/api/core/v1/generated.proto
	namespace := &descriptor{name: "Namespace", fields: map[int]field{
		1: msg("metadata", objectMeta),
		2: msg("spec", &descriptor{name: "NamespaceSpec", fields: map[int]field{1: strs("finalizers")}}),
		3: msg("status", &descriptor{name: "NamespaceStatus", fields: map[int]field{
			1: str("phase"),
			2: msgs("conditions", &descriptor{name: "NamespaceCondition", fields: map[int]field{
				1: str("type"), 2: str("status"), 4: msg("lastTransitionTime", t), 5: str("reason"), 6: str("message"),
			}}),
		}}),
	}}
	secret := &descriptor{name: "Secret", fields: map[int]field{
		1: msg("metadata", objectMeta), 5: optBool("immutable"),
		2: {name: "data", kind: kindBytes, isMap: true},
		4: {name: "stringData", kind: kindString, isMap: true},
		3: str("type"),
	}}
	configMap := &descriptor{name: "ConfigMap", fields: map[int]field{
		1: msg("metadata", objectMeta), 4: optBool("immutable"),
		2: {name: "data", kind: kindString, isMap: true},
		3: {name: "binaryData", kind: kindBytes, isMap: true},
	}}
	objectReference := &descriptor{name: "ObjectReference", fields: map[int]field{
		1: str("kind"), 2: str("namespace"), 3: str("name"), 4: str("uid"),
		5: str("apiVersion"), 6: str("resourceVersion"), 7: str("fieldPath"),
	}}
	eventSource := &descriptor{name: "EventSource", fields: map[int]field{1: str("component"), 2: str("host")}}
	eventSeries := &descriptor{name: "EventSeries", fields: map[int]field{
		1: {name: "count", kind: kindInt32}, 2: msg("lastObservedTime", microTime),
	}}
	coreEvent := &descriptor{name: "Event", fields: map[int]field{
		1: msg("metadata", objectMeta), 2: msg("involvedObject", objectReference),
		3: str("reason"), 4: str("message"), 5: msg("source", eventSource),
		6: msg("firstTimestamp", t), 7: msg("lastTimestamp", t),
		8: {name: "count", kind: kindInt32}, 9: str("type"), 10: msg("eventTime", microTime),
		11: msg("series", eventSeries), 12: str("action"), 13: msg("related", objectReference),
		14: str("reportingComponent"), 15: str("reportingInstance"),
	}}

	// k8s.io/api/events/v1/generated.proto
	eventsEvent := &descriptor{name: "Event", fields: map[int]field{
		1: msg("metadata", objectMeta), 2: msg("eventTime", microTime), 3: msg("series", eventSeries),
		4: str("reportingController"), 5: str("reportingInstance"), 6: str("action"), 7: str("reason"),
		8: msg("regarding", objectReference), 9: msg("related", objectReference), 10: str("note"), 11: str("type"),
		12: msg("deprecatedSource", eventSource), 13: msg("deprecatedFirstTimestamp", t),
		14: msg("deprecatedLastTimestamp", t), 15: {name: "deprecatedCount", kind: kindInt32},
	}}

	// k8s.io/api/coordination/v1/generated.proto
	lease := &descriptor{name: "Lease", fields: map[int]field{
		1: msg("metadata", objectMeta),
		2: msg("spec", &descriptor{name: "LeaseSpec", fields: map[int]field{
			1: optStr("holderIdentity"), 2: optI32("leaseDurationSeconds"),
			3: msg("acquireTime", microTime), 4: msg("renewTime", microTime),
			5: optI32("leaseTransitions"), 6: optStr("strategy"), 7: optStr("preferredHolder"),
		}}),
	}}

	// k8s.io/api/authorization/v1 and authentication/v1 generated.proto
	resourceAttributes := &descriptor{name: "ResourceAttributes", fields: map[int]field{
		1: str("namespace"), 2: str("verb"), 3: str("group"), 4: str("version"), 5: str("resource"),
		6: str("subresource"), 7: str("name"),
		8: msg("fieldSelector", &descriptor{name: "FieldSelectorAttributes", fields: map[int]field{1: str("rawSelector"), 2: msgs("requirements", requirement)}}),
		9: msg("labelSelector", &descriptor{name: "LabelSelectorAttributes", fields: map[int]field{1: str("rawSelector"), 2: msgs("requirements", requirement)}}),
	}}
	ssar := &descriptor{name: "SelfSubjectAccessReview", fields: map[int]field{
		1: msg("metadata", objectMeta),
		2: msg("spec", &descriptor{name: "SelfSubjectAccessReviewSpec", fields: map[int]field{
			1: msg("resourceAttributes", resourceAttributes),
			2: msg("nonResourceAttributes", &descriptor{name: "NonResourceAttributes", fields: map[int]field{1: str("path"), 2: str("verb")}}),
		}}),
	}}
	ssrr := &descriptor{name: "SelfSubjectRulesReview", fields: map[int]field{
		1: msg("metadata", objectMeta),
		2: msg("spec", &descriptor{name: "SelfSubjectRulesReviewSpec", fields: map[int]field{1: str("namespace")}}),
	}}
	ssr := &descriptor{name: "SelfSubjectReview", fields: map[int]field{1: msg("metadata", objectMeta)}}

	return map[string]*descriptor{
		"v1/Namespace": namespace, "v1/Secret": secret, "v1/ConfigMap": configMap, "v1/Event": coreEvent,
		"events.k8s.io/v1/Event":                          eventsEvent,
		"coordination.k8s.io/v1/Lease":                    lease,
		"authorization.k8s.io/v1/SelfSubjectAccessReview": ssar,
		"authorization.k8s.io/v1/SelfSubjectRulesReview":  ssrr,
		"authentication.k8s.io/v1/SelfSubjectReview":      ssr,
	}
}

// microTimeToJSON turns a MicroTime message into metav1.MicroTime's JSON:
// RFC 3339 with six fractional digits, in UTC.
//
// Mirrors (*MicroTime).ProtoMicroTime / Unmarshal in
// meta/v1/micro_time_proto.go and (MicroTime).MarshalJSON.
func microTimeToJSON(f map[string]any) (any, error) {
	s, _ := f["seconds"].(int64)
	n, _ := f["nanos"].(int64)
	if len(f) == 0 || (s == zeroTimeSeconds && n == 0) {
		return nil, nil
	}
	return time.Unix(s, n).UTC().Format("2006-01-02T15:04:05.000000Z07:00"), nil
}
