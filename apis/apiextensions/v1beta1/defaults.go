package v1beta1

import "strings"

// SetDefaults_CustomResourceDefinition applies the v1beta1 defaults.
//
// Mirrors SetDefaults_CustomResourceDefinition and
// SetDefaults_CustomResourceDefinitionSpec in pkg/apis/apiextensions/v1beta1/defaults.go:
//   - scope = Namespaced;
//   - names.singular = lower-cased kind, names.listKind = kind + "List";
//   - no versions but a version: versions = [{name: version, served, storage}];
//     no version but versions: version = versions[0].name;
//   - conversion = {strategy: None}; a Webhook strategy without review
//     versions gets ["v1beta1"]; a webhook service's port = 443;
//   - preserveUnknownFields = true (v1 has no such default: this is why a
//     v1beta1 CRD converted to v1 carries preserveUnknownFields: true);
//   - status.storedVersions = [the storage version] when empty.
func SetDefaults_CustomResourceDefinition(obj *CustomResourceDefinition) {
	spec := &obj.Spec
	if len(spec.Scope) == 0 {
		spec.Scope = NamespaceScoped
	}
	if len(spec.Names.Singular) == 0 {
		spec.Names.Singular = strings.ToLower(spec.Names.Kind)
	}
	if len(spec.Names.ListKind) == 0 && len(spec.Names.Kind) > 0 {
		spec.Names.ListKind = spec.Names.Kind + "List"
	}
	if len(spec.Versions) == 0 && len(spec.Version) != 0 {
		spec.Versions = []CustomResourceDefinitionVersion{{Name: spec.Version, Storage: true, Served: true}}
	}
	if len(spec.Version) == 0 && len(spec.Versions) != 0 {
		spec.Version = spec.Versions[0].Name
	}
	if spec.Conversion == nil {
		spec.Conversion = &CustomResourceConversion{Strategy: NoneConverter}
	}
	if spec.Conversion.Strategy == WebhookConverter && len(spec.Conversion.ConversionReviewVersions) == 0 {
		spec.Conversion.ConversionReviewVersions = []string{SchemeGroupVersion.Version}
	}
	if cc := spec.Conversion.WebhookClientConfig; cc != nil && cc.Service != nil && cc.Service.Port == nil {
		port := int32(443)
		cc.Service.Port = &port
	}
	if spec.PreserveUnknownFields == nil {
		t := true
		spec.PreserveUnknownFields = &t
	}
	if len(obj.Status.StoredVersions) == 0 {
		for _, v := range spec.Versions {
			if v.Storage {
				obj.Status.StoredVersions = append(obj.Status.StoredVersions, v.Name)
				break
			}
		}
	}
}
