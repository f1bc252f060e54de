// Package library is the CEL environment of CRD validation rules: the
// Kubernetes function libraries, their value types, their cost model and
// the base environments rules compile in.
//
// Vocabulary:
//   - A library adds functions (and maybe types) to an environment: URLs,
//     Regex, Lists, QuantityLib, IPLib, CIDRLib, FormatLib, SemverLib. Each
//     file's doc comment lists what it adds.
//   - The value types (URL, Quantity, IP, CIDR, Semver, Format) are what
//     those functions take and return, as ref.Val.
//   - CostEstimator prices a call two ways: before a rule runs, from the
//     sizes a schema allows (EstimateCallCost), and while it runs, from
//     the actual arguments (CallCost). Both feed the limits in env.go.
//   - EnvSet is the pair of environments a rule compiles in: New for an
//     expression a client adds now, Stored for one already stored.
//     BaseEnvSet has every library, option and limit and no variables.
//
// The libraries cel-go ships are enabled as upstream does: strings
// (version 2), sets, lists (version 3), two-variable comprehensions,
// optional types, and the AST validators for literals.
//
// Upstream:
//   - k8s.io/apiserver/pkg/cel/library: urls.go, regex.go, lists.go,
//     quantity.go, ip.go, cidr.go, format.go, semverlib.go, cost.go
//   - k8s.io/apiserver/pkg/cel: url.go, quantity.go, ip.go, cidr.go,
//     semver.go, format.go (the value types)
//   - k8s.io/apiserver/pkg/cel/environment: base.go (the versioned option
//     list), environment.go (EnvSet)
//   - k8s.io/apiserver/pkg/apis/cel/config.go (limits)
//
// Differences from upstream:
//   - One compatibility version, 1.36 (what a v1.37 server uses): no
//     versioned option list. The options removed before 1.37 are absent.
//   - Not supported: the authorizer, authorizer-selector and JSON patch
//     libraries (upstream declares them too, but no CRD rule can reach
//     them: there is no authorizer variable), and CEL metrics.
//   - cel-go is v0.31.0 (upstream v1.37 pins v0.29.2). Known effects: a
//     timestamp() string must be strict RFC 3339, NaN compares false, and
//     optMap/optFlatMap on a non-identifier cost a little more.
//   - Semantic versions are parsed here (blang/semver's rules and error
//     texts) and quantities by machinery/resource, so that the main module
//     needs no k8s.io or blang dependency.
//
// Why a main-module dependency on github.com/google/cel-go: rules must
// behave exactly as upstream's, and upstream is cel-go; a second CEL
// implementation would differ in a thousand corners (macros, type
// checking, cost units, error texts).
package library
