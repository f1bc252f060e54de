package scheme

// Object is what the scheme registers, converts and encodes: every API type,
// typed or unstructured, implements it.
//
// Mirrors k8s.io/apimachinery/pkg/runtime.Object.
type Object interface {
	// GetObjectKind gives access to the object's apiVersion and kind.
	GetObjectKind() ObjectKind
	// DeepCopyObject returns a copy sharing no memory with the receiver.
	DeepCopyObject() Object
}

// ObjectKind reads and writes the apiVersion/kind of an object (its TypeMeta).
//
// Mirrors k8s.io/apimachinery/pkg/runtime/schema.ObjectKind.
type ObjectKind interface {
	SetGroupVersionKind(gvk GroupVersionKind)
	GroupVersionKind() GroupVersionKind
}
