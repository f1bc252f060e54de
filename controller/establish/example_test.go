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
	"github.com/crdlab/crdlab/machinery/clock"
	"github.com/crdlab/crdlab/trace"
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

// With a Tracer in its Options, the controller and its workqueue say what
// they do: the key is queued, handed to a worker, synced (writing the
// condition), and done.
func Example_trace() {
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "crontabs.stable.example.com"},
		Status: apiextensionsv1.CustomResourceDefinitionStatus{Conditions: []apiextensionsv1.CustomResourceDefinitionCondition{
			{Type: apiextensionsv1.NamesAccepted, Status: apiextensionsv1.ConditionTrue, Reason: "NoConflicts"},
		}},
	}
	client := controllertest.NewClient()
	inf := controllertest.NewInformer(client.Put(crd))
	tr := trace.New(trace.Options{})
	fakeClock := clock.NewFakeClock(time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)) // the queue's waits are 0s
	c := establish.NewEstablishingController(inf, client, controller.Options{Clock: fakeClock, Tracer: tr})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx, 1)

	c.QueueCRD(crd.Name)
	for len(tr.Recent(0)) < 5 {
		time.Sleep(time.Millisecond)
	}
	for _, e := range tr.Recent(0) {
		fmt.Printf("%-10s %-6s %-15s %s\n", e.Component, e.Step, e.Actor, e.Message)
	}
	// Output:
	// workqueue  add    crdEstablishing queued (depth 1)
	// workqueue  get    crdEstablishing handed to a worker after 0s in the queue (depth 0)
	// controller status establishing    Established=True (InitialNamesAccepted)
	// controller sync   establishing    synced
	// workqueue  done   crdEstablishing worker done after 0s
}
