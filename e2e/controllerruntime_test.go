package e2e

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/go-logr/logr/funcr"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// CronTab is the Go type an operator author would write (or kubebuilder
// generate) for the CronTab CRD.
type CronTab struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CronTabSpec   `json:"spec,omitempty"`
	Status CronTabStatus `json:"status,omitempty"`
}

type CronTabSpec struct {
	CronSpec string `json:"cronSpec,omitempty"`
	Image    string `json:"image,omitempty"`
	Replicas *int64 `json:"replicas,omitempty"`
}

type CronTabStatus struct {
	Replicas      int64  `json:"replicas,omitempty"`
	LabelSelector string `json:"labelSelector,omitempty"`
}

// CronTabList is a list of CronTabs.
type CronTabList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CronTab `json:"items"`
}

// DeepCopyObject is what controller-gen would generate.
func (in *CronTab) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Spec.Replicas != nil {
		r := *in.Spec.Replicas
		out.Spec.Replicas = &r
	}
	return &out
}

func (in *CronTabList) DeepCopyObject() runtime.Object {
	out := *in
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Items = make([]CronTab, len(in.Items))
	for i := range in.Items {
		out.Items[i] = *in.Items[i].DeepCopyObject().(*CronTab)
	}
	return &out
}

// newOperatorScheme knows CronTab (stable.example.com/v1) and the
// apiextensions types, as an operator's scheme would.
func newOperatorScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	gv := schema.GroupVersion{Group: crdGroup, Version: "v1"}
	s.AddKnownTypes(gv, &CronTab{}, &CronTabList{})
	metav1.AddToGroupVersion(s, gv)
	if err := apiextensionsv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// replicaReconciler copies spec.replicas into status.replicas: the
// smallest operator that still reads, watches and writes a status.
type replicaReconciler struct {
	client.Client
	// gone gets the names of reconciled objects that no longer exist.
	gone chan string
}

func (r *replicaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ct CronTab
	if err := r.Get(ctx, req.NamespacedName, &ct); err != nil {
		if apierrors.IsNotFound(err) {
			r.gone <- req.Name
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, err
	}
	if ct.Spec.Replicas == nil || ct.Status.Replicas == *ct.Spec.Replicas {
		return ctrl.Result{}, nil
	}
	ct.Status.Replicas = *ct.Spec.Replicas
	ct.Status.LabelSelector = "crontab=" + ct.Name
	return ctrl.Result{}, r.Status().Update(ctx, &ct)
}

// TestControllerRuntime runs a controller-runtime manager with a tiny
// reconciler against crdlab: operators written for Kubernetes run
// unchanged.
func TestControllerRuntime(t *testing.T) {
	s := startServer(t)
	cfg := s.restConfig(t)
	ctx := t.Context()
	scheme := newOperatorScheme(t)
	setControllerRuntimeLogger(t)

	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}

	if !t.Run("Client", func(t *testing.T) {
		feature(t, "controller-runtime", "client with Go types: create a CRD and custom resources, read, list",
			"client.New: Create, Get, List")
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
			return fmt.Errorf("conditions %+v", crd.Status.Conditions)
		})
		// A client made before the CRD existed finds it: its RESTMapper
		// rediscovers on a miss.
		ct := &CronTab{ObjectMeta: metav1.ObjectMeta{Name: "first", Namespace: "default"},
			Spec: CronTabSpec{CronSpec: "* * * * */5", Image: "img:1"}}
		if err := c.Create(ctx, ct); err != nil {
			t.Fatalf("create CronTab: %v", err)
		}
		if ct.Spec.Replicas == nil || *ct.Spec.Replicas != 1 {
			t.Errorf("spec.replicas = %v, want the schema's default 1", ct.Spec.Replicas)
		}
		var list CronTabList
		if err := c.List(ctx, &list, client.InNamespace("default")); err != nil {
			t.Fatalf("list: %v", err)
		}
		if len(list.Items) != 1 || list.Items[0].Name != "first" {
			t.Errorf("list = %+v", list.Items)
		}
	}) {
		t.Fatal("the CRD is not established; the manager needs it")
	}

	t.Run("Manager", func(t *testing.T) {
		feature(t, "controller-runtime", "a manager runs a reconciler (spec.replicas → status.replicas)",
			"ctrl.NewManager, ctrl.NewControllerManagedBy(mgr).For(&CronTab{})")
		mgr, err := ctrl.NewManager(cfg, ctrl.Options{
			Scheme:                 scheme,
			Metrics:                metricsserver.Options{BindAddress: "0"},
			HealthProbeBindAddress: "0",
		})
		if err != nil {
			t.Fatal(err)
		}
		r := &replicaReconciler{Client: mgr.GetClient(), gone: make(chan string, 10)}
		if err := ctrl.NewControllerManagedBy(mgr).For(&CronTab{}).Complete(r); err != nil {
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

		statusReplicas := func(name string, want int64) {
			t.Helper()
			eventually(t, fmt.Sprintf("%s: status.replicas = %d", name, want), func() error {
				var ct CronTab
				if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: name}, &ct); err != nil {
					return err
				}
				if ct.Status.Replicas != want {
					return fmt.Errorf("status.replicas = %d", ct.Status.Replicas)
				}
				return nil
			})
		}
		// An object made before the manager started …
		statusReplicas("first", 1)
		// … one made while it runs …
		three := int64(3)
		ct := &CronTab{ObjectMeta: metav1.ObjectMeta{Name: "second", Namespace: "default"},
			Spec: CronTabSpec{CronSpec: "* * * * */5", Image: "img:1", Replicas: &three}}
		if err := c.Create(ctx, ct); err != nil {
			t.Fatal(err)
		}
		statusReplicas("second", 3)
		// … a change of spec …
		if err := c.Patch(ctx, ct, client.RawPatch("application/merge-patch+json", []byte(`{"spec":{"replicas":5}}`))); err != nil {
			t.Fatal(err)
		}
		statusReplicas("second", 5)
		// … and a deletion all reach the reconciler.
		if err := c.Delete(ctx, ct); err != nil {
			t.Fatal(err)
		}
		eventually(t, "reconcile of the deleted object", func() error {
			select {
			case name := <-r.gone:
				if name == "second" {
					return nil
				}
				return fmt.Errorf("reconciled gone %q", name)
			default:
				return errors.New("not yet")
			}
		})
	})
}

