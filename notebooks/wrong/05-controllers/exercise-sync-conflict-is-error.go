//go:build ignore

// Mistake: returns a Conflict from UpdateStatus as an error, retrying a CRD that has already changed.
// Check says: a Conflict or NotFound means the CRD changed meanwhile
package wrong

// establishSync establishes the CRD named key if its names are accepted.
func establishSync(ctx context.Context, lister *controller.CRDLister, client controller.CRDClient, key string) error {
	cached, err := lister.Get(key)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !helpers.IsCRDConditionTrue(cached, apiextensionsv1.NamesAccepted) ||
		helpers.IsCRDConditionTrue(cached, apiextensionsv1.Established) {
		return nil
	}
	crd := cached.DeepCopy()
	helpers.SetCRDCondition(crd, apiextensionsv1.CustomResourceDefinitionCondition{
		Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue,
		Reason: "InitialNamesAccepted", Message: "the initial names have been accepted",
	})
	_, err = client.UpdateStatus(ctx, crd, metav1.UpdateOptions{})
	return err
}
