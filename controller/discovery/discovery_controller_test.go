package discovery

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/controller/internal/controllertest"
	"github.com/crdlab/crdlab/handler/discovery"
	"github.com/crdlab/crdlab/machinery/apiresource"
	"github.com/crdlab/crdlab/scheme"
)

func cond(t apiextensionsv1.CustomResourceDefinitionConditionType) apiextensionsv1.CustomResourceDefinitionCondition {
	return apiextensionsv1.CustomResourceDefinitionCondition{Type: t, Status: apiextensionsv1.ConditionTrue}
}

// crontabs is an Established CRD serving v1 (storage, with status and
// scale) and v1beta1.
func crontabs() *apiextensionsv1.CustomResourceDefinition {
	names := apiextensionsv1.CustomResourceDefinitionNames{
		Plural: "crontabs", Singular: "crontab", Kind: "CronTab", ListKind: "CronTabList",
		ShortNames: []string{"ct"}, Categories: []string{"all"},
	}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "crontabs.stable.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "stable.example.com", Names: names, Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
				{Name: "v1", Served: true, Storage: true, Subresources: &apiextensionsv1.CustomResourceSubresources{
					Status: &apiextensionsv1.CustomResourceSubresourceStatus{},
					Scale:  &apiextensionsv1.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas"},
				}},
				{Name: "v1beta1", Served: true},
				{Name: "v1alpha1", Served: false},
			},
		},
		Status: apiextensionsv1.CustomResourceDefinitionStatus{
			AcceptedNames: names,
			Conditions:    []apiextensionsv1.CustomResourceDefinitionCondition{cond(apiextensionsv1.NamesAccepted), cond(apiextensionsv1.Established)},
		},
	}
}

var (
	v1      = scheme.GroupVersion{Group: "stable.example.com", Version: "v1"}
	v1beta1 = scheme.GroupVersion{Group: "stable.example.com", Version: "v1beta1"}
)

// newController returns a controller writing the server's real discovery
// Manager (only this test imports the handler; the controller knows its
// own ResourceManager interface), so the tests read the documents clients
// get.
func newController(t *testing.T, crds ...*apiextensionsv1.CustomResourceDefinition) (*DiscoveryController, *controllertest.Informer, *discovery.Manager) {
	t.Helper()
	inf := controllertest.NewInformer(crds...)
	m := discovery.NewManager()
	c, err := NewDiscoveryController(inf, m, controller.Options{})
	require.NoError(t, err)
	t.Cleanup(c.queue.ShutDown)
	return c, inf, m
}

