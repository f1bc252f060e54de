package openapi

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/controller/internal/controllertest"
	"github.com/crdlab/crdlab/scheme"
)

// fakeService records what it was handed.
type fakeService struct {
	mu   sync.Mutex // guards docs
	docs map[scheme.GroupVersion][]string
}

func (f *fakeService) UpdateGroupVersion(gv scheme.GroupVersion, crds []*apiextensionsv1.CustomResourceDefinition) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(crds) == 0 {
		delete(f.docs, gv)
		return
	}
	var names []string
	for _, crd := range crds {
		names = append(names, crd.Name)
	}
	f.docs[gv] = names
}

func (f *fakeService) get(gv scheme.GroupVersion) ([]string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, ok := f.docs[gv]
	return n, ok
}

func crd(name, group string, established bool, versions ...string) *apiextensionsv1.CustomResourceDefinition {
	c := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       apiextensionsv1.CustomResourceDefinitionSpec{Group: group},
	}
	for _, v := range versions {
		c.Spec.Versions = append(c.Spec.Versions, apiextensionsv1.CustomResourceDefinitionVersion{Name: v, Served: true})
	}
	if established {
		c.Status.Conditions = []apiextensionsv1.CustomResourceDefinitionCondition{{Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue}}
	}
	return c
}

var gv = scheme.GroupVersion{Group: "stable.example.com", Version: "v1"}

func TestController_sync(t *testing.T) {
	ctx := context.Background()
	inf := controllertest.NewInformer(
		crd("widgets.stable.example.com", "stable.example.com", true, "v1"),
		crd("crontabs.stable.example.com", "stable.example.com", true, "v1", "v2"),
		crd("pending.stable.example.com", "stable.example.com", false, "v1"),
		crd("crontabs.other.example.com", "other.example.com", true, "v1"),
	)
	svc := &fakeService{docs: map[scheme.GroupVersion][]string{}}
	c, err := NewController(inf, svc, controller.Options{})
	require.NoError(t, err)
	defer c.queue.ShutDown()

	require.NoError(t, c.sync(ctx, gv))
	got, _ := svc.get(gv)
	assert.Equal(t, []string{"crontabs.stable.example.com", "widgets.stable.example.com"}, got,
		"Established CRDs of the group serving the version, by name")

	inf.Delete(crd("widgets.stable.example.com", "stable.example.com", true, "v1"))
	inf.Delete(crd("crontabs.stable.example.com", "stable.example.com", true, "v1", "v2"))
	require.NoError(t, c.sync(ctx, gv))
	_, ok := svc.get(gv)
	assert.False(t, ok, "no CRD left: document removed")
}

func TestController_Run(t *testing.T) {
	inf := controllertest.NewInformer()
	svc := &fakeService{docs: map[scheme.GroupVersion][]string{}}
	c, err := NewController(inf, svc, controller.Options{})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx, 1); close(done) }()

	inf.Add(crd("crontabs.stable.example.com", "stable.example.com", true, "v1"))
	require.Eventually(t, func() bool { _, ok := svc.get(gv); return ok }, 5*time.Second, time.Millisecond)
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after ctx ended")
	}
}
