package secret_test

import (
	"context"
	"testing"

	"github.com/crdlab/crdlab/apis/core"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/core/secret"
	"github.com/crdlab/crdlab/registry/internal/registrytest"
	"github.com/crdlab/crdlab/scheme"
)

func TestREST(t *testing.T) {
	s, opts := registrytest.Options(t, scheme.GroupVersion{Version: "v1"})
	rest, err := secret.NewREST(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := registry.WithNamespace(context.Background(), "default")
	yes := true
	if _, err := rest.Create(ctx, &core.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", Labels: map[string]string{"owner": "helm"}},
		Type: core.SecretTypeOpaque, Data: map[string][]byte{"a": []byte("1")}, Immutable: &yes}, nil, nil); err != nil {
		t.Fatal(err)
	}
	t.Run("EmptyTypeKeepsStoredType", func(t *testing.T) {
		out, _, err := rest.Update(ctx, "s", registrytest.Update(func(s *core.Secret) {
			s.Type = ""
			s.Labels["x"] = "y"
		}), nil, nil, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := out.(*core.Secret).Type; got != core.SecretTypeOpaque {
			t.Errorf("type = %q", got)
		}
	})
	t.Run("ErrTypeImmutable", func(t *testing.T) {
		_, _, err := rest.Update(ctx, "s", registrytest.Update(func(s *core.Secret) { s.Type = "example.com/other" }), nil, nil, false, nil)
		if !apierrors.IsInvalid(err) {
			t.Errorf("err = %v, want Invalid", err)
		}
	})
	t.Run("ErrImmutableData", func(t *testing.T) {
		_, _, err := rest.Update(ctx, "s", registrytest.Update(func(s *core.Secret) { s.Data["a"] = []byte("2") }), nil, nil, false, nil)
		if !apierrors.IsInvalid(err) {
			t.Errorf("err = %v, want Invalid", err)
		}
	})
	t.Run("LabelSelectorList", func(t *testing.T) {
		// Helm's Secret driver lists releases by label.
		if _, err := rest.Create(ctx, &core.Secret{ObjectMeta: metav1.ObjectMeta{Name: "other"}, Type: "example.com/custom"}, nil, nil); err != nil {
			t.Fatal(err)
		}
		list, err := rest.List(ctx, &metav1.ListOptions{LabelSelector: "owner=helm"})
		if err != nil {
			t.Fatal(err)
		}
		if items := list.(*core.SecretList).Items; len(items) != 1 || items[0].Name != "s" {
			t.Errorf("items = %v", items)
		}
		list, err = rest.List(ctx, &metav1.ListOptions{FieldSelector: "type=Opaque"})
		if err != nil || len(list.(*core.SecretList).Items) != 1 {
			t.Errorf("by type: %v, %v", list, err)
		}
	})
}
