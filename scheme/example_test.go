package scheme_test

import (
	"fmt"

	appsinstall "github.com/crdlab/crdlab/apis/apps/install"
	appsv1 "github.com/crdlab/crdlab/apis/apps/v1"
	appsv1beta1 "github.com/crdlab/crdlab/apis/apps/v1beta1"
	"github.com/crdlab/crdlab/scheme"
)

// Example replays seed 002: register the apps group, decode an apps/v1beta1
// Deployment (defaulted in v1beta1), convert it through the internal
// version to apps/v1, and encode it.
func Example() {
	// 1. Registration: the hub, v1beta1 and v1, with conversions and defaults.
	s := scheme.NewScheme()
	appsinstall.Install(s)
	fmt.Println("preferred:", s.PrioritizedVersionsForGroup("apps")[0])

	// 2. Decode: the document names its version; defaults of that version apply.
	codecs := scheme.NewCodecFactory(s)
	obj, gvk, err := codecs.Decode([]byte(`
apiVersion: apps/v1beta1
kind: Deployment
metadata:
  name: nginx
spec:
  template:
    metadata:
      labels: {app: nginx}
    spec:
      containers:
      - {name: nginx, image: "nginx:1.14.2"}
`), scheme.DecodeOptions{Strict: true})
	if err != nil {
		panic(err)
	}
	fmt.Println("decoded:", gvk)

	// 3. Convert: v1beta1 → __internal → v1.
	out, err := s.ConvertToVersion(obj, appsv1.SchemeGroupVersion)
	if err != nil {
		panic(err)
	}
	d := out.(*appsv1.Deployment)
	fmt.Println("converted:", d.APIVersion, d.Kind)
	fmt.Println("revisionHistoryLimit:", *d.Spec.RevisionHistoryLimit, "(the v1beta1 default)")

	// 4. Encode as YAML in apps/v1 (just the spec.selector part shown).
	y, err := codecs.EncodeYAML(d, appsv1.SchemeGroupVersion)
	if err != nil {
		panic(err)
	}
	fmt.Println("encoded bytes > 0:", len(y) > 0)
	fmt.Println("selector:", d.Spec.Selector.MatchLabels)

	// Output:
	// preferred: apps/v1
	// decoded: apps/v1beta1, Kind=Deployment
	// converted: apps/v1 Deployment
	// revisionHistoryLimit: 2 (the v1beta1 default)
	// encoded bytes > 0: true
	// selector: map[app:nginx]
}

// ExampleScheme_ConvertToVersion shows that conversion always goes through
// the hub: apps/v1 → __internal → apps/v1beta1. The v1 annotation
// deprecated.deployment.rollback.to becomes v1beta1's spec.rollbackTo.
func ExampleScheme_ConvertToVersion() {
	s := scheme.NewScheme()
	appsinstall.Install(s)
	codecs := scheme.NewCodecFactory(s)
	obj, _, _ := codecs.Decode([]byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","annotations":{"deprecated.deployment.rollback.to":"3"}},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"spec":{"containers":[]}}}}`), scheme.DecodeOptions{})

	hub, _ := s.ConvertToVersion(obj, scheme.GroupVersion{Group: "apps", Version: scheme.APIVersionInternal})
	fmt.Printf("hub: %T\n", hub)

	out, _ := s.ConvertToVersion(hub, appsv1beta1.SchemeGroupVersion)
	beta := out.(*appsv1beta1.Deployment)
	fmt.Println(beta.APIVersion, "rollbackTo.revision:", beta.Spec.RollbackTo.Revision, "annotations:", len(beta.Annotations))
	// Output:
	// hub: *apps.Deployment
	// apps/v1beta1 rollbackTo.revision: 3 annotations: 0
}
