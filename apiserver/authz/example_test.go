package authz_test

import (
	"context"
	"fmt"

	"github.com/crdlab/crdlab/apiserver/authn"
	"github.com/crdlab/crdlab/apiserver/authz"
)

// A Static policy: bob may read crontabs in default, nothing else.
func ExampleNew_static() {
	policy, err := authz.ParsePolicy([]byte(`
rules:
- users: [bob]
  namespaces: [default]
  verbs: [get, list, watch]
  apiGroups: [stable.example.com]
  resources: [crontabs]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	z, _ := authz.New(authz.ModeStatic, policy)
	bob := &authn.User{Name: "bob", Groups: []string{authn.AllAuthenticated}}
	for _, a := range []authz.Attributes{
		{User: bob, Verb: "list", IsResourceRequest: true, APIGroup: "stable.example.com", Namespace: "default", Resource: "crontabs"},
		{User: bob, Verb: "delete", IsResourceRequest: true, APIGroup: "stable.example.com", Namespace: "default", Resource: "crontabs", Name: "x"},
		{User: bob, Verb: "get", Path: "/apis"},
		{User: authn.AnonymousUser(), Verb: "get", Path: "/readyz"},
	} {
		d, _, _ := z.Authorize(context.Background(), a)
		if d == authz.Allow {
			what := a.Path
			if a.IsResourceRequest {
				what = a.Resource
			}
			fmt.Printf("allowed: %s %s %s\n", a.User.Name, a.Verb, what)
			continue
		}
		fmt.Println(authz.Forbidden(a, ""))
	}
	// Output:
	// allowed: bob list crontabs
	// crontabs.stable.example.com "x" is forbidden: User "bob" cannot delete resource "crontabs" in API group "stable.example.com" in the namespace "default"
	// allowed: bob get /apis
	// allowed: system:anonymous get /readyz
}
