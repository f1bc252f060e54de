package authn_test

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apiserver/authn"
)

func testTokens(t *testing.T) *authn.Tokens {
	t.Helper()
	tokens, err := authn.ParseTokenFile(strings.NewReader("alice-token,alice,1,admins\n"))
	if err != nil {
		t.Fatal(err)
	}
	return tokens
}

func TestAuthenticator_AuthenticateRequest(t *testing.T) {
	alice := &authn.User{Name: "alice", UID: "1", Groups: []string{"admins", authn.AllAuthenticated}}
	anonymous := authn.AnonymousUser()
	tests := []struct {
		name      string
		required  bool
		anonymous authn.AnonymousConfig
		path      string
		header    string
		want      *authn.User
		wantErr   error
	}{
		{"Token", true, authn.AnonymousConfig{}, "/apis", "Bearer alice-token", alice, nil},
		{"TokenLowerCaseScheme", true, authn.AnonymousConfig{}, "/apis", "bearer   alice-token ", alice, nil},
		{"ErrInvalidToken", true, authn.AnonymousConfig{Enabled: true}, "/apis", "Bearer nope", nil, authn.ErrInvalidToken},
		{"ErrInvalidTokenOnHealth", true, authn.AnonymousConfig{Paths: []string{"/readyz"}}, "/readyz", "Bearer nope", nil, authn.ErrInvalidToken},
		{"ErrNoCredentials", true, authn.AnonymousConfig{}, "/apis", "", nil, authn.ErrAnonymousNotAllowed},
		{"AnonymousEnabled", true, authn.AnonymousConfig{Enabled: true}, "/apis", "", anonymous, nil},
		{"AnonymousPath", true, authn.AnonymousConfig{Paths: []string{"/readyz", "/readyz/*"}}, "/readyz", "", anonymous, nil},
		{"AnonymousPathBelow", true, authn.AnonymousConfig{Paths: []string{"/readyz", "/readyz/*"}}, "/readyz/ping", "", anonymous, nil},
		{"ErrAnonymousOtherPath", true, authn.AnonymousConfig{Paths: []string{"/readyz", "/readyz/*"}}, "/readyzz", "", nil, authn.ErrAnonymousNotAllowed},
		{"BasicIsNoCredentials", true, authn.AnonymousConfig{Enabled: true}, "/apis", "Basic YWxpY2U6cHc=", anonymous, nil},
		{"ErrBearerWithoutToken", true, authn.AnonymousConfig{}, "/apis", "Bearer", nil, authn.ErrAnonymousNotAllowed},
		{"NotRequiredUnknownToken", false, authn.AnonymousConfig{}, "/apis", "Bearer crdlab", anonymous, nil},
		{"NotRequiredKnownToken", false, authn.AnonymousConfig{}, "/apis", "Bearer alice-token", alice, nil},
		{"NotRequiredNoToken", false, authn.AnonymousConfig{}, "/apis", "", anonymous, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &authn.Authenticator{Tokens: testTokens(t), Required: tt.required, Anonymous: tt.anonymous}
			r := httptest.NewRequest("GET", tt.path, nil)
			if tt.header != "" {
				r.Header.Set("Authorization", tt.header)
			}
			got, err := a.AuthenticateRequest(r)
			if !errors.Is(err, tt.wantErr) || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, %v; want %+v, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestWithAuthentication(t *testing.T) {
	a := &authn.Authenticator{Tokens: testTokens(t), Required: true}
	var seen *http.Request
	h := authn.WithAuthentication(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r
		u, _ := authn.UserFrom(r.Context())
		io.WriteString(w, u.Name)
	}), a, slog.New(slog.DiscardHandler))

	serve := func(header map[string]string) *httptest.ResponseRecorder {
		seen = nil
		r := httptest.NewRequest("GET", "/apis", nil)
		for k, v := range header {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	t.Run("OK", func(t *testing.T) {
		w := serve(map[string]string{"Authorization": "Bearer alice-token"})
		if w.Code != 200 || w.Body.String() != "alice" {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
		if got := seen.Header.Get("Authorization"); got != "" {
			t.Errorf("the handler saw Authorization %q; the filter must remove it", got)
		}
	})
	t.Run("ErrUnauthorized", func(t *testing.T) {
		w := serve(map[string]string{"Authorization": "Bearer wrong"})
		var st struct {
			Kind, Status, Message, Reason string
			Code                          int
		}
		if err := json.Unmarshal(w.Body.Bytes(), &st); err != nil {
			t.Fatal(err)
		}
		if w.Code != 401 || st.Kind != "Status" || st.Status != "Failure" || st.Reason != "Unauthorized" || st.Message != "Unauthorized" || st.Code != 401 || seen != nil {
			t.Errorf("%d %s", w.Code, w.Body)
		}
	})
	t.Run("ErrImpersonate", func(t *testing.T) {
		w := serve(map[string]string{"Authorization": "Bearer alice-token", "Impersonate-User": "bob"})
		if w.Code != 403 || !strings.Contains(w.Body.String(), `users \"bob\" is forbidden: impersonation is not supported by crdlab`) || seen != nil {
			t.Errorf("%d %s", w.Code, w.Body)
		}
	})
}
