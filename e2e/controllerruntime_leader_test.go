package e2e

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/recorder"
)

// The leader election of the managers below: short, so that a takeover
// happens within a test, in about the proportions of controller-runtime's
// defaults (15 s, 10 s, 2 s).
const (
	leaseDuration = 4 * time.Second
	renewDeadline = 3 * time.Second
	retryPeriod   = 500 * time.Millisecond
	// leaderElectionID names the Lease, in namespace default.
	leaderElectionID = "crontab-operator.stable.example.com"
)

// reconciled says that a manager reconciled a CronTab.
type reconciled struct{ manager, name string }

// recordingReconciler copies spec.replicas into status.replicas, and says
// so with both of controller-runtime's event recorders: the core/v1 one
// most operators use (GetEventRecorderFor) and the events.k8s.io/v1 one
// (GetEventRecorder).
type recordingReconciler struct {
	client.Client
	manager    string
	reconciled chan<- reconciled
	legacy     record.EventRecorder
	events     recorder.EventRecorder
}

func (r *recordingReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ct CronTab
	if err := r.Get(ctx, req.NamespacedName, &ct); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if ct.Spec.Replicas == nil || ct.Status.Replicas == *ct.Spec.Replicas {
		return ctrl.Result{}, nil
	}
	ct.Status.Replicas = *ct.Spec.Replicas
	if err := r.Status().Update(ctx, &ct); err != nil {
		return ctrl.Result{}, err
	}
	r.legacy.Eventf(&ct, corev1.EventTypeNormal, "Scaled", "%s set status.replicas to %d", r.manager, ct.Status.Replicas)
	r.events.Eventf(&ct, nil, corev1.EventTypeNormal, "Reconciled", "Reconcile", "reconciled by %s", r.manager)
	select {
	case r.reconciled <- reconciled{r.manager, req.Name}:
	case <-ctx.Done(): // the manager stops
	}
	return ctrl.Result{}, nil
}

// electingManager is one replica of the operator: a manager with leader
// election on, running until stop.
type electingManager struct {
	name string
	mgr  manager.Manager
	stop context.CancelFunc
	done chan error // Start's result
}

// startElectingManager starts one replica of the operator against cfg.
func startElectingManager(t *testing.T, cfg *rest.Config, name string, reconciled chan<- reconciled) *electingManager {
	t.Helper()
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                  newOperatorScheme(t),
		Metrics:                 metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress:  "0",
		LeaderElection:          true,
		LeaderElectionID:        leaderElectionID,
		LeaderElectionNamespace: "default",
		// A killed process does not release its Lease: neither does this one.
		LeaderElectionReleaseOnCancel: false,
		LeaseDuration:                 ptr.To(leaseDuration),
		RenewDeadline:                 ptr.To(renewDeadline),
		RetryPeriod:                   ptr.To(retryPeriod),
	})
	if err != nil {
		t.Fatal(err)
	}
	r := &recordingReconciler{Client: mgr.GetClient(), manager: name, reconciled: reconciled,
		legacy: mgr.GetEventRecorderFor("crontab-operator"), //nolint:staticcheck // the recorder most operators use today
		events: mgr.GetEventRecorder("crontab-operator")}
	// Controller names are unique in a process; two replicas share one here.
	if err := ctrl.NewControllerManagedBy(mgr).Named("crontab-" + name).For(&CronTab{}).Complete(r); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	m := &electingManager{name: name, mgr: mgr, stop: stop, done: make(chan error, 1)}
	go func() { m.done <- mgr.Start(ctx) }()
	t.Cleanup(func() { m.kill(t) })
	return m
}

// kill stops the manager as a killed process stops: it no longer renews
// its Lease, and does not release it. It waits for Start to return.
func (m *electingManager) kill(t *testing.T) {
	t.Helper()
	m.stop()
	select {
	case err, ok := <-m.done:
		// A leader that stops reports the leadership it lost.
		if ok && err != nil && !errors.Is(err, context.Canceled) && err.Error() != "leader election lost" {
			t.Errorf("manager %s: %v", m.name, err)
		}
		if ok {
			close(m.done)
		}
	case <-time.After(eventualTimeout):
		t.Errorf("manager %s still running %v after it was stopped", m.name, eventualTimeout)
	}
}

// elected reports whether m leads now.
func (m *electingManager) elected() bool {
	select {
	case <-m.mgr.Elected():
		return true
	default:
		return false
	}
}

