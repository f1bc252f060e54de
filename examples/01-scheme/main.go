// Command 01-scheme walks through crdlab's resource registry (the scheme) in
// numbered steps, as the seed articles on kube-apiserver's scheme do:
// register API groups, ask the scheme what it knows, decode a document into
// the Go type of its kind (with that version's defaults), and validate it.
//
//	go run ./examples/01-scheme
//
// Mirrors, in miniature, what kube-apiserver does at start-up
// (install.Install for each group into legacyscheme.Scheme) and on every
// request (the codec's Decode).
package main

import (
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/crdlab/crdlab/apis/apiextensions"
	extensionsinstall "github.com/crdlab/crdlab/apis/apiextensions/install"
	"github.com/crdlab/crdlab/apis/apiextensions/v1beta1"
	"github.com/crdlab/crdlab/apis/apiextensions/validation"
	appsinstall "github.com/crdlab/crdlab/apis/apps/install"
	"github.com/crdlab/crdlab/scheme"
)

// crdV1beta1 is a CRD written for apiextensions.k8s.io/v1beta1 with most
// fields left out, so that defaulting has work to do.
const crdV1beta1 = `
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  version: v1
  names:
    plural: crontabs
    kind: CronTab
  validation:
    openAPIV3Schema:
      type: object
      properties:
        spec:
          type: object
          properties:
            cronSpec: {type: string}
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

	// Registration happens once, before the scheme is used; afterwards the
	// scheme is safe for concurrent use.
	s := scheme.NewScheme()
	extensionsinstall.Install(s)
	appsinstall.Install(s)
	say("registered groups apiextensions.k8s.io and apps")

	for _, group := range []string{"apiextensions.k8s.io", "apps"} {
		var versions []string
		for _, gv := range s.PrioritizedVersionsForGroup(group) {
			versions = append(versions, gv.Version)
		}
		say("%s serves versions %v (preferred first), plus the hub %q", group, versions, scheme.APIVersionInternal)
	}

	kinds := s.KnownTypes(v1beta1.SchemeGroupVersion)
	var names []string
	for k, t := range kinds {
		names = append(names, fmt.Sprintf("%s=%v", k, t))
	}
	sort.Strings(names)
	say("apiextensions.k8s.io/v1beta1 kinds: %v", names)

	// Decoding reads apiVersion/kind, builds that Go type, fills it and
	// applies the defaults of *that* version.
	codecs := scheme.NewCodecFactory(s)
	obj, gvk, err := codecs.Decode([]byte(crdV1beta1), scheme.DecodeOptions{Strict: true})
	if err != nil {
		return err
	}
	crd := obj.(*v1beta1.CustomResourceDefinition)
	say("decoded %v into %T", gvk, obj)
	say("v1beta1 defaults filled: scope=%s singular=%s listKind=%s preserveUnknownFields=%t conversion=%s",
		crd.Spec.Scope, crd.Spec.Names.Singular, crd.Spec.Names.ListKind, *crd.Spec.PreserveUnknownFields, crd.Spec.Conversion.Strategy)
	say("versions defaulted from version: %s served=%t storage=%t; storedVersions=%v",
		crd.Spec.Versions[0].Name, crd.Spec.Versions[0].Served, crd.Spec.Versions[0].Storage, crd.Status.StoredVersions)

	// Validation runs on the hub type, whatever version the client used.
	hubObj, err := s.ConvertToVersion(crd, apiextensions.SchemeGroupVersion)
	if err != nil {
		return err
	}
	hub := hubObj.(*apiextensions.CustomResourceDefinition)
	errs := validation.ValidateCustomResourceDefinition(hub)
	say("converted to the hub (%T) for validation: %d error(s):", hub, len(errs))
	for _, e := range errs {
		fmt.Fprintf(w, "   - %v\n", e)
	}

	// v1beta1's default keeps unknown fields; since Kubernetes 1.22 the
	// API refuses it, and v1 has no such field default.
	preserve := false
	hub.Spec.PreserveUnknownFields = &preserve
	say("with preserveUnknownFields=false, as v1 requires: %d errors", len(validation.ValidateCustomResourceDefinition(hub)))

	hub.Name = "crontab.stable.example.com"
	hub.Spec.Validation.OpenAPIV3Schema.Properties["spec"].Properties["cronSpec"] = apiextensions.JSONSchemaProps{}
	errs = validation.ValidateCustomResourceDefinition(hub)
	say("a broken copy has %d errors:", len(errs))
	for _, e := range errs {
		fmt.Fprintf(w, "   - %v\n", e)
	}
	return nil
}
