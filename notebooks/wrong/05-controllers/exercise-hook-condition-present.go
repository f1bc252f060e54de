//go:build ignore

// Mistake: takes "has an Established condition" for "is Established"; the naming controller writes Established=False.
// Check says: a condition that is present can be False
package wrong

// onCRDUpdate is the crdHandler's UpdateFunc: it hands CRDs that are ready
// to be established to establish (the EstablishingController's QueueCRD).
func onCRDUpdate(oldObj, newObj any, establish func(name string)) {
	crd, ok := newObj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return
	}
	if helpers.IsCRDConditionTrue(crd, apiextensionsv1.NamesAccepted) &&
		helpers.FindCRDCondition(crd, apiextensionsv1.Established) == nil {
		establish(crd.Name)
	}
}
