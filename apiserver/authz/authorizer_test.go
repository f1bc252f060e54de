package authz_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/crdlab/crdlab/apiserver/authn"
	"github.com/crdlab/crdlab/apiserver/authz"
	"github.com/crdlab/crdlab/handler/request"
)

func TestNew(t *testing.T) {
	policy, err := authz.ParsePolicy([]byte(testPolicy))
	if err != nil {
		t.Fatal(err)
	}
	anonymous := authn.AnonymousUser()
	master := &authn.User{Name: authn.APIServerUser, Groups: []string{authn.SystemPrivilegedGroup}}
	carol := user("carol")
	tests := []struct {
		mode string
		a    authz.Attributes
		want authz.Decision
	}{
		{authz.ModeAlwaysAllow, resource(anonymous, "delete", "ns", "crontabs", "", "x"), authz.Allow},

		{authz.ModeReadOnlyAnonymous, resource(anonymous, "watch", "", "crontabs", "", ""), authz.Allow},
		{authz.ModeReadOnlyAnonymous, resource(anonymous, "create", "ns", "crontabs", "", ""), authz.NoOpinion},
		{authz.ModeReadOnlyAnonymous, path(anonymous, "get", "/apis"), authz.Allow},
		{authz.ModeReadOnlyAnonymous, path(anonymous, "post", "/apis"), authz.NoOpinion},
		{authz.ModeReadOnlyAnonymous, path(anonymous, "get", "/openapi/v3/apis/stable.example.com/v1"), authz.Allow},
		{authz.ModeReadOnlyAnonymous, path(anonymous, "get", "/version"), authz.Allow},
		// Issue 21, finding 4: nothing else of the paths.
		{authz.ModeReadOnlyAnonymous, path(anonymous, "get", "/metrics"), authz.NoOpinion},
		{authz.ModeReadOnlyAnonymous, path(anonymous, "get", "/debug/pprof/profile"), authz.NoOpinion},
		{authz.ModeReadOnlyAnonymous, path(anonymous, "get", "/debug/pprof/cmdline"), authz.NoOpinion},
		{authz.ModeReadOnlyAnonymous, path(anonymous, "get", "/debug/crdlab/events"), authz.NoOpinion},
		{authz.ModeReadOnlyAnonymous, path(anonymous, "get", "/debug/crdlab/state"), authz.NoOpinion},
		{authz.ModeReadOnlyAnonymous, path(carol, "get", "/debug/pprof/profile"), authz.Allow},
		{authz.ModeReadOnlyAnonymous, resource(carol, "create", "ns", "crontabs", "", ""), authz.Allow},

		{authz.ModeStatic, resource(master, "delete", "ns", "crontabs", "", "x"), authz.Allow},
		{authz.ModeStatic, path(anonymous, "get", "/readyz"), authz.Allow},
		{authz.ModeStatic, path(anonymous, "get", "/readyz/ping"), authz.Allow},
		{authz.ModeStatic, path(anonymous, "get", "/version"), authz.Allow},
		{authz.ModeStatic, path(anonymous, "post", "/readyz"), authz.NoOpinion},
		{authz.ModeStatic, path(anonymous, "get", "/apis"), authz.NoOpinion},
		{authz.ModeStatic, path(carol, "get", "/apis"), authz.Allow},
		{authz.ModeStatic, path(carol, "get", "/apis/stable.example.com/v1"), authz.Allow},
		{authz.ModeStatic, path(carol, "get", "/openapi/v3"), authz.Allow},
		{authz.ModeStatic, path(carol, "get", "/metrics"), authz.NoOpinion},
		{authz.ModeStatic, resource(carol, "list", "default", "crontabs", "", ""), authz.NoOpinion},
		{authz.ModeStatic, resource(user("bob"), "list", "default", "crontabs", "", ""), authz.Allow},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			var p *authz.Policy
			if tt.mode == authz.ModeStatic {
				p = policy
			}
			z, err := authz.New(tt.mode, p)
			if err != nil {
				t.Fatal(err)
			}
			if d, _, err := z.Authorize(context.Background(), tt.a); d != tt.want || err != nil {
				t.Errorf("%+v (user %+v): %v, %v; want %v", tt.a, tt.a.User, d, err, tt.want)
			}
		})
	}
	t.Run("ErrMode", func(t *testing.T) {
		for _, c := range []struct {
			mode   string
			policy *authz.Policy
		}{{"RBAC", nil}, {authz.ModeStatic, nil}, {authz.ModeAlwaysAllow, policy}, {authz.ModeReadOnlyAnonymous, policy}} {
			if _, err := authz.New(c.mode, c.policy); err == nil {
				t.Errorf("New(%q, %v) succeeded", c.mode, c.policy != nil)
			}
		}
	})
}

