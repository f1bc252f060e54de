package discovery_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/discovery"
	"github.com/crdlab/crdlab/scheme"
)

// preferredServer serves the core group (configmaps, namespaces), a group
// with two versions (v2 preferred; v1 also has a resource v2 lacks) and a
// group whose resources fail with a 503.
func preferredServer(t *testing.T) *discovery.DiscoveryClient {
	t.Helper()
	answer := func(w http.ResponseWriter, obj any) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(obj)
	}
	gv := func(g, v string) metav1.GroupVersionForDiscovery {
		return metav1.GroupVersionForDiscovery{GroupVersion: g + "/" + v, Version: v}
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api":
			answer(w, metav1.APIVersions{Versions: []string{"v1"}})
		case "/api/v1":
			answer(w, metav1.APIResourceList{GroupVersion: "v1", APIResources: []metav1.APIResource{
				{Name: "configmaps", Namespaced: true, Kind: "ConfigMap", Verbs: []string{"delete", "list"}},
				{Name: "namespaces", Kind: "Namespace", Verbs: []string{"delete", "list"}},
				{Name: "namespaces/finalize", Kind: "Namespace", Verbs: []string{"update"}},
			}})
		case "/apis":
			answer(w, metav1.APIGroupList{Groups: []metav1.APIGroup{
				{Name: "stable.example.com", Versions: []metav1.GroupVersionForDiscovery{gv("stable.example.com", "v1"), gv("stable.example.com", "v2")},
					PreferredVersion: gv("stable.example.com", "v2")},
				{Name: "broken.example.com", Versions: []metav1.GroupVersionForDiscovery{gv("broken.example.com", "v1")},
					PreferredVersion: gv("broken.example.com", "v1")},
			}})
		case "/apis/stable.example.com/v1":
			answer(w, metav1.APIResourceList{GroupVersion: "stable.example.com/v1", APIResources: []metav1.APIResource{
				{Name: "crontabs", Namespaced: true, Kind: "CronTab", Verbs: []string{"list"}},
				{Name: "oldies", Namespaced: true, Kind: "Oldie", Verbs: []string{"list"}},
			}})
		case "/apis/stable.example.com/v2":
			answer(w, metav1.APIResourceList{GroupVersion: "stable.example.com/v2", APIResources: []metav1.APIResource{
				{Name: "crontabs", Namespaced: true, Kind: "CronTab", Verbs: []string{"delete", "list"}},
			}})
		default:
			st := apierrors.NewServiceUnavailable("not today").ErrStatus
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			json.NewEncoder(w).Encode(st)
		}
	}))
	t.Cleanup(ts.Close)
	d, err := discovery.NewDiscoveryClientForConfig(&client.Config{Host: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func names(lists []*metav1.APIResourceList) map[string][]string {
	out := map[string][]string{}
	for _, l := range lists {
		for _, r := range l.APIResources {
			out[l.GroupVersion] = append(out[l.GroupVersion], r.Name)
		}
	}
	return out
}

func TestDiscoveryClient_ServerPreferredResources(t *testing.T) {
	d := preferredServer(t)
	lists, err := d.ServerPreferredResources(context.Background())
	var failed *discovery.ErrGroupDiscoveryFailed
	if !errors.As(err, &failed) || len(failed.Groups) != 1 || failed.Groups[scheme.GroupVersion{Group: "broken.example.com", Version: "v1"}] == nil {
		t.Fatalf("err %v, want the broken group only", err)
	}
	got := names(lists)
	want := map[string][]string{
		"v1":                    {"configmaps", "namespaces"}, // no subresources
		"stable.example.com/v1": {"oldies"},                   // only in v1
		"stable.example.com/v2": {"crontabs"},                 // the preferred version wins
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for gv, rs := range want {
		if len(got[gv]) != len(rs) {
			t.Fatalf("%s: got %v, want %v", gv, got[gv], rs)
		}
		for i := range rs {
			if got[gv][i] != rs[i] {
				t.Errorf("%s: got %v, want %v", gv, got[gv], rs)
			}
		}
	}

	namespaced, _ := d.ServerPreferredNamespacedResources(context.Background())
	if n := names(namespaced); len(n["v1"]) != 1 || n["v1"][0] != "configmaps" {
		t.Errorf("namespaced: %v", n)
	}
	deletable := discovery.FilteredBy(discovery.SupportsAllVerbs("delete"), lists)
	gvrs, err := discovery.GroupVersionResources(deletable)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := gvrs[scheme.GroupVersionResource{Group: "stable.example.com", Version: "v2", Resource: "crontabs"}]; !ok || len(gvrs) != 3 {
		t.Errorf("deletable: %v", gvrs)
	}
}
