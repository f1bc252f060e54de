package v1

import "strings"

// SetDefaults_CustomResourceDefinition applies the v1 defaults to a
// CRD, as the decoder does for every v1 CRD it reads.
//
// Mirrors SetDefaults_CustomResourceDefinition, SetDefaults_CustomResourceDefinitionSpec
// and SetDefaults_ServiceReference in pkg/apis/apiextensions/v1/defaults.go:
//   - names.singular = lower-cased kind, names.listKind = kind + "List";
//   - conversion = {strategy: None} when absent;
//   - a webhook service's port = 443;
//   - status.storedVersions = [the storage version] when empty.
//
// Unlike v1beta1, scope has no default in v1 (it is required), and
// preserveUnknownFields stays false.
func SetDefaults_CustomResourceDefinition(obj *CustomResourceDefinition) {
	spec := &obj.Spec
	if len(spec.Names.Singular) == 0 {
		spec.Names.Singular = strings.ToLower(spec.Names.Kind)
	}
	if len(spec.Names.ListKind) == 0 && len(spec.Names.Kind) > 0 {
		spec.Names.ListKind = spec.Names.Kind + "List"
	}
	if spec.Conversion == nil {
		spec.Conversion = &CustomResourceConversion{Strategy: NoneConverter}
	}
	if spec.Conversion.Webhook != nil && spec.Conversion.Webhook.ClientConfig != nil {
		if svc := spec.Conversion.Webhook.ClientConfig.Service; svc != nil && svc.Port == nil {
			port := int32(443)
			svc.Port = &port
		}
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
