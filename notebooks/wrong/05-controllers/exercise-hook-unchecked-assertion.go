//go:build ignore

// Mistake: asserts the type without checking it, and panics on an object that is not a CRD.
// Check says: not everything an informer hands a handler is a CRD
package wrong

// onCRDUpdate is the crdHandler's UpdateFunc: it hands CRDs that are ready
// to be established to establish (the EstablishingController's QueueCRD).
func onCRDUpdate(oldObj, newObj any, establish func(name string)) {
	crd := newObj.(*apiextensionsv1.CustomResourceDefinition)
	if helpers.IsCRDConditionTrue(crd, apiextensionsv1.NamesAccepted) &&
		!helpers.IsCRDConditionTrue(crd, apiextensionsv1.Established) {
		establish(crd.Name)
	}
}
