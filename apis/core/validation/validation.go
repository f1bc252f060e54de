package validation

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/crdlab/crdlab/apis/core"
	apivalidation "github.com/crdlab/crdlab/apis/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
	utilvalidation "github.com/crdlab/crdlab/machinery/validation"
)

// Name checks of each kind: a namespace is a DNS label (it is one segment
// of every namespaced object's name in DNS), the others DNS subdomains.
var (
	ValidateNamespaceName = apivalidation.NameIsDNSLabel
	ValidateSecretName    = apivalidation.NameIsDNSSubdomain
	ValidateConfigMapName = apivalidation.NameIsDNSSubdomain
)

// ValidateNamespace checks a new Namespace: its metadata (cluster-scoped,
// a DNS label name) and the names in spec.finalizers.
//
// Mirrors ValidateNamespace in pkg/apis/core/validation/validation.go.
func ValidateNamespace(ns *core.Namespace) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&ns.ObjectMeta, false, ValidateNamespaceName, field.NewPath("metadata"))
	for i := range ns.Spec.Finalizers {
		errs = append(errs, validateFinalizerName(string(ns.Spec.Finalizers[i]), field.NewPath("spec", "finalizers"))...)
	}
	return errs
}

// validateFinalizerName: a qualified name, and a name without a "/" must
// be one of the standard ones (kubernetes, orphan, foregroundDeletion).
func validateFinalizerName(name string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range utilvalidation.IsQualifiedName(name) {
		errs = append(errs, field.Invalid(fldPath, name, msg))
	}
	if !strings.Contains(name, "/") && !isStandardFinalizerName(name) {
		errs = append(errs, field.Invalid(fldPath, name, "name is neither a standard finalizer name nor is it fully qualified"))
	}
	return errs
}

// isStandardFinalizerName mirrors helper.IsStandardFinalizerName.
func isStandardFinalizerName(name string) bool {
	switch name {
	case string(core.FinalizerKubernetes), "orphan", "foregroundDeletion":
		return true
	}
	return false
}

// ValidateNamespaceUpdate checks a change of a Namespace through the main
// resource: only the metadata rules (spec and status are kept from the
// stored object by the strategy).
func ValidateNamespaceUpdate(ns, old *core.Namespace) field.ErrorList {
	return apivalidation.ValidateObjectMetaUpdate(&ns.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
}

// ValidateNamespaceStatusUpdate checks a write of /status: the phase must
// agree with deletionTimestamp (Active without, Terminating with).
func ValidateNamespaceStatusUpdate(ns, old *core.Namespace) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&ns.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	if ns.DeletionTimestamp.IsZero() {
		if ns.Status.Phase != core.NamespaceActive {
			errs = append(errs, field.Invalid(field.NewPath("status", "Phase"), ns.Status.Phase, "may only be 'Active' if `deletionTimestamp` is empty"))
		}
	} else if ns.Status.Phase != core.NamespaceTerminating {
		errs = append(errs, field.Invalid(field.NewPath("status", "Phase"), ns.Status.Phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"))
	}
	return errs
}

// ValidateNamespaceFinalizeUpdate checks a write of /finalize: the new
// spec.finalizers must be valid names.
func ValidateNamespaceFinalizeUpdate(ns, old *core.Namespace) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&ns.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	fldPath := field.NewPath("spec", "finalizers")
	for i := range ns.Spec.Finalizers {
		errs = append(errs, validateFinalizerName(string(ns.Spec.Finalizers[i]), fldPath.Index(i))...)
	}
	return errs
}

// ValidateSecret checks a Secret: keys, 1 MiB of data in all, and the
// keys (or annotation) its type requires.
//
// Mirrors ValidateSecret in pkg/apis/core/validation/validation.go.
func ValidateSecret(secret *core.Secret) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&secret.ObjectMeta, true, ValidateSecretName, field.NewPath("metadata"))
	dataPath := field.NewPath("data")
	total := 0
	for _, key := range sortedKeys(secret.Data) {
		for _, msg := range utilvalidation.IsConfigMapKey(key) {
			errs = append(errs, field.Invalid(dataPath.Key(key), key, msg))
		}
		total += len(secret.Data[key])
	}
	if total > core.MaxSecretSize {
		errs = append(errs, field.TooLong(dataPath, "", core.MaxSecretSize))
	}
	required := func(key string) { errs = append(errs, field.Required(dataPath.Key(key), "")) }
	wellFormedJSON := func(key string) {
		b, ok := secret.Data[key]
		if !ok {
			required(key)
			return
		}
		if err := json.Unmarshal(b, &map[string]any{}); err != nil {
			errs = append(errs, field.Invalid(dataPath.Key(key), "<secret contents redacted>", err.Error()))
		}
	}
	switch secret.Type {
	case core.SecretTypeServiceAccountToken:
		if secret.Annotations[core.ServiceAccountNameKey] == "" {
			errs = append(errs, field.Required(field.NewPath("metadata", "annotations").Key(core.ServiceAccountNameKey), ""))
		}
	case core.SecretTypeDockercfg:
		wellFormedJSON(core.DockerConfigKey)
	case core.SecretTypeDockerConfigJSON:
		wellFormedJSON(core.DockerConfigJSONKey)
	case core.SecretTypeBasicAuth:
		_, user := secret.Data[core.BasicAuthUsernameKey]
		_, password := secret.Data[core.BasicAuthPasswordKey]
		if !user && !password {
			required(core.BasicAuthUsernameKey)
			required(core.BasicAuthPasswordKey)
		}
	case core.SecretTypeSSHAuth:
		if len(secret.Data[core.SSHAuthPrivateKey]) == 0 {
			required(core.SSHAuthPrivateKey)
		}
	case core.SecretTypeTLS:
		if _, ok := secret.Data[core.TLSCertKey]; !ok {
			required(core.TLSCertKey)
		}
		if _, ok := secret.Data[core.TLSPrivateKeyKey]; !ok {
			required(core.TLSPrivateKeyKey)
		}
	}
	return errs
}

