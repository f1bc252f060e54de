//go:build ignore

// Mistake: acts only on the change from not accepted to accepted, and misses the same state seen again (a resync).
// Check says: the hook may see the same state twice
package wrong

// onCRDUpdate is the crdHandler's UpdateFunc: it hands CRDs that are ready
// to be established to establish (the EstablishingController's QueueCRD).
func onCRDUpdate(oldObj, newObj any, establish func(name string)) {
	oldCRD, ok1 := oldObj.(*apiextensionsv1.CustomResourceDefinition)
	newCRD, ok2 := newObj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok1 || !ok2 {
		return
	}
	if !helpers.IsCRDConditionTrue(oldCRD, apiextensionsv1.NamesAccepted) &&
		helpers.IsCRDConditionTrue(newCRD, apiextensionsv1.NamesAccepted) &&
		!helpers.IsCRDConditionTrue(newCRD, apiextensionsv1.Established) {
		establish(newCRD.Name)
	}
}
