// Package machinery groups the small libraries that the rest of crdlab is
// built with, each a from-scratch counterpart of a package of
// k8s.io/apimachinery, k8s.io/utils or kube-openapi. None of them knows
// about CRDs, storage or HTTP; they sit under the design's parts (scheme,
// storage, informer, controller, handler), not beside them.
//
//	labels       label selectors: parse, match          (apimachinery/pkg/labels)
//	fields       field selectors: parse, match          (apimachinery/pkg/fields)
//	jsonpath     kubectl's JSONPath templates           (client-go/util/jsonpath)
//	patch        JSON patch and JSON merge patch        (apimachinery/pkg/util/jsonmergepatch, evanphx/json-patch semantics)
//	strategicpatch  strategic merge patch by Go struct tags  (apimachinery/pkg/util/strategicpatch)
//	watch        the watch.Interface and its events     (apimachinery/pkg/watch)
//	duration     kubectl's AGE column: "5m10s", "2d4h"  (apimachinery/pkg/util/duration)
//	openapi      OpenAPI v3 documents for served kinds  (kube-openapi, apiextensions-apiserver/pkg/controller/openapi/builder)
//	openapi/v2   /openapi/v2 from the v3 documents, JSON and protobuf (kube-openapi handler, apiextensions openapi/v2)
//	clock        Clock, Timer and a FakeClock           (k8s.io/utils/clock, k8s.io/utils/clock/testing)
//	apiresource  what discovery says about a resource   (apimachinery meta/v1 APIResource, apiserver/pkg/endpoints/discovery)
//	validation   name rules: DNS labels, qualified names (apimachinery/pkg/util/validation)
//	version      the order of version names (v1 > v1beta1)  (apimachinery/pkg/version)
//
// This package holds no code.
package machinery