func TestDiscoveryController_sync(t *testing.T) {
	ctx := context.Background()

	t.Run("Established", func(t *testing.T) {
		c, _, m := newController(t, crontabs())
		require.NoError(t, c.sync(ctx, v1))
		require.NoError(t, c.sync(ctx, v1beta1))

		group, ok := m.APIGroup("stable.example.com")
		require.True(t, ok)
		assert.Equal(t, "stable.example.com/v1", group.PreferredVersion.GroupVersion)
		assert.Len(t, group.Versions, 2)

		list, ok := m.APIResourceList(v1)
		require.True(t, ok)
		var got []string
		for _, r := range list.APIResources {
			got = append(got, r.Name)
		}
		assert.Equal(t, []string{"crontabs", "crontabs/status", "crontabs/scale"}, got)
		crontab := list.APIResources[0]
		assert.Equal(t, "CronTab", crontab.Kind)
		assert.True(t, crontab.Namespaced)
		assert.Equal(t, []string{"ct"}, crontab.ShortNames)
		assert.Equal(t, []string{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"}, crontab.Verbs)
		assert.Equal(t, apiresource.StorageVersionHash("stable.example.com", "v1", "CronTab"), crontab.StorageVersionHash)
		assert.Equal(t, "autoscaling", list.APIResources[2].Group)

		beta, ok := m.APIResourceList(v1beta1)
		require.True(t, ok)
		assert.Len(t, beta.APIResources, 1, "v1beta1 has no subresources")
	})

	t.Run("NotEstablished", func(t *testing.T) {
		crd := crontabs()
		crd.Status.Conditions = []apiextensionsv1.CustomResourceDefinitionCondition{cond(apiextensionsv1.NamesAccepted)}
		c, _, m := newController(t, crd)
		require.NoError(t, c.sync(ctx, v1))
		_, ok := m.APIGroup("stable.example.com")
		assert.False(t, ok, "a group appears only with an Established CRD")
	})

	t.Run("Terminating", func(t *testing.T) {
		crd := crontabs()
		crd.Status.Conditions = append(crd.Status.Conditions, cond(apiextensionsv1.Terminating))
		c, _, m := newController(t, crd)
		require.NoError(t, c.sync(ctx, v1))
		list, _ := m.APIResourceList(v1)
		assert.Equal(t, []string{"delete", "deletecollection", "get", "list", "watch"}, list.APIResources[0].Verbs)
	})

	t.Run("UnservedStorageVersionHasNoHash", func(t *testing.T) {
		crd := crontabs()
		crd.Spec.Versions[0].Served = false // v1, the storage version
		c, _, m := newController(t, crd)
		require.NoError(t, c.sync(ctx, v1beta1))
		list, ok := m.APIResourceList(v1beta1)
		require.True(t, ok)
		assert.Empty(t, list.APIResources[0].StorageVersionHash, "as upstream: the hash comes from a served storage version only")
	})

	t.Run("UnservedVersion", func(t *testing.T) {
		c, _, m := newController(t, crontabs())
		require.NoError(t, c.sync(ctx, scheme.GroupVersion{Group: "stable.example.com", Version: "v1alpha1"}))
		assert.Empty(t, m.GroupVersions())
	})

	t.Run("GroupVanishesWithLastCRD", func(t *testing.T) {
		c, inf, m := newController(t, crontabs())
		require.NoError(t, c.sync(ctx, v1))
		require.NoError(t, c.sync(ctx, v1beta1))
		require.Len(t, m.GroupVersions(), 2)

		inf.Delete(crontabs())
		require.NoError(t, c.sync(ctx, v1))
		require.NoError(t, c.sync(ctx, v1beta1))
		assert.Empty(t, m.GroupVersions())
		_, ok := m.APIGroup("stable.example.com")
		assert.False(t, ok)
	})

	t.Run("BuiltInGroupUntouched", func(t *testing.T) {
		m := discovery.NewManager()
		builtIn := scheme.GroupVersion{Group: apiextensionsv1.GroupName, Version: "v1"}
		m.SetGroupVersion(builtIn, []apiresource.Resource{{Name: "customresourcedefinitions"}})
		c, err := NewDiscoveryController(controllertest.NewInformer(), m, controller.Options{})
		require.NoError(t, err)
		defer c.queue.ShutDown()
		require.NoError(t, c.sync(ctx, builtIn))
		_, ok := m.Resources(builtIn)
		assert.True(t, ok)
	})
}

func TestDiscoveryController_enqueue(t *testing.T) {
	c, inf, _ := newController(t)
	crd := crontabs()
	inf.Add(crd)
	assert.Equal(t, 3, c.queue.Len(), "every listed version, served or not")

	// A version dropped by an update is queued too (from the old object).
	for c.queue.Len() > 0 {
		gv, _ := c.queue.Get()
		c.queue.Done(gv)
	}
	next := crontabs()
	next.Spec.Versions = next.Spec.Versions[:1]
	inf.Update(next)
	assert.Equal(t, 3, c.queue.Len())
}

func TestDiscoveryController_Run(t *testing.T) {
	c, inf, m := newController(t, crontabs())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx, 1); close(done) }()

	// The initial sync advertises what exists before HasSynced.
	require.Eventually(t, c.HasSynced, 5*time.Second, time.Millisecond)
	_, ok := m.APIResourceList(v1)
	assert.True(t, ok)

	inf.Delete(crontabs())
	require.Eventually(t, func() bool { return len(m.GroupVersions()) == 0 }, 5*time.Second, time.Millisecond)

	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after ctx ended")
	}
}
