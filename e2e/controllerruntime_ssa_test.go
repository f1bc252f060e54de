package e2e

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// applyConfig is the apply configuration of one CronTab: apiVersion, kind,
// name and namespace, and the fields set sets (a path, then a value).
func applyConfig(namespace, name string, set ...any) runtime.ApplyConfiguration {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetAPIVersion(crdGroup + "/v1")
	u.SetKind("CronTab")
	u.SetNamespace(namespace)
	u.SetName(name)
	for i := 0; i+1 < len(set); i += 2 {
		if err := unstructured.SetNestedField(u.Object, set[i+1], strings.Split(set[i].(string), ".")...); err != nil {
			panic(err)
		}
	}
	return client.ApplyConfigurationFromUnstructured(u)
}

// imageReconciler owns spec.image: it applies the image it wants, taking
// the field from whoever set it before (ForceOwnership), as a controller
// that owns a field should.
type imageReconciler struct {
	client.Client
	// done is the resourceVersion of the object the last finished
	// reconcile read.
	done atomic.Value
}

func (r *imageReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ct CronTab
	if err := r.Get(ctx, req.NamespacedName, &ct); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := r.Apply(ctx, applyConfig(req.Namespace, req.Name, "spec.image", "img:managed"),
		client.FieldOwner("image-controller"), client.ForceOwnership)
	r.done.Store(ct.ResourceVersion)
	return ctrl.Result{}, err
}

// statusReconciler owns status.replicas, through /status.
type statusReconciler struct {
	client.Client
	done atomic.Value // as imageReconciler's
}

func (r *statusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ct CronTab
	if err := r.Get(ctx, req.NamespacedName, &ct); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if ct.Spec.Replicas == nil {
		return ctrl.Result{}, nil
	}
	err := r.Status().Apply(ctx, applyConfig(req.Namespace, req.Name,
		"status.replicas", *ct.Spec.Replicas, "status.labelSelector", "crontab="+req.Name),
		client.FieldOwner("status-controller"))
	r.done.Store(ct.ResourceVersion)
	return ctrl.Result{}, err
}

