package customresourcedefinition_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/install"
	"github.com/crdlab/crdlab/registry/customresourcedefinition"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage/bolt"
)

// A new CRD starts with a clean status that records its storage version;
// deleting it only marks it for the finalizer controller.
func ExampleNewREST() {
	dir, _ := os.MkdirTemp("", "crd-example")
	defer os.RemoveAll(dir)
	db, _ := bolt.Open(filepath.Join(dir, "data.db"), bolt.Options{NoSync: true})
	defer db.Close()
	s := scheme.NewScheme()
	install.Install(s)
	crds, _ := customresourcedefinition.NewREST(db, s)

	doc := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
	  "metadata":{"name":"crontabs.stable.example.com"},
	  "spec":{"group":"stable.example.com","scope":"Namespaced","names":{"plural":"crontabs","kind":"CronTab"},
	    "versions":[{"name":"v1","served":true,"storage":true,
	      "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]},
	  "status":{"storedVersions":["v0"]}}`
	in, err := scheme.NewCodecFactory(s).DecodeToVersion([]byte(doc), apiextensions.SchemeGroupVersion, scheme.DecodeOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := crds.Create(context.Background(), in, nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	crd := out.(*apiextensions.CustomResourceDefinition)
	fmt.Println("generation:", crd.Generation, "storedVersions:", crd.Status.StoredVersions)

	out, gone, _ := crds.Delete(context.Background(), crd.Name, nil, nil)
	crd = out.(*apiextensions.CustomResourceDefinition)
	fmt.Println("gone:", gone, "finalizers:", crd.Finalizers, "terminating:", apiextensions.IsCRDConditionTrue(crd, apiextensions.Terminating))
	// Output:
	// generation: 1 storedVersions: [v1]
	// gone: false finalizers: [customresourcecleanup.apiextensions.k8s.io] terminating: true
}
