//go:build ignore

// Mistake: sets the condition on the lister's cached object instead of a copy.
// Check says: the lister's object is shared
package wrong

// establishSync establishes the CRD named key if its names are accepted.
func establishSync(ctx context.Context, lister *controller.CRDLister, client controller.CRDClient, key string) error {
	crd, err := lister.Get(key)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !helpers.IsCRDConditionTrue(crd, apiextensionsv1.NamesAccepted) ||
		helpers.IsCRDConditionTrue(crd, apiextensionsv1.Established) {
		return nil
	}
	helpers.SetCRDCondition(crd, apiextensionsv1.CustomResourceDefinitionCondition{
		Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue,
		Reason: "InitialNamesAccepted", Message: "the initial names have been accepted",
	})
	_, err = client.UpdateStatus(ctx, crd, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil
	}
	return err
}