// TestControllerRuntimeLeaderElection runs two replicas of one operator
// with leader election on, as kubebuilder's manifests do (--leader-elect):
// one holds the coordination.k8s.io Lease and reconciles, the other waits;
// when the leader dies without releasing the Lease, the other takes over
// once it expires. The reconciler's events, from both recorders, are
// stored and listed by kubectl events.
func TestControllerRuntimeLeaderElection(t *testing.T) {
	s := startServer(t)
	setControllerRuntimeLogger(t)
	s.kubectlOK(t, "apply", "-f", "testdata/crontab-crd.yaml")
	s.kubectlOK(t, "wait", "--for", "condition=Established", "crd/"+crdName, "--timeout=60s")
	cfg := s.restConfig(t)
	ctx := t.Context()
	c, err := client.New(cfg, client.Options{Scheme: newOperatorScheme(t)})
	if err != nil {
		t.Fatal(err)
	}
	if err := coordinationv1.AddToScheme(c.Scheme()); err != nil {
		t.Fatal(err)
	}
	readLease := func(t *testing.T) *coordinationv1.Lease {
		t.Helper()
		var l coordinationv1.Lease
		if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: leaderElectionID}, &l); err != nil {
			t.Fatalf("get Lease: %v", err)
		}
		return &l
	}
	createCronTab := func(t *testing.T, name string, replicas int64) {
		t.Helper()
		ct := &CronTab{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
			Spec: CronTabSpec{CronSpec: "* * * * */5", Image: "img:1", Replicas: &replicas}}
		if err := c.Create(ctx, ct); err != nil {
			t.Fatalf("create CronTab %s: %v", name, err)
		}
	}
	// waitReconciled waits for a reconcile of name and returns the
	// manager that did it.
	reconciles := make(chan reconciled, 10)
	waitReconciled := func(t *testing.T, name string) string {
		t.Helper()
		timer := time.NewTimer(eventualTimeout)
		defer timer.Stop()
		for {
			select {
			case r := <-reconciles:
				if r.name == name {
					return r.manager
				}
			case <-timer.C:
				t.Fatalf("%s not reconciled after %v", name, eventualTimeout)
			}
		}
	}

	waitEvent := func(t *testing.T, want string) {
		t.Helper()
		eventually(t, "an event "+want, func() error {
			out := s.kubectl(t, "events", "-n", "default")
			if out.err != nil {
				return out.err
			}
			if !strings.Contains(out.stdout, want) {
				return fmt.Errorf("kubectl events lacks %q", want)
			}
			return nil
		})
	}

	// The managers run for the whole test (stopped when it ends), across
	// its subtests.
	a := startElectingManager(t, cfg, "manager-a", reconciles)
	b := startElectingManager(t, cfg, "manager-b", reconciles)
	var leader, follower *electingManager
	var firstHolder string
	if !t.Run("OneLeads", func(t *testing.T) {
		feature(t, "controller-runtime", "two managers with leader election: one holds the Lease and reconciles, the other waits",
			"ctrl.Options{LeaderElection: true, LeaderElectionID: …} in two managers")
		select {
		case <-a.mgr.Elected():
			leader, follower = a, b
		case <-b.mgr.Elected():
			leader, follower = b, a
		case <-time.After(eventualTimeout):
			t.Fatalf("no manager elected after %v", eventualTimeout)
		}
		createCronTab(t, "first", 2)
		if by := waitReconciled(t, "first"); by != leader.name {
			t.Errorf("first reconciled by %s, want the leader %s", by, leader.name)
		}
		if follower.elected() {
			t.Fatalf("both managers lead")
		}
		// Recorders write their events in the background: wait for the
		// leader's before Takeover kills it, which would lose those still
		// queued (as it would in a real crash).
		for _, want := range []string{leader.name + " set status.replicas to 2", "reconciled by " + leader.name} {
			waitEvent(t, want)
		}
		l := readLease(t)
		firstHolder = ptr.Deref(l.Spec.HolderIdentity, "")
		if firstHolder == "" || ptr.Deref(l.Spec.LeaseDurationSeconds, 0) != int32(leaseDuration/time.Second) {
			t.Errorf("Lease spec = %+v", l.Spec)
		}
	}) {
		t.Fatal("no leader")
	}

	t.Run("Takeover", func(t *testing.T) {
		feature(t, "controller-runtime", "the leader dies without releasing its Lease; the other manager takes over once it expires and reconciles",
			"kill the leading manager; the other's Elected() closes")
		leader.kill(t)
		killed := time.Now()
		// The Lease as the dead leader left it.
		last := readLease(t)
		// The takeover comes about a lease duration after the follower
		// last saw a renewal, plus up to two of its retry periods (each
		// jittered up to 1.1 s) and their requests: 6 s or more of the 8
		// that twice the lease duration allows, which a loaded machine can
		// pass. The bound only says it happens; that it waited for the
		// Lease to expire is checked below.
		select {
		case <-follower.mgr.Elected():
		case <-time.After(eventualTimeout):
			t.Fatalf("%s did not take over within %v", follower.name, eventualTimeout)
		}
		t.Logf("%s took over %v after the leader was killed (lease duration %v)", follower.name, time.Since(killed).Round(time.Millisecond), leaseDuration)
		l := readLease(t)
		if holder := ptr.Deref(l.Spec.HolderIdentity, ""); holder == "" || holder == firstHolder {
			t.Errorf("holder after the takeover = %q, before %q", holder, firstHolder)
		}
		if got, want := ptr.Deref(l.Spec.LeaseTransitions, 0), ptr.Deref(last.Spec.LeaseTransitions, 0)+1; got != want {
			t.Errorf("leaseTransitions = %d, want %d", got, want)
		}
		// The follower waited for the Lease to expire: it acquired it no
		// sooner than a lease duration after the last renewal.
		if l.Spec.AcquireTime == nil || last.Spec.RenewTime == nil ||
			l.Spec.AcquireTime.Sub(last.Spec.RenewTime.Time) < leaseDuration {
			t.Errorf("acquired at %v, last renewed at %v: sooner than the lease duration %v", l.Spec.AcquireTime, last.Spec.RenewTime, leaseDuration)
		}
		createCronTab(t, "second", 3)
		if by := waitReconciled(t, "second"); by != follower.name {
			t.Errorf("second reconciled by %s, want the new leader %s", by, follower.name)
		}
	})

	t.Run("RecorderEvents", func(t *testing.T) {
		feature(t, "controller-runtime", "events from the manager's recorders (core/v1 and events.k8s.io/v1) listed by kubectl events",
			"mgr.GetEventRecorderFor / mgr.GetEventRecorder, then kubectl events")
		for _, want := range []string{
			leader.name + " set status.replicas to 2", "reconciled by " + leader.name,
			follower.name + " set status.replicas to 3", "reconciled by " + follower.name,
			"became leader",
		} {
			waitEvent(t, want)
		}
		// Each recorder's events, in the version it wrote.
		wantContains(t, s.kubectlOK(t, "get", "events", "-n", "default", "--field-selector", "reason=Scaled", "-o", "name"), "event/")
		wantContains(t, s.kubectlOK(t, "events", "-n", "default", "--for", "crontab.stable.example.com/first"), "Scaled")
	})
}

