package client_test

import (
	"errors"
	"testing"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/scheme"
)

func TestUnstructuredDecoder(t *testing.T) {
	t.Run("Object", func(t *testing.T) {
		obj, err := client.UnstructuredDecoder([]byte(`{"kind":"CronTab","metadata":{"name":"a"},"spec":{"replicas":2}}`))
		if err != nil {
			t.Fatal(err)
		}
		u := obj.(*unstructured.Unstructured)
		if n, _, _ := unstructured.NestedInt64(u.Object, "spec", "replicas"); u.GetName() != "a" || n != 2 {
			t.Fatalf("decoded %v", u.Object)
		}
	})
	t.Run("List", func(t *testing.T) {
		obj, err := client.UnstructuredDecoder([]byte(`{"kind":"CronTabList","metadata":{"continue":"x"},"items":[{"metadata":{"name":"a"}}]}`))
		if err != nil {
			t.Fatal(err)
		}
		l := obj.(*unstructured.UnstructuredList)
		if len(l.Items) != 1 || l.GetContinue() != "x" {
			t.Fatalf("decoded %+v", l)
		}
	})
	t.Run("ErrNotAnObject", func(t *testing.T) {
		if _, err := client.UnstructuredDecoder([]byte(`"str"`)); !errors.Is(err, unstructured.ErrNotAnObject) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestCodecDecoder(t *testing.T) {
	s := scheme.NewScheme()
	s.AddKnownTypes(stableV1, &metav1.PartialObjectMetadata{})
	dec := client.CodecDecoder(scheme.NewCodecFactory(s))
	t.Run("RegisteredKind", func(t *testing.T) {
		obj, err := dec([]byte(`{"apiVersion":"stable.example.com/v1","kind":"PartialObjectMetadata","metadata":{"name":"a"}}`))
		if err != nil {
			t.Fatal(err)
		}
		if p, ok := obj.(*metav1.PartialObjectMetadata); !ok || p.Name != "a" {
			t.Fatalf("decoded %#v", obj)
		}
	})
	t.Run("ErrUnknownKind", func(t *testing.T) {
		if _, err := dec([]byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab"}`)); err == nil {
			t.Fatal("no error for an unregistered kind")
		}
	})
}