// TestControllerRuntimeCoreAPIs checks what operators use besides their
// own CRDs: Leases for leader election and Events for their recorders,
// served by crdlab's kube-apiserver link. controller-runtime's client
// sends built-in kinds as protobuf.
func TestControllerRuntimeCoreAPIs(t *testing.T) {
	s := startServer(t)
	setControllerRuntimeLogger(t)
	ctx := t.Context()
	scheme := runtime.NewScheme()
	if err := coordinationv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := corev1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	c, err := client.New(s.restConfig(t), client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("Leases", func(t *testing.T) {
		feature(t, "controller-runtime", "Leases: create, then update with the resourceVersion read (the calls of client-go's LeaseLock)",
			"client.Create / client.Update of a coordination.k8s.io/v1 Lease (protobuf bodies)")
		lease := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "operator", Namespace: "default"},
			Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To("manager-1"), LeaseDurationSeconds: ptr.To[int32](15)}}
		if err := c.Create(ctx, lease); err != nil {
			t.Fatalf("create Lease: %v", err)
		}
		stale := lease.DeepCopy()
		lease.Spec.HolderIdentity = ptr.To("manager-2")
		if err := c.Update(ctx, lease); err != nil {
			t.Fatalf("update Lease: %v", err)
		}
		stale.Spec.HolderIdentity = ptr.To("manager-3")
		if err := c.Update(ctx, stale); !apierrors.IsConflict(err) {
			t.Fatalf("update from a stale read: %v, want a Conflict (only one candidate may win)", err)
		}
		var got coordinationv1.Lease
		if err := c.Get(ctx, client.ObjectKeyFromObject(lease), &got); err != nil || *got.Spec.HolderIdentity != "manager-2" {
			t.Fatalf("get Lease: %v %v", got.Spec.HolderIdentity, err)
		}
	})

	t.Run("Events", func(t *testing.T) {
		feature(t, "controller-runtime", "core/v1 Events: create and list (what an event recorder writes)",
			"client.Create / client.List of core/v1 Events (protobuf bodies)")
		ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{GenerateName: "operator-", Namespace: "default"},
			InvolvedObject: corev1.ObjectReference{Kind: "CronTab", Name: "first", Namespace: "default"},
			Reason:         "Reconciled", Message: "all good", Type: corev1.EventTypeNormal, Source: corev1.EventSource{Component: "operator"}}
		if err := c.Create(ctx, ev); err != nil {
			t.Fatalf("create Event: %v", err)
		}
		var list corev1.EventList
		if err := c.List(ctx, &list, client.InNamespace("default"), client.MatchingFields{"involvedObject.name": "first"}); err != nil {
			t.Fatalf("list Events: %v", err)
		}
		if len(list.Items) != 1 || list.Items[0].Message != "all good" {
			t.Errorf("events = %+v", list.Items)
		}
	})
}

// setControllerRuntimeLogger sends controller-runtime's logs to t's log
// while t runs (controller-runtime warns if no logger is ever set).
func setControllerRuntimeLogger(t *testing.T) {
	var mu sync.Mutex // guards done, so that no line is logged after t ends
	done := false
	t.Cleanup(func() {
		mu.Lock()
		done = true
		mu.Unlock()
	})
	ctrllog.SetLogger(funcr.New(func(prefix, args string) {
		mu.Lock()
		defer mu.Unlock()
		if !done {
			t.Logf("controller-runtime: %s %s", prefix, args)
		}
	}, funcr.Options{}))
}
