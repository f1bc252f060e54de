package e2e

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

var updateProtobufFixtures = flag.Bool("update-protobuf-fixtures", false,
	"rewrite ../handler/protobuf/testdata from upstream's protobuf serializer")

// protobufFixtureDir holds the fixtures of crdlab's protobuf decoder.
const protobufFixtureDir = "../handler/protobuf/testdata"

// TestProtobufFixtures checks that the fixtures of handler/protobuf are
// what upstream's protobuf serializer writes — the bodies the typed
// apiextensions clientset sends — together with upstream's JSON for the
// same objects. crdlab cannot import k8s.io, so its decoder is tested
// against these files; this test keeps them true. Rewrite them with
//
//	cd e2e && go test -run TestProtobufFixtures . -args -update-protobuf-fixtures
func TestProtobufFixtures(t *testing.T) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{apiextensionsv1.AddToScheme, corev1.AddToScheme, eventsv1.AddToScheme,
		coordinationv1.AddToScheme, authorizationv1.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	codecs := serializer.NewCodecFactory(s)
	info, ok := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	if !ok {
		t.Fatal("no protobuf serializer")
	}
	// Each object in its own version (the CRD's and DeleteOptions in
	// apiextensions.k8s.io/v1).
	encoderFor := func(obj runtime.Object) runtime.Encoder {
		gv := obj.GetObjectKind().GroupVersionKind().GroupVersion()
		if gv.Empty() || gv.Group == apiextensionsv1.GroupName {
			gv = apiextensionsv1.SchemeGroupVersion
		}
		return codecs.EncoderForVersion(info.Serializer, gv)
	}

	crontab := loadCRD(t)
	crontab.Labels = map[string]string{"app": "cron"}
	for name, obj := range map[string]runtime.Object{
		"crd-crontab":      crontab,
		"crd-kitchen-sink": kitchenSinkCRD(),
		"delete-options": &metav1.DeleteOptions{
			GracePeriodSeconds: ptr.To[int64](0),
			Preconditions:      &metav1.Preconditions{UID: ptr.To[types.UID]("uid-1"), ResourceVersion: ptr.To("7")},
			PropagationPolicy:  ptr.To(metav1.DeletePropagationForeground),
			DryRun:             []string{metav1.DryRunAll},
		},
		// The built-in kinds controller-runtime's client sends as protobuf.
		"secret":    builtinSecret(),
		"configmap": builtinConfigMap(),
		"namespace": &corev1.Namespace{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
			ObjectMeta: metav1.ObjectMeta{Name: "team"}, Spec: corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{"kubernetes"}}},
		"lease":       builtinLease(),
		"event-core":  builtinCoreEvent(),
		"event-v1":    builtinEventsEvent(),
		"self-access": builtinAccessReview(),
	} {
		t.Run(name, func(t *testing.T) {
			var pb bytes.Buffer
			if err := encoderFor(obj).Encode(obj, &pb); err != nil {
				t.Fatal(err)
			}
			js, err := json.MarshalIndent(obj, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []struct {
				ext  string
				want []byte
			}{{".pb", pb.Bytes()}, {".json", append(js, '\n')}} {
				p := filepath.Join(protobufFixtureDir, name+f.ext)
				if *updateProtobufFixtures {
					if err := os.WriteFile(p, f.want, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				got, err := os.ReadFile(p)
				if err != nil || !bytes.Equal(got, f.want) {
					t.Errorf("%s differs from what upstream writes (%v); rerun with -update-protobuf-fixtures", p, err)
				}
			}
		})
	}
}

// kitchenSinkCRD sets every field of a CRD that the protobuf decoder has
// to read, with zero values where a pointer makes them meaningful.
func kitchenSinkCRD() *apiextensionsv1.CustomResourceDefinition {
	ts := metav1.NewTime(time.Date(2026, 11, 29, 12, 30, 45, 0, time.UTC))
	raw := func(s string) *apiextensionsv1.JSON { return &apiextensionsv1.JSON{Raw: []byte(s)} }
	str := apiextensionsv1.JSONSchemaProps{Type: "string"}
	schema := &apiextensionsv1.JSONSchemaProps{
		ID: "id", Schema: "http://json-schema.org/draft-04/schema#", Ref: ptr.To("#/definitions/x"),
		Description: "everything", Type: "object", Title: "Sink", Nullable: true,
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"n": {Type: "number", Format: "double", Maximum: ptr.To(0.0), ExclusiveMaximum: true, Minimum: ptr.To(-1.5),
				ExclusiveMinimum: true, MultipleOf: ptr.To(0.5), Default: raw(`1.5`), Example: raw(`2`)},
			"s": {Type: "string", MaxLength: ptr.To[int64](0), MinLength: ptr.To[int64](1), Pattern: "^a",
				Enum: []apiextensionsv1.JSON{*raw(`"a"`), *raw(`"ab"`)}},
			"a": {Type: "array", MaxItems: ptr.To[int64](3), MinItems: ptr.To[int64](0), UniqueItems: true,
				Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &str}, XListType: ptr.To("set")},
			"tuple": {Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{JSONSchemas: []apiextensionsv1.JSONSchemaProps{str, {Type: "integer"}}},
				AdditionalItems: &apiextensionsv1.JSONSchemaPropsOrBool{Allows: false}},
			"m": {Type: "object", MaxProperties: ptr.To[int64](5), MinProperties: ptr.To[int64](0),
				AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Allows: true, Schema: &str}, XMapType: ptr.To("granular")},
			"closed": {Type: "object", AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Allows: false}},
			"free":   {Type: "object", XPreserveUnknownFields: ptr.To(false), XEmbeddedResource: true},
			"ios":    {XIntOrString: true, AnyOf: []apiextensionsv1.JSONSchemaProps{{Type: "integer"}, str}},
			"list": {Type: "array", XListType: ptr.To("map"), XListMapKeys: []string{"name"},
				Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", Required: []string{"name"}, Properties: map[string]apiextensionsv1.JSONSchemaProps{"name": str}}}},
			"empty": {},
		},
		Required:          []string{"n"},
		AllOf:             []apiextensionsv1.JSONSchemaProps{{Required: []string{"s"}}},
		OneOf:             []apiextensionsv1.JSONSchemaProps{{Required: []string{"a"}}, {Required: []string{"m"}}},
		Not:               &apiextensionsv1.JSONSchemaProps{Required: []string{"never"}},
		PatternProperties: map[string]apiextensionsv1.JSONSchemaProps{"^x-": str},
		Dependencies: apiextensionsv1.JSONSchemaDependencies{
			"a": {Property: []string{"m"}},
			"m": {Schema: &apiextensionsv1.JSONSchemaProps{Required: []string{"s"}}},
		},
		Definitions:  apiextensionsv1.JSONSchemaDefinitions{"x": str},
		ExternalDocs: &apiextensionsv1.ExternalDocumentation{Description: "docs", URL: "https://example.com"},
		XValidations: apiextensionsv1.ValidationRules{{
			Rule: "self.n > 0", Message: "n must be positive", MessageExpression: "'n is ' + string(self.n)",
			Reason: ptr.To(apiextensionsv1.FieldValueInvalid), FieldPath: ".n", OptionalOldSelf: ptr.To(false),
		}},
	}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{
			Name: "sinks.example.com", GenerateName: "sinks-", UID: "uid-1", ResourceVersion: "42", Generation: 3,
			CreationTimestamp: ts, DeletionTimestamp: &ts, DeletionGracePeriodSeconds: ptr.To[int64](0),
			Labels: map[string]string{"a": "1", "empty": ""}, Annotations: map[string]string{"note": "x"},
			Finalizers: []string{"customresourcecleanup.apiextensions.k8s.io"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Thing", Name: "owner", UID: "uid-0",
				Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(false)}},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationUpdate,
				APIVersion: "apiextensions.k8s.io/v1", Time: &ts, FieldsType: "FieldsV1",
				FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{}}`)}, Subresource: "status"}},
		},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.com", Scope: apiextensionsv1.ClusterScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "sinks", Singular: "sink", Kind: "Sink",
				ListKind: "SinkList", ShortNames: []string{"sk"}, Categories: []string{"all"}},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
				{Name: "v1", Served: true, Storage: true, Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: schema},
					Subresources: &apiextensionsv1.CustomResourceSubresources{
						Status: &apiextensionsv1.CustomResourceSubresourceStatus{},
						Scale:  &apiextensionsv1.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.r", StatusReplicasPath: ".status.r", LabelSelectorPath: ptr.To("")},
					},
					AdditionalPrinterColumns: []apiextensionsv1.CustomResourceColumnDefinition{
						{Name: "N", Type: "number", Format: "double", Description: "n", Priority: 0, JSONPath: ".n"},
						{Name: "S", Type: "string", Priority: 1, JSONPath: ".s"},
					},
					SelectableFields: []apiextensionsv1.SelectableField{{JSONPath: ".s"}},
				},
				{Name: "v1beta1", Served: false, Storage: false, Deprecated: true, DeprecationWarning: ptr.To(""),
					Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{Type: "object"}}},
			},
			Conversion: &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.WebhookConverter,
				Webhook: &apiextensionsv1.WebhookConversion{
					ClientConfig: &apiextensionsv1.WebhookClientConfig{URL: ptr.To("https://hook.example.com/convert"), CABundle: []byte{0, 1, 2, 255},
						Service: &apiextensionsv1.ServiceReference{Namespace: "ns", Name: "hook", Path: ptr.To("/convert"), Port: ptr.To[int32](443)}},
					ConversionReviewVersions: []string{"v1"},
				}},
		},
		Status: apiextensionsv1.CustomResourceDefinitionStatus{
			Conditions: []apiextensionsv1.CustomResourceDefinitionCondition{{Type: apiextensionsv1.Established,
				Status: apiextensionsv1.ConditionTrue, LastTransitionTime: ts, Reason: "InitialNamesAccepted", Message: "ok", ObservedGeneration: 2}},
			AcceptedNames:  apiextensionsv1.CustomResourceDefinitionNames{Plural: "sinks", Kind: "Sink"},
			StoredVersions: []string{"v1"},
		},
	}
}

// The built-in kinds, with every field crdlab's decoder reads set.
var fixtureTime = time.Date(2026, 11, 29, 12, 30, 45, 0, time.UTC)

func builtinSecret() *corev1.Secret {
	return &corev1.Secret{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: metav1.ObjectMeta{Name: "sh.helm.release.v1.demo.v1", Namespace: "default", Labels: map[string]string{"owner": "helm"}},
		Immutable:  ptr.To(false), Data: map[string][]byte{"release": {0, 1, 2, 255}}, StringData: map[string]string{"note": "hi"},
		Type: "helm.sh/release.v1"}
}

func builtinConfigMap() *corev1.ConfigMap {
	return &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: "default"},
		Immutable:  ptr.To(true), Data: map[string]string{"a": "1", "empty": ""}, BinaryData: map[string][]byte{"b": {9}}}
}

func builtinLease() *coordinationv1.Lease {
	renew := metav1.NewMicroTime(fixtureTime.Add(123456 * time.Microsecond))
	return &coordinationv1.Lease{TypeMeta: metav1.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "Lease"},
		ObjectMeta: metav1.ObjectMeta{Name: "leader", Namespace: "kube-system", ResourceVersion: "42"},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To("manager-1_abc"), LeaseDurationSeconds: ptr.To[int32](15),
			AcquireTime: &renew, RenewTime: &renew, LeaseTransitions: ptr.To[int32](0)}}
}

func builtinCoreEvent() *corev1.Event {
	return &corev1.Event{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta:     metav1.ObjectMeta{Name: "cm.17a", Namespace: "default"},
		InvolvedObject: corev1.ObjectReference{Kind: "ConfigMap", Namespace: "default", Name: "cm", UID: "u-1", APIVersion: "v1", ResourceVersion: "5", FieldPath: "data"},
		Reason:         "Changed", Message: "it changed", Source: corev1.EventSource{Component: "ctrl", Host: "h"},
		FirstTimestamp: metav1.NewTime(fixtureTime), LastTimestamp: metav1.NewTime(fixtureTime), Count: 3, Type: "Warning",
		EventTime: metav1.NewMicroTime(fixtureTime), Action: "Reconcile", ReportingController: "example.com/ctrl", ReportingInstance: "ctrl-1",
		Series: &corev1.EventSeries{Count: 2, LastObservedTime: metav1.NewMicroTime(fixtureTime.Add(time.Microsecond))}}
}

func builtinEventsEvent() *eventsv1.Event {
	return &eventsv1.Event{TypeMeta: metav1.TypeMeta{APIVersion: "events.k8s.io/v1", Kind: "Event"},
		ObjectMeta: metav1.ObjectMeta{Name: "e", Namespace: "default"}, EventTime: metav1.NewMicroTime(fixtureTime),
		ReportingController: "example.com/ctrl", ReportingInstance: "ctrl-1", Action: "Reconcile", Reason: "Done",
		Regarding: corev1.ObjectReference{Kind: "CronTab", Name: "c"}, Note: "done", Type: "Normal", DeprecatedCount: 1}
}

func builtinAccessReview() *authorizationv1.SelfSubjectAccessReview {
	return &authorizationv1.SelfSubjectAccessReview{TypeMeta: metav1.TypeMeta{APIVersion: "authorization.k8s.io/v1", Kind: "SelfSubjectAccessReview"},
		Spec: authorizationv1.SelfSubjectAccessReviewSpec{ResourceAttributes: &authorizationv1.ResourceAttributes{
			Namespace: "default", Verb: "list", Resource: "secrets",
			LabelSelector: &authorizationv1.LabelSelectorAttributes{Requirements: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "In", Values: []string{"b"}}}}}}}
}
