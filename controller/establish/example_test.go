package establish_test

import (
	"context"
	"fmt"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/controller/establish"
	"github.com/crdlab/crdlab/controller/internal/controllertest"
)

// The crdHandler hands over a CRD whose names were just accepted; the
// controller marks it Established.
func Example() {
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "crontabs.stable.example.com"},
		Status: apiextensionsv1.CustomResourceDefinitionStatus{Conditions: []apiextensionsv1.CustomResourceDefinitionCondition{
			{Type: apiextensionsv1.NamesAccepted, Status: apiextensionsv1.ConditionTrue, Reason: "NoConflicts"},
			{Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionFalse, Reason: "Installing"},
		}},
	}
	client := controllertest.NewClient()
	inf := controllertest.NewInformer(client.Put(crd))
	c := establish.NewEstablishingController(inf, client, controller.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx, 1)

	c.QueueCRD(crd.Name) // what the crdHandler's update handler does
	for !helpers.IsCRDConditionTrue(client.Get(crd.Name), apiextensionsv1.Established) {
		time.Sleep(time.Millisecond)
	}
	e := helpers.FindCRDCondition(client.Get(crd.Name), apiextensionsv1.Established)
	fmt.Printf("%s=%s %s: %s\n", e.Type, e.Status, e.Reason, e.Message)
	// Output:
	// Established=True InitialNamesAccepted: the initial names have been accepted
}