// TestEnvtestExistingCluster runs envtest against crdlab as against a
// cluster: Environment.Start with UseExistingCluster waits for namespace
// default, installs the CRDs of CRDDirectoryPaths and waits until they are
// served; then a reconciler test runs as it would on kube-apiserver.
func TestEnvtestExistingCluster(t *testing.T) {
	s := startServer(t)
	setControllerRuntimeLogger(t)
	feature(t, "controller-runtime", "envtest Environment.Start with UseExistingCluster installs CRDs; a reconciler test runs",
		"envtest.Environment{UseExistingCluster: ptr.To(true), CRDDirectoryPaths: …}.Start()")
	scheme := newOperatorScheme(t)
	env := &envtest.Environment{
		UseExistingCluster:    ptr.To(true),
		Config:                s.restConfig(t),
		Scheme:                scheme,
		CRDDirectoryPaths:     []string{"testdata/crontab-crd.yaml"},
		ErrorIfCRDPathMissing: true,
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("envtest Start: %v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("envtest Stop: %v", err)
		}
	})
	if len(env.CRDs) != 1 || env.CRDs[0].Name != crdName {
		t.Fatalf("envtest installed %d CRDs, want %s", len(env.CRDs), crdName)
	}

	// The reconciler test, as an operator's suite writes it.
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0"})
	if err != nil {
		t.Fatal(err)
	}
	r := &replicaReconciler{Client: mgr.GetClient(), gone: make(chan string, 10)}
	if err := ctrl.NewControllerManagedBy(mgr).Named("envtest-crontab").For(&CronTab{}).Complete(r); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	defer func() {
		stop()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("manager: %v", err)
		}
	}()
	c := mgr.GetClient()
	four := int64(4)
	ct := &CronTab{ObjectMeta: metav1.ObjectMeta{Name: "from-envtest", Namespace: "default"},
		Spec: CronTabSpec{CronSpec: "* * * * */5", Image: "img:1", Replicas: &four}}
	if err := c.Create(ctx, ct); err != nil {
		t.Fatalf("create CronTab: %v", err)
	}
	eventually(t, "status.replicas = 4", func() error {
		var got CronTab
		if err := c.Get(ctx, client.ObjectKeyFromObject(ct), &got); err != nil {
			return err
		}
		if got.Status.Replicas != 4 {
			return fmt.Errorf("status.replicas = %d", got.Status.Replicas)
		}
		return nil
	})
	if err := c.Delete(ctx, ct); err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
}
