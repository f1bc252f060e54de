// Command 02-conversion replays seed 002 ("kube-apiserver 之 scheme(二)"):
// kubectl convert of an apps/v1beta1 Deployment to apps/v1, step by step
// through the internal version; then the same trip for a v1beta1 CRD,
// whose top-level fields fan out to every version in v1 and fold back.
//
//	go run ./examples/02-conversion
//
// The same conversion, as a command: crdlab convert -f deployment.yaml --output-version apps/v1
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/crdlab/crdlab/apis/apiextensions"
	extensionsinstall "github.com/crdlab/crdlab/apis/apiextensions/install"
	extensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	extensionsv1beta1 "github.com/crdlab/crdlab/apis/apiextensions/v1beta1"
	"github.com/crdlab/crdlab/apis/apps"
	appsinstall "github.com/crdlab/crdlab/apis/apps/install"
	appsv1 "github.com/crdlab/crdlab/apis/apps/v1"
	"github.com/crdlab/crdlab/scheme"
)

// deploymentV1beta1 is the walkthrough's input.
const deploymentV1beta1 = `
apiVersion: apps/v1beta1
kind: Deployment
metadata:
  name: nginx-deployment
spec:
  replicas: 3
  rollbackTo:
    revision: 2
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`

const crdV1beta1 = `
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  names: {plural: crontabs, kind: CronTab}
  versions:
  - {name: v1, served: true, storage: true}
  - {name: v1beta1, served: true, storage: false}
  validation:
    openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
  additionalPrinterColumns:
  - {name: Spec, type: string, JSONPath: .spec.cronSpec}
`

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run(w io.Writer) error {
	step := 0
	say := func(format string, args ...any) {
		step++
		fmt.Fprintf(w, "%d. "+format+"\n", append([]any{step}, args...)...)
	}

	s := scheme.NewScheme()
	appsinstall.Install(s)
	extensionsinstall.Install(s)
	codecs := scheme.NewCodecFactory(s)

	// Decode in the version the document was written in. Defaults of that
	// version apply now, before any conversion: this is why the result
	// keeps v1beta1's revisionHistoryLimit of 2 rather than v1's 10.
	obj, gvk, err := codecs.Decode([]byte(deploymentV1beta1), scheme.DecodeOptions{Strict: true})
	if err != nil {
		return err
	}
	say("decode: %v into %T", gvk, obj)

	hubObj, err := s.ConvertToVersion(obj, scheme.GroupVersion{Group: apps.GroupName, Version: scheme.APIVersionInternal})
	if err != nil {
		return err
	}
	hub := hubObj.(*apps.Deployment)
	say("to the hub: %T replicas=%d revisionHistoryLimit=%d rollbackTo=%d selector=%v",
		hub, hub.Spec.Replicas, *hub.Spec.RevisionHistoryLimit, hub.Spec.RollbackTo.Revision, hub.Spec.Selector.MatchLabels)

	v1Obj, err := s.ConvertToVersion(hub, appsv1.SchemeGroupVersion)
	if err != nil {
		return err
	}
	d := v1Obj.(*appsv1.Deployment)
	say("from the hub: %T (apiVersion %s); rollbackTo has no v1 field, so it rides in annotation %s=%q",
		d, d.APIVersion, appsv1.DeprecatedRollbackTo, d.Annotations[appsv1.DeprecatedRollbackTo])

	y, err := codecs.EncodeYAML(d, appsv1.SchemeGroupVersion)
	if err != nil {
		return err
	}
	say("encode as YAML (%d lines); the spec:", strings.Count(string(y), "\n"))
	printSection(w, string(y), "spec:", "  template:")

	// The CRD: v1beta1's top-level validation and columns fan out to every
	// version in v1, and fold back to the top when every version agrees.
	crdObj, _, err := codecs.Decode([]byte(crdV1beta1), scheme.DecodeOptions{Strict: true})
	if err != nil {
		return err
	}
	beta := crdObj.(*extensionsv1beta1.CustomResourceDefinition)
	say("decode a v1beta1 CRD: top-level validation=%t columns=%d; per-version schemas=%t",
		beta.Spec.Validation != nil, len(beta.Spec.AdditionalPrinterColumns), beta.Spec.Versions[0].Schema != nil)

	v1crdObj, err := s.ConvertToVersion(beta, extensionsv1.SchemeGroupVersion)
	if err != nil {
		return err
	}
	v1crd := v1crdObj.(*extensionsv1.CustomResourceDefinition)
	for _, v := range v1crd.Spec.Versions {
		say("v1 version %s: schema=%t columns=%d (fanned out)", v.Name, v.Schema != nil, len(v.AdditionalPrinterColumns))
	}

	backObj, err := s.ConvertToVersion(v1crd, apiextensions.SchemeGroupVersion)
	if err != nil {
		return err
	}
	back := backObj.(*apiextensions.CustomResourceDefinition)
	say("back in the hub: top-level validation=%t columns=%d; per-version schemas=%t (folded, as every version agrees)",
		back.Spec.Validation != nil, len(back.Spec.AdditionalPrinterColumns), back.Spec.Versions[0].Schema != nil)
	return nil
}

// printSection prints the lines of y from the line equal to from up to (not
// including) the line equal to to, indented.
func printSection(w io.Writer, y, from, to string) {
	in := false
	for _, line := range strings.Split(y, "\n") {
		switch line {
		case from:
			in = true
		case to:
			in = false
		}
		if in {
			fmt.Fprintf(w, "   %s\n", line)
		}
	}
}