func TestForbidden(t *testing.T) {
	bob := user("bob")
	tests := []struct {
		name string
		a    authz.Attributes
		want string
	}{
		{"Namespaced", resource(bob, "create", "default", "crontabs", "", ""),
			`crontabs.stable.example.com is forbidden: User "bob" cannot create resource "crontabs" in API group "stable.example.com" in the namespace "default"`},
		{"Named", resource(bob, "get", "default", "crontabs", "", "x"),
			`crontabs.stable.example.com "x" is forbidden: User "bob" cannot get resource "crontabs" in API group "stable.example.com" in the namespace "default"`},
		{"ClusterScope", resource(bob, "list", "", "crontabs", "", ""),
			`crontabs.stable.example.com is forbidden: User "bob" cannot list resource "crontabs" in API group "stable.example.com" at the cluster scope`},
		{"Subresource", resource(bob, "update", "ns", "crontabs", "status", "x"),
			`crontabs.stable.example.com "x" is forbidden: User "bob" cannot update resource "crontabs/status" in API group "stable.example.com" in the namespace "ns"`},
		{"Path", path(authn.AnonymousUser(), "get", "/apis"),
			`forbidden: User "system:anonymous" cannot get path "/apis"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := authz.Forbidden(tt.a, "")
			if err.Error() != tt.want || err.ErrStatus.Code != 403 || err.ErrStatus.Reason != "Forbidden" {
				t.Errorf("got %d %s %q\nwant %q", err.ErrStatus.Code, err.ErrStatus.Reason, err.Error(), tt.want)
			}
		})
	}
}

func TestWithAuthorization(t *testing.T) {
	z, err := authz.New(authz.ModeReadOnlyAnonymous, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := authz.WithAuthorization(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "served") }),
		z, slog.New(slog.DiscardHandler))
	serve := func(method string, u *authn.User) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, "/apis/stable.example.com/v1/namespaces/default/crontabs", nil)
		ctx := request.WithRequestInfo(r.Context(), request.NewRequestInfoFactory().NewRequestInfo(r))
		if u != nil {
			ctx = authn.WithUser(ctx, u)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r.WithContext(ctx))
		return w
	}
	if w := serve("GET", authn.AnonymousUser()); w.Code != 200 || w.Body.String() != "served" {
		t.Errorf("anonymous list: %d %s", w.Code, w.Body)
	}
	w := serve("POST", authn.AnonymousUser())
	var st struct {
		Reason, Message string
		Code            int
		Details         struct{ Group, Kind string }
	}
	_ = json.Unmarshal(w.Body.Bytes(), &st)
	if w.Code != 403 || st.Reason != "Forbidden" || st.Code != 403 || st.Details.Group != "stable.example.com" || st.Details.Kind != "crontabs" ||
		st.Message != `crontabs.stable.example.com is forbidden: User "system:anonymous" cannot create resource "crontabs" in API group "stable.example.com" in the namespace "default"` {
		t.Errorf("anonymous create: %d %s", w.Code, w.Body)
	}
	if w := serve("GET", nil); w.Code != 500 {
		t.Errorf("no user: %d %s; want 500 (a broken chain must not let requests through)", w.Code, w.Body)
	}
}

// TestNew_Concurrent asks one Static authorizer from many goroutines (run
// with -race): authorizers are read-only once built.
func TestNew_Concurrent(t *testing.T) {
	policy, err := authz.ParsePolicy([]byte(testPolicy))
	if err != nil {
		t.Fatal(err)
	}
	z, err := authz.New(authz.ModeStatic, policy)
	if err != nil {
		t.Fatal(err)
	}
	bob := user("bob")
	done := make(chan struct{})
	for i := 0; i < 8; i++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for j := 0; j < 500; j++ {
				if d, _, _ := z.Authorize(context.Background(), resource(bob, "list", "default", "crontabs", "", "")); d != authz.Allow {
					t.Errorf("decision %v", d)
					return
				}
			}
		}()
	}
	for i := 0; i < 8; i++ {
		<-done
	}
}
