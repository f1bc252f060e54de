// Package validation checks CustomResourceDefinitions (internal types) and
// returns every problem as a field.Error tied to its path, which the server
// answers with a 422 Invalid Status.
//
// Vocabulary: a CRD is valid when its name is <plural>.<group>; its names
// are DNS-1035 labels (kind and listKind once lower-cased); its group is a
// DNS subdomain with a dot; exactly one version is the storage version and
// version names are unique; every stored version is still listed; a
// setting lives at the top level or per version, never both; and each
// schema uses only the OpenAPI subset a CRD may use and is structural
// (package structural decides that, and checks the defaults). On update,
// validationOptions turn off the rules the stored CRD already broke
// (ratcheting), so old data never becomes unchangeable.
//
// Layout:
//
//	validation.go  the CRD, its spec, versions, names, columns, conversion
//	schema.go      one schema: root rules, structural, defaults, OpenAPI subset
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go
//
// x-kubernetes-validations are checked by package cel
// (cel.ValidateSchemaRules): compiled, typed and cost-checked when the
// schema is otherwise valid, with the stored CRD's expressions and
// unchanged versions taken into account on update.
//
// Differences from upstream:
//   - webhook URL, service and caBundle details are not checked; a Webhook
//     strategy only needs a client config.
//   - selectable field paths are simple dotted paths through properties.
//   - error paths follow the hub: a schema shared by every version is
//     reported under spec.validation, as upstream does.
package validation
