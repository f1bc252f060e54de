//go:build ignore

// Mistake: takes a present NamesAccepted condition for a true one, so a CRD whose names conflict is established.
// Check says: the naming controller writes NamesAccepted=False on a conflict
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
	if helpers.FindCRDCondition(cached, apiextensionsv1.NamesAccepted) == nil ||
		helpers.IsCRDConditionTrue(cached, apiextensionsv1.Established) {
		return nil
	}
	crd := cached.DeepCopy()
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