// ValidateSecretUpdate checks a changed Secret: type never changes; an
// immutable Secret keeps its data and stays immutable.
//
// Mirrors ValidateSecretUpdate in pkg/apis/core/validation/validation.go.
func ValidateSecretUpdate(secret, old *core.Secret) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&secret.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, apivalidation.ValidateImmutableField(secret.Type, old.Type, field.NewPath("type"))...)
	if old.Immutable != nil && *old.Immutable {
		if secret.Immutable == nil || !*secret.Immutable {
			errs = append(errs, field.Forbidden(field.NewPath("immutable"), "field is immutable when `immutable` is set"))
		}
		if !reflect.DeepEqual(secret.Data, old.Data) {
			errs = append(errs, field.Forbidden(field.NewPath("data"), "field is immutable when `immutable` is set"))
		}
	}
	return append(errs, ValidateSecret(secret)...)
}

// ValidateConfigMap checks a ConfigMap: keys, no key in both data and
// binaryData, and 1 MiB in all.
//
// Mirrors ValidateConfigMap in pkg/apis/core/validation/validation.go.
func ValidateConfigMap(cfg *core.ConfigMap) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&cfg.ObjectMeta, true, ValidateConfigMapName, field.NewPath("metadata"))
	total := 0
	for _, key := range sortedKeys(cfg.Data) {
		for _, msg := range utilvalidation.IsConfigMapKey(key) {
			errs = append(errs, field.Invalid(field.NewPath("data").Key(key), key, msg))
		}
		if _, dup := cfg.BinaryData[key]; dup {
			errs = append(errs, field.Invalid(field.NewPath("data").Key(key), key, "duplicate of key present in binaryData"))
		}
		total += len(cfg.Data[key])
	}
	for _, key := range sortedKeys(cfg.BinaryData) {
		for _, msg := range utilvalidation.IsConfigMapKey(key) {
			errs = append(errs, field.Invalid(field.NewPath("binaryData").Key(key), key, msg))
		}
		total += len(cfg.BinaryData[key])
	}
	if total > core.MaxSecretSize {
		// The whole object: upstream passes an empty path.
		errs = append(errs, field.TooLong(field.NewPath(""), "", core.MaxSecretSize))
	}
	return errs
}

// ValidateConfigMapUpdate checks a changed ConfigMap: an immutable one
// keeps data and binaryData and stays immutable.
//
// Mirrors ValidateConfigMapUpdate in pkg/apis/core/validation/validation.go.
func ValidateConfigMapUpdate(cfg, old *core.ConfigMap) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&cfg.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	if old.Immutable != nil && *old.Immutable {
		if cfg.Immutable == nil || !*cfg.Immutable {
			errs = append(errs, field.Forbidden(field.NewPath("immutable"), "field is immutable when `immutable` is set"))
		}
		if !reflect.DeepEqual(cfg.Data, old.Data) {
			errs = append(errs, field.Forbidden(field.NewPath("data"), "field is immutable when `immutable` is set"))
		}
		if !reflect.DeepEqual(cfg.BinaryData, old.BinaryData) {
			errs = append(errs, field.Forbidden(field.NewPath("binaryData"), "field is immutable when `immutable` is set"))
		}
	}
	return append(errs, ValidateConfigMap(cfg)...)
}

// sortedKeys returns m's keys in order, so that errors come out in a
// stable order (upstream's come in map order).
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
