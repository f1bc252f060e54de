package discovery_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/discovery"
	"github.com/crdlab/crdlab/scheme"
)

// discoveryServer answers discovery like crdlab with one CRD, crontabs in
// stable.example.com/v1; with core, it also serves /api.
func discoveryServer(t *testing.T, core bool) *discovery.DiscoveryClient {
	t.Helper()
	answer := func(w http.ResponseWriter, obj any) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(obj)
	}
	notFound := func(w http.ResponseWriter, r *http.Request) {
		err := apierrors.NewNotFound(scheme.GroupResource{}, r.URL.Path)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(err.ErrStatus)
	}
	stable := metav1.GroupVersionForDiscovery{GroupVersion: "stable.example.com/v1", Version: "v1"}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api":
			if !core {
				notFound(w, r)
				return
			}
			answer(w, metav1.APIVersions{TypeMeta: metav1.TypeMeta{Kind: "APIVersions"}, Versions: []string{"v1"}})
		case "/apis":
			answer(w, metav1.APIGroupList{
				TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"},
				Groups: []metav1.APIGroup{
					{Name: "apiextensions.k8s.io", Versions: []metav1.GroupVersionForDiscovery{{GroupVersion: "apiextensions.k8s.io/v1", Version: "v1"}},
						PreferredVersion: metav1.GroupVersionForDiscovery{GroupVersion: "apiextensions.k8s.io/v1", Version: "v1"}},
					{Name: "stable.example.com", Versions: []metav1.GroupVersionForDiscovery{stable}, PreferredVersion: stable},
				},
			})
		case "/apis/stable.example.com/v1":
			answer(w, metav1.APIResourceList{
				TypeMeta:     metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"},
				GroupVersion: "stable.example.com/v1",
				APIResources: []metav1.APIResource{
					{Name: "crontabs", SingularName: "crontab", Namespaced: true, Kind: "CronTab",
						Verbs: []string{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"}, ShortNames: []string{"ct"}},
					{Name: "crontabs/status", Namespaced: true, Kind: "CronTab", Verbs: []string{"get", "patch", "update"}},
				},
			})
		case "/version":
			answer(w, metav1.VersionInfo{Major: "1", Minor: "37", GitVersion: "v1.37.0-crdlab"})
		default:
			notFound(w, r)
		}
	}))
	t.Cleanup(ts.Close)
	d, err := discovery.NewDiscoveryClientForConfig(&client.Config{Host: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDiscoveryClient_ServerGroups(t *testing.T) {
	ctx := context.Background()
	t.Run("NoCoreGroup", func(t *testing.T) {
		groups, err := discoveryServer(t, false).ServerGroups(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(groups.Groups) != 2 || groups.Groups[1].Name != "stable.example.com" || groups.Groups[1].PreferredVersion.Version != "v1" {
			t.Fatalf("groups = %+v", groups.Groups)
		}
	})
	t.Run("CoreGroupFirst", func(t *testing.T) {
		groups, err := discoveryServer(t, true).ServerGroups(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(groups.Groups) != 3 || groups.Groups[0].Name != "" || groups.Groups[0].PreferredVersion.GroupVersion != "v1" {
			t.Fatalf("groups = %+v", groups.Groups)
		}
	})
	t.Run("ErrServer", func(t *testing.T) {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "boom", http.StatusInternalServerError)
		}))
		defer ts.Close()
		d, _ := discovery.NewDiscoveryClientForConfig(&client.Config{Host: ts.URL})
		if _, err := d.ServerGroups(ctx); !apierrors.IsInternalError(err) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestDiscoveryClient_ServerResourcesForGroupVersion(t *testing.T) {
	ctx := context.Background()
	d := discoveryServer(t, false)
	t.Run("OK", func(t *testing.T) {
		list, err := d.ServerResourcesForGroupVersion(ctx, "stable.example.com/v1")
		if err != nil {
			t.Fatal(err)
		}
		if list.GroupVersion != "stable.example.com/v1" || len(list.APIResources) != 2 ||
			list.APIResources[0].Kind != "CronTab" || list.APIResources[1].Name != "crontabs/status" {
			t.Fatalf("resources = %+v", list)
		}
	})
	t.Run("NoCoreGroupIsEmpty", func(t *testing.T) {
		list, err := d.ServerResourcesForGroupVersion(ctx, "v1")
		if err != nil || len(list.APIResources) != 0 || list.GroupVersion != "v1" {
			t.Fatalf("v1 = %+v, %v", list, err)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		if _, err := d.ServerResourcesForGroupVersion(ctx, "missing.example.com/v1"); !apierrors.IsNotFound(err) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrGroupVersionRequired", func(t *testing.T) {
		if _, err := d.ServerResourcesForGroupVersion(ctx, ""); err != discovery.ErrGroupVersionRequired {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestDiscoveryClient_ServerVersion(t *testing.T) {
	v, err := discoveryServer(t, false).ServerVersion(context.Background())
	if err != nil || v.GitVersion != "v1.37.0-crdlab" {
		t.Fatalf("version = %+v, %v", v, err)
	}
}
