//go:build ignore

// Mistake: looks at the old object, the state before the update.
// Check says: the new object is the state to act on
package wrong

// onCRDUpdate is the crdHandler's UpdateFunc: it hands CRDs that are ready
// to be established to establish (the EstablishingController's QueueCRD).
func onCRDUpdate(oldObj, newObj any, establish func(name string)) {
	crd, ok := oldObj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return
	}
	if helpers.IsCRDConditionTrue(crd, apiextensionsv1.NamesAccepted) &&
		!helpers.IsCRDConditionTrue(crd, apiextensionsv1.Established) {
		establish(crd.Name)
	}
}
