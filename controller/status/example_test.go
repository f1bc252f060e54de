package status_test

import (
	"context"
	"fmt"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/controller/internal/controllertest"
	"github.com/crdlab/crdlab/controller/status"
)

// A CRD asks for a plural another CRD of its group holds as a short name:
// its names are not accepted.
func Example() {
	names := apiextensionsv1.CustomResourceDefinitionNames{Plural: "crontabs", Singular: "crontab", Kind: "CronTab", ListKind: "CronTabList", ShortNames: []string{"ct"}}
	crontabs := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "crontabs.stable.example.com", UID: "1"},
		Spec:       apiextensionsv1.CustomResourceDefinitionSpec{Group: "stable.example.com", Names: names},
		Status:     apiextensionsv1.CustomResourceDefinitionStatus{AcceptedNames: names},
	}
	ct := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "ct.stable.example.com", UID: "2"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{Group: "stable.example.com",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "ct", Singular: "cronthing", Kind: "CronThing", ListKind: "CronThingList"}},
	}
	// A fake informer and client stand in for the server.
	client := controllertest.NewClient()
	inf := controllertest.NewInformer(client.Put(crontabs))
	c, err := status.NewNamingConditionController(inf, client, controller.Options{})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx, 1)

	inf.Add(client.Put(ct)) // the informer's ADD queues the CRD
	for len(client.Updates()) == 0 {
		time.Sleep(time.Millisecond)
	}
	got := client.Get(ct.Name)
	for _, t := range []apiextensionsv1.CustomResourceDefinitionConditionType{apiextensionsv1.NamesAccepted, apiextensionsv1.Established} {
		c := helpers.FindCRDCondition(got, t)
		fmt.Printf("%s=%s %s: %s\n", c.Type, c.Status, c.Reason, c.Message)
	}
	// Output:
	// NamesAccepted=False PluralConflict: "ct" is already in use
	// Established=False NotAccepted: not all names are accepted
}
