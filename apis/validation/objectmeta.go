package validation

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/validation/field"
	utilvalidation "github.com/crdlab/crdlab/machinery/validation"
	"github.com/crdlab/crdlab/scheme"
)

// Messages shared with upstream.
const (
	// FieldImmutableErrorMsg is the detail of a change to an immutable field.
	FieldImmutableErrorMsg = "field is immutable"
	// IsNegativeErrorMsg is the detail of a negative count.
	IsNegativeErrorMsg = "must be greater than or equal to 0"
	// TotalAnnotationSizeLimitB caps the sum of annotation keys and values.
	TotalAnnotationSizeLimitB = 256 * (1 << 10)
)

// ValidateNameFunc checks a name, or a generateName prefix when prefix is
// true, and returns the reasons it is invalid.
//
// Mirrors k8s.io/apimachinery/pkg/api/validation.ValidateNameFunc.
type ValidateNameFunc func(name string, prefix bool) []string

// NameIsDNSSubdomain is a ValidateNameFunc for names that must be DNS
// subdomains (most kinds, CRDs included).
func NameIsDNSSubdomain(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return utilvalidation.IsDNS1123Subdomain(name)
}

// NameIsDNSLabel is a ValidateNameFunc for names that must be DNS labels.
func NameIsDNSLabel(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return utilvalidation.IsDNS1123Label(name)
}

// NameIsDNS1035Label is a ValidateNameFunc for names that must be DNS-1035 labels.
func NameIsDNS1035Label(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return utilvalidation.IsDNS1035Label(name)
}

// ValidateNamespaceName checks a namespace name (a DNS label).
var ValidateNamespaceName ValidateNameFunc = NameIsDNSLabel

// maskTrailingDash lets a generateName prefix end in "-": the server will
// append random characters.
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}

// ValidateObjectMeta checks the metadata of a new object: name (or
// generateName) with nameFn, namespace present if and only if
// requiresNamespace, labels, annotations, owner references and finalizers.
//
// Mirrors k8s.io/apimachinery/pkg/api/validation.ValidateObjectMetaAccessor.
func ValidateObjectMeta(meta metav1.Object, requiresNamespace bool, nameFn ValidateNameFunc, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if len(meta.GetGenerateName()) != 0 {
		for _, msg := range nameFn(meta.GetGenerateName(), true) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("generateName"), meta.GetGenerateName(), msg))
		}
	}
	if len(meta.GetName()) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range nameFn(meta.GetName(), false) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("name"), meta.GetName(), msg))
		}
	}
	if requiresNamespace {
		if len(meta.GetNamespace()) == 0 {
			allErrs = append(allErrs, field.Required(fldPath.Child("namespace"), ""))
		} else {
			for _, msg := range ValidateNamespaceName(meta.GetNamespace(), false) {
				allErrs = append(allErrs, field.Invalid(fldPath.Child("namespace"), meta.GetNamespace(), msg))
			}
		}
	} else if len(meta.GetNamespace()) != 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("namespace"), "not allowed on this type"))
	}
	allErrs = append(allErrs, ValidateNonnegativeField(meta.GetGeneration(), fldPath.Child("generation"))...)
	allErrs = append(allErrs, ValidateLabels(meta.GetLabels(), fldPath.Child("labels"))...)
	allErrs = append(allErrs, ValidateAnnotations(meta.GetAnnotations(), fldPath.Child("annotations"))...)
	allErrs = append(allErrs, ValidateOwnerReferences(meta.GetOwnerReferences(), fldPath.Child("ownerReferences"))...)
	allErrs = append(allErrs, ValidateFinalizers(meta.GetFinalizers(), fldPath.Child("finalizers"))...)
	allErrs = append(allErrs, ValidateManagedFields(meta.GetManagedFields(), fldPath.Child("managedFields"))...)
	return allErrs
}

// ValidateObjectMetaUpdate checks the metadata of an update: a
// resourceVersion is given, identity fields do not change, generation does
// not go down, and no finalizer is added to an object being deleted.
//
// Mirrors k8s.io/apimachinery/pkg/api/validation.ValidateObjectMetaAccessorUpdate.
func ValidateObjectMetaUpdate(newMeta, oldMeta metav1.Object, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if oldMeta.GetDeletionTimestamp() != nil {
		allErrs = append(allErrs, ValidateNoNewFinalizers(newMeta.GetFinalizers(), oldMeta.GetFinalizers(), fldPath.Child("finalizers"))...)
	}
	if len(newMeta.GetResourceVersion()) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("resourceVersion"), newMeta.GetResourceVersion(), "must be specified for an update"))
	}
	if newMeta.GetGeneration() < oldMeta.GetGeneration() {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("generation"), newMeta.GetGeneration(), "must not be decremented"))
	}
	allErrs = append(allErrs, ValidateImmutableField(newMeta.GetName(), oldMeta.GetName(), fldPath.Child("name"))...)
	allErrs = append(allErrs, ValidateImmutableField(newMeta.GetNamespace(), oldMeta.GetNamespace(), fldPath.Child("namespace"))...)
	allErrs = append(allErrs, ValidateImmutableField(newMeta.GetUID(), oldMeta.GetUID(), fldPath.Child("uid"))...)
	nc, oc := newMeta.GetCreationTimestamp(), oldMeta.GetCreationTimestamp()
	if !nc.Equal(&oc) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("creationTimestamp"), nc, FieldImmutableErrorMsg))
	}
	if !newMeta.GetDeletionTimestamp().Equal(oldMeta.GetDeletionTimestamp()) {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("deletionTimestamp"), newMeta.GetDeletionTimestamp(), FieldImmutableErrorMsg))
	}
	allErrs = append(allErrs, ValidateImmutableField(newMeta.GetDeletionGracePeriodSeconds(), oldMeta.GetDeletionGracePeriodSeconds(), fldPath.Child("deletionGracePeriodSeconds"))...)
	allErrs = append(allErrs, ValidateLabels(newMeta.GetLabels(), fldPath.Child("labels"))...)
	allErrs = append(allErrs, ValidateAnnotations(newMeta.GetAnnotations(), fldPath.Child("annotations"))...)
	allErrs = append(allErrs, ValidateOwnerReferences(newMeta.GetOwnerReferences(), fldPath.Child("ownerReferences"))...)
	return allErrs
}

