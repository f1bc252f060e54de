//go:build ignore

// Solution to exercise 1 of 05-controllers.ipynb: the establishing
// controller's sync, as upstream's (*EstablishingController).sync.
package solutions

// establishSync establishes the CRD named key if its names are accepted.
func establishSync(ctx context.Context, lister *controller.CRDLister, client controller.CRDClient, key string) error {
	cached, err := lister.Get(key)
	if apierrors.IsNotFound(err) {
		return nil // deleted since it was queued
	}
	if err != nil {
		return err
	}
	if !helpers.IsCRDConditionTrue(cached, apiextensionsv1.NamesAccepted) ||
		helpers.IsCRDConditionTrue(cached, apiextensionsv1.Established) {
		return nil
	}

	crd := cached.DeepCopy() // the cache is shared: never write to it
	helpers.SetCRDCondition(crd, apiextensionsv1.CustomResourceDefinitionCondition{
		Type:    apiextensionsv1.Established,
		Status:  apiextensionsv1.ConditionTrue,
		Reason:  "InitialNamesAccepted",
		Message: "the initial names have been accepted",
	})
	_, err = client.UpdateStatus(ctx, crd, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		// Changed or deleted meanwhile: the newer CRD comes through the
		// informer and is queued again if it still needs establishing.
		return nil
	}
	return err
}