// TestControllerRuntimeServerSideApply runs two controllers that own
// different fields of the same CronTabs with server-side apply (client.Apply
// and Status().Apply): each writes only its own fields, so neither undoes
// the other, and once both are content their applies change nothing.
func TestControllerRuntimeServerSideApply(t *testing.T) {
	s := startServer(t)
	cfg := s.restConfig(t)
	ctx := t.Context()
	scheme := newOperatorScheme(t)
	setControllerRuntimeLogger(t)
	feature(t, "controller-runtime", "server-side apply: two controllers own different fields of one object, no fight",
		"client.Apply (ForceOwnership), Status().Apply, client.FieldOwner")

	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Create(ctx, loadCRD(t)); err != nil {
		t.Fatalf("create CRD: %v", err)
	}
	eventually(t, "CRD Established", func() error {
		var crd apiextensionsv1.CustomResourceDefinition
		if err := c.Get(ctx, client.ObjectKey{Name: crdName}, &crd); err != nil {
			return err
		}
		for _, cond := range crd.Status.Conditions {
			if cond.Type == apiextensionsv1.Established && cond.Status == apiextensionsv1.ConditionTrue {
				return nil
			}
		}
		return errors.New("not established")
	})
	// Established and discovery are written by two controllers, as
	// upstream's; the manager's RESTMapper reads discovery.
	waitDiscovered(t, cfg, crdGroup+"/v1", "crontabs")

	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0"})
	if err != nil {
		t.Fatal(err)
	}
	images := &imageReconciler{Client: mgr.GetClient()}
	statuses := &statusReconciler{Client: mgr.GetClient()}
	if err := ctrl.NewControllerManagedBy(mgr).Named("image").For(&CronTab{}).Complete(images); err != nil {
		t.Fatal(err)
	}
	if err := ctrl.NewControllerManagedBy(mgr).Named("status").For(&CronTab{}).Complete(statuses); err != nil {
		t.Fatal(err)
	}
	mgrCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mgrCtx) }()
	defer func() {
		stop()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("manager: %v", err)
		}
	}()

	// A user creates a CronTab with an image of their own.
	two := int64(2)
	ct := &CronTab{ObjectMeta: metav1.ObjectMeta{Name: "shared", Namespace: "default"},
		Spec: CronTabSpec{CronSpec: "* * * * */5", Image: "img:user", Replicas: &two}}
	if err := c.Create(ctx, ct, client.FieldOwner("user")); err != nil {
		t.Fatal(err)
	}
	settled := func(replicas int64) *CronTab {
		t.Helper()
		var got CronTab
		eventually(t, fmt.Sprintf("image managed and status.replicas %d", replicas), func() error {
			if err := c.Get(ctx, client.ObjectKeyFromObject(ct), &got); err != nil {
				return err
			}
			if got.Spec.Image != "img:managed" || got.Status.Replicas != replicas {
				return fmt.Errorf("spec.image %q, status.replicas %d", got.Spec.Image, got.Status.Replicas)
			}
			return nil
		})
		return &got
	}
	got := settled(2)
	// The user changes replicas: the status controller follows, the image
	// controller has nothing to do, and the user's change stays.
	if err := c.Patch(ctx, ct, client.RawPatch("application/merge-patch+json", []byte(`{"spec":{"replicas":4}}`)), client.FieldOwner("user")); err != nil {
		t.Fatal(err)
	}
	got = settled(4)
	if *got.Spec.Replicas != 4 || got.Spec.CronSpec != "* * * * */5" {
		t.Fatalf("spec %+v: the controllers' applies undid the user's fields", got.Spec)
	}

	// Who owns what: the user keeps what the controllers do not apply.
	owners := map[string]string{}
	for _, e := range got.ManagedFields {
		key := e.Manager + "/" + string(e.Operation)
		if e.Subresource != "" {
			key += "/" + e.Subresource
		}
		owners[key] = string(e.FieldsV1.Raw)
	}
	var keys []string
	for k := range owners {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if strings.Join(keys, " ") != "image-controller/Apply status-controller/Apply/status user/Update" {
		t.Fatalf("managedFields %v", owners)
	}
	if owners["image-controller/Apply"] != `{"f:spec":{"f:image":{}}}` ||
		!strings.Contains(owners["status-controller/Apply/status"], `"f:replicas":{}`) ||
		strings.Contains(owners["user/Update"], "f:image") || !strings.Contains(owners["user/Update"], "f:replicas") {
		t.Fatalf("managedFields %v", owners)
	}

	// No fight: a change that wakes both controllers (an annotation) is
	// the only write; their applies, once they have run, change nothing.
	if err := c.Patch(ctx, ct, client.RawPatch("application/merge-patch+json", []byte(`{"metadata":{"annotations":{"poke":"1"}}}`)), client.FieldOwner("user")); err != nil {
		t.Fatal(err)
	}
	var poked CronTab
	if err := c.Get(ctx, client.ObjectKeyFromObject(ct), &poked); err != nil {
		t.Fatal(err)
	}
	eventually(t, "both controllers reconciled the annotated object", func() error {
		i, _ := images.done.Load().(string)
		st, _ := statuses.done.Load().(string)
		if i != poked.ResourceVersion || st != poked.ResourceVersion {
			return fmt.Errorf("last reconciled resourceVersions %s and %s, want %s", i, st, poked.ResourceVersion)
		}
		return nil
	})
	var after CronTab
	if err := c.Get(ctx, client.ObjectKeyFromObject(ct), &after); err != nil {
		t.Fatal(err)
	}
	if after.ResourceVersion != poked.ResourceVersion {
		t.Fatalf("resourceVersion %s after the controllers' no-op applies, want %s: they wrote", after.ResourceVersion, poked.ResourceVersion)
	}
	if err := c.Delete(ctx, ct); err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
}

// waitDiscovered waits until discovery lists resource in groupVersion. The
// EstablishingController and the DiscoveryController are two controllers,
// upstream as here, so a CRD can be Established a moment before a client's
// RESTMapper finds its kind.
func waitDiscovered(t *testing.T, cfg *rest.Config, groupVersion, resource string) {
	t.Helper()
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, resource+" in discovery of "+groupVersion, func() error {
		list, err := dc.ServerResourcesForGroupVersion(groupVersion)
		if err != nil {
			return err
		}
		for _, r := range list.APIResources {
			if r.Name == resource {
				return nil
			}
		}
		return fmt.Errorf("%s not in %s", resource, groupVersion)
	})
}
