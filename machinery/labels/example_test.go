package labels_test

import (
	"fmt"

	"github.com/crdlab/crdlab/machinery/labels"
)

func ExampleParse() {
	sel, err := labels.Parse("tier notin (db), env in (qa,prod), !canary")
	if err != nil {
		panic(err)
	}
	fmt.Println(sel.String())
	fmt.Println(sel.Matches(map[string]string{"env": "prod", "tier": "web"}))
	fmt.Println(sel.Matches(map[string]string{"env": "prod", "canary": "true"}))

	_, err = labels.Parse("env in prod")
	fmt.Println(err)
	// Output:
	// !canary,env in (prod,qa),tier notin (db)
	// true
	// false
	// unable to parse requirement: found 'prod' expected: '('
}

func ExampleSelectorFromSet() {
	sel := labels.SelectorFromSet(map[string]string{"app": "web", "env": "qa"})
	fmt.Println(sel)
	v, ok := sel.RequiresExactMatch("app")
	fmt.Println(v, ok)
	// Output:
	// app=web,env=qa
	// web true
}
