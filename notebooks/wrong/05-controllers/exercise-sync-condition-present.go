//go:build ignore

// Mistake: takes a present Established condition for a true one; the naming controller writes Established=False.
// Check says: wrote 0 times, want once
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
		helpers.FindCRDCondition(cached, apiextensionsv1.Established) != nil {
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
