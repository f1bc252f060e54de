package install_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/apis/apps"
	"github.com/crdlab/crdlab/apis/apps/install"
	appsv1 "github.com/crdlab/crdlab/apis/apps/v1"
	"github.com/crdlab/crdlab/apis/apps/v1beta1"
	"github.com/crdlab/crdlab/scheme"
)

const betaDeployment = `apiVersion: apps/v1beta1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  rollbackTo: {revision: 4}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: web, image: "nginx", ports: [{containerPort: 80}], env: [{name: A, value: b}]}
`

func codecs(t *testing.T) scheme.CodecFactory {
	t.Helper()
	s := scheme.NewScheme()
	install.Install(s)
	return scheme.NewCodecFactory(s)
}

func TestInstall_VersionPriority(t *testing.T) {
	got := codecs(t).Scheme().PrioritizedVersionsForGroup(apps.GroupName)
	want := []scheme.GroupVersion{appsv1.SchemeGroupVersion, v1beta1.SchemeGroupVersion}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestDeployment_V1beta1ToV1(t *testing.T) {
	c := codecs(t)
	obj, err := c.DecodeToVersion([]byte(betaDeployment), appsv1.SchemeGroupVersion, scheme.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	d := obj.(*appsv1.Deployment)
	if d.APIVersion != "apps/v1" || d.Kind != "Deployment" {
		t.Errorf("TypeMeta = %+v", d.TypeMeta)
	}
	if *d.Spec.RevisionHistoryLimit != 2 {
		t.Errorf("revisionHistoryLimit = %d, want v1beta1's default 2", *d.Spec.RevisionHistoryLimit)
	}
	if d.Spec.Selector == nil || d.Spec.Selector.MatchLabels["app"] != "web" || d.Labels["app"] != "web" {
		t.Errorf("selector and labels should come from the template in v1beta1: %+v %+v", d.Spec.Selector, d.Labels)
	}
	if d.Annotations[appsv1.DeprecatedRollbackTo] != "4" {
		t.Errorf("rollbackTo should travel as an annotation: %v", d.Annotations)
	}
	ru := d.Spec.Strategy.RollingUpdate
	if ru.MaxSurge.String() != "1" || ru.MaxUnavailable.String() != "25%" {
		t.Errorf("rollingUpdate = %v / %v", ru.MaxSurge, ru.MaxUnavailable)
	}
	if c := d.Spec.Template.Spec.Containers[0]; c.ImagePullPolicy != "Always" || c.Ports[0].Protocol != "TCP" {
		t.Errorf("pod template defaults: %+v", c)
	}
}

func TestDeployment_RoundTrip(t *testing.T) {
	c := codecs(t)
	s := c.Scheme()
	obj, _, err := c.Decode([]byte(betaDeployment), scheme.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	v1obj, err := s.ConvertToVersion(obj, appsv1.SchemeGroupVersion)
	if err != nil {
		t.Fatal(err)
	}
	back, err := s.ConvertToVersion(v1obj, v1beta1.SchemeGroupVersion)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(obj)
	b, _ := json.Marshal(back)
	if string(a) != string(b) {
		t.Errorf("v1beta1 → v1 → v1beta1 lost data:\n%s\n%s", a, b)
	}
}

func TestIntOrString_JSON(t *testing.T) {
	for _, in := range []string{`"25%"`, `3`} {
		var v apps.IntOrString
		if err := json.Unmarshal([]byte(in), &v); err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(v)
		if string(out) != in {
			t.Errorf("%s → %s", in, out)
		}
	}
	var v apps.IntOrString
	if err := json.Unmarshal([]byte(`true`), &v); err == nil {
		t.Error("a boolean is neither")
	}
}
