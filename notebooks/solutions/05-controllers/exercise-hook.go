//go:build ignore

// Solution to exercise 2 of 05-controllers.ipynb: the crdHandler's update
// hook that feeds the EstablishingController.
package solutions

// onCRDUpdate is the crdHandler's UpdateFunc: it hands CRDs that are ready
// to be established to establish (the EstablishingController's QueueCRD).
func onCRDUpdate(oldObj, newObj any, establish func(name string)) {
	crd, ok := newObj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return
	}
	// Level-based: look at the new state only. An update that repeats an
	// accepted-but-not-established state (a resync, another status write)
	// queues it again, and the queue coalesces duplicates.
	if helpers.IsCRDConditionTrue(crd, apiextensionsv1.NamesAccepted) &&
		!helpers.IsCRDConditionTrue(crd, apiextensionsv1.Established) {
		establish(crd.Name)
	}
}