// ValidateImmutableField reports newVal != oldVal as "field is immutable".
func ValidateImmutableField(newVal, oldVal any, fldPath *field.Path) field.ErrorList {
	if !reflect.DeepEqual(newVal, oldVal) {
		return field.ErrorList{field.Invalid(fldPath, newVal, FieldImmutableErrorMsg)}
	}
	return nil
}

// ValidateNonnegativeField reports a negative value.
func ValidateNonnegativeField(value int64, fldPath *field.Path) field.ErrorList {
	if value < 0 {
		return field.ErrorList{field.Invalid(fldPath, value, IsNegativeErrorMsg)}
	}
	return nil
}

// ValidateLabels checks label keys (qualified names) and values.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1/validation.ValidateLabels.
func ValidateLabels(labels map[string]string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, k := range sortedKeys(labels) {
		allErrs = append(allErrs, ValidateLabelName(k, fldPath)...)
		for _, msg := range utilvalidation.IsValidLabelValue(labels[k]) {
			allErrs = append(allErrs, field.Invalid(fldPath, labels[k], msg))
		}
	}
	return allErrs
}

// ValidateLabelName checks one label key.
func ValidateLabelName(labelName string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, msg := range utilvalidation.IsQualifiedName(labelName) {
		allErrs = append(allErrs, field.Invalid(fldPath, labelName, msg))
	}
	return allErrs
}

// ValidateAnnotations checks annotation keys (qualified names, any case)
// and their total size.
func ValidateAnnotations(annotations map[string]string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	size := 0
	for _, k := range sortedKeys(annotations) {
		for _, msg := range utilvalidation.IsQualifiedName(strings.ToLower(k)) {
			allErrs = append(allErrs, field.Invalid(fldPath, k, msg))
		}
		size += len(k) + len(annotations[k])
	}
	if size > TotalAnnotationSizeLimitB {
		allErrs = append(allErrs, field.TooLong(fldPath, "", TotalAnnotationSizeLimitB))
	}
	return allErrs
}

// ValidateOwnerReferences checks each reference names a full kind, a name
// and a uid, and that at most one is the controller.
func ValidateOwnerReferences(refs []metav1.OwnerReference, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	var controllers []string
	for i, ref := range refs {
		p := fldPath.Index(i)
		gvk := scheme.FromAPIVersionAndKind(ref.APIVersion, ref.Kind)
		if len(gvk.Version) == 0 {
			allErrs = append(allErrs, field.Invalid(p.Child("apiVersion"), ref.APIVersion, "version must not be empty"))
		}
		if len(gvk.Kind) == 0 {
			allErrs = append(allErrs, field.Invalid(p.Child("kind"), ref.Kind, "must not be empty"))
		}
		if len(ref.Name) == 0 {
			allErrs = append(allErrs, field.Invalid(p.Child("name"), ref.Name, "must not be empty"))
		}
		if len(ref.UID) == 0 {
			allErrs = append(allErrs, field.Invalid(p.Child("uid"), string(ref.UID), "must not be empty"))
		}
		if ref.Controller != nil && *ref.Controller {
			// One error for each controller after the first, naming both
			// as Kind/name, as upstream (checked with the real
			// kube-apiserver: e2e TestReferenceBuiltinAPI).
			controllers = append(controllers, ref.Kind+"/"+ref.Name)
			if len(controllers) > 1 {
				allErrs = append(allErrs, field.Invalid(fldPath, refs, fmt.Sprintf("Only one reference can have Controller set to true. Found \"true\" in references for %v and %v", controllers[0], controllers[len(controllers)-1])))
			}
		}
	}
	return allErrs
}

// ValidateFinalizers checks each finalizer is a qualified name.
func ValidateFinalizers(finalizers []string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, f := range finalizers {
		for _, msg := range utilvalidation.IsQualifiedName(f) {
			allErrs = append(allErrs, field.Invalid(fldPath, f, msg))
		}
	}
	return allErrs
}

// ValidateNoNewFinalizers forbids adding finalizers to an object being deleted.
func ValidateNoNewFinalizers(newFinalizers, oldFinalizers []string, fldPath *field.Path) field.ErrorList {
	old := map[string]bool{}
	for _, f := range oldFinalizers {
		old[f] = true
	}
	extra := map[string]string{}
	for _, f := range newFinalizers {
		if !old[f] {
			extra[f] = f
		}
	}
	if len(extra) == 0 {
		return nil
	}
	return field.ErrorList{field.Forbidden(fldPath, fmt.Sprintf("no new finalizers can be added if the object is being deleted, found new finalizers %#v", sortedKeys(extra)))}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
