package v1

// SetDefaults_Secret gives a Secret without a type the Opaque type.
//
// Mirrors SetDefaults_Secret in pkg/apis/core/v1/defaults.go.
func SetDefaults_Secret(obj *Secret) {
	if obj.Type == "" {
		obj.Type = SecretTypeOpaque
	}
}

// SetDefaults_ConfigMap makes a nil data an empty map (which JSON omits
// all the same).
//
// Mirrors SetDefaults_ConfigMap in pkg/apis/core/v1/defaults.go.
func SetDefaults_ConfigMap(obj *ConfigMap) {
	if obj.Data == nil {
		obj.Data = map[string]string{}
	}
}

// SetDefaults_Namespace labels a named Namespace with its own name
// (kubernetes.io/metadata.name), so that label selectors can pick
// namespaces by name. A namespace with only generateName gets it from the
// strategy's Canonicalize once its name is known.
//
// Mirrors SetDefaults_Namespace in pkg/apis/core/v1/defaults.go.
func SetDefaults_Namespace(obj *Namespace) {
	if len(obj.Name) > 0 {
		if obj.Labels == nil {
			obj.Labels = map[string]string{}
		}
		obj.Labels[LabelMetadataName] = obj.Name
	}
}

// SetDefaults_NamespaceStatus makes an unset phase Active.
//
// Mirrors SetDefaults_NamespaceStatus in pkg/apis/core/v1/defaults.go.
func SetDefaults_NamespaceStatus(obj *NamespaceStatus) {
	if obj.Phase == "" {
		obj.Phase = NamespaceActive
	}
}

// SetObjectDefaults_Namespace applies every Namespace default, as the
// generated defaulter does.
func SetObjectDefaults_Namespace(in *Namespace) {
	SetDefaults_Namespace(in)
	SetDefaults_NamespaceStatus(&in.Status)
}
