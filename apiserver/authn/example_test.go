package authn_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/crdlab/crdlab/apiserver/authn"
)

// A token file names users; a request carries one of the tokens.
func ExampleAuthenticator_AuthenticateRequest() {
	tokens, _ := authn.ParseTokenFile(strings.NewReader(`# token,user,uid,groups
31ada4fd-adec-460c,alice,1000,"admins,dev"
`))
	a := &authn.Authenticator{Tokens: tokens, Required: true,
		Anonymous: authn.AnonymousConfig{Paths: []string{"/readyz"}}}

	for _, c := range []struct{ path, header string }{
		{"/apis", "Bearer 31ada4fd-adec-460c"},
		{"/apis", "Bearer guessed"},
		{"/apis", ""},
		{"/readyz", ""},
	} {
		r := httptest.NewRequest("GET", c.path, nil)
		if c.header != "" {
			r.Header.Set("Authorization", c.header)
		}
		u, err := a.AuthenticateRequest(r)
		if err != nil {
			fmt.Printf("%-8s %-28q 401: %v\n", c.path, c.header, err)
			continue
		}
		fmt.Printf("%-8s %-28q %s %v\n", c.path, c.header, u.Name, u.Groups)
	}
	// Output:
	// /apis    "Bearer 31ada4fd-adec-460c"  alice [admins dev system:authenticated]
	// /apis    "Bearer guessed"             401: invalid bearer token
	// /apis    ""                           401: anonymous requests are not allowed
	// /readyz  ""                           system:anonymous [system:unauthenticated]
}
