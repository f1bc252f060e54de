package library

import (
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"
)

// Limits of CEL in the API server.
//
// Mirrors k8s.io/apiserver/pkg/apis/cel/config.go.
const (
	// PerCallLimit is the most one evaluation of one rule may cost.
	PerCallLimit = 1_000_000
	// RuntimeCELCostBudget is what all the rules of one object may cost
	// together in one request.
	RuntimeCELCostBudget = 10_000_000
	// CheckFrequency is how many comprehension steps run between checks
	// of the context's cancellation.
	CheckFrequency = 100
	// MaxRequestSizeBytes bounds the size of an object, and so of any
	// string, list or map in it, when nothing in the schema does.
	MaxRequestSizeBytes = int64(3 * 1024 * 1024)
	// MaxEvaluatedMessageExpressionSizeBytes bounds a messageExpression's result.
	MaxEvaluatedMessageExpressionSizeBytes = 5 * 1024
)

// EnvSet is a pair of environments with the same variables: New compiles
// expressions a client writes now (a new rule in a CRD create or update),
// Stored compiles expressions already stored (a rule an update keeps, and
// every rule when custom resources are validated).
//
// Stored may offer more than New: what a newer server added is accepted
// only once every server of a cluster can run it. At v1.37, the only
// difference is the list function includes() (Lists version 1), stored
// only.
//
// Mirrors environment.EnvSet in k8s.io/apiserver/pkg/cel/environment,
// with the compatibility version fixed at 1.36, what a 1.37 server uses
// (DefaultCompatibilityVersion: one minor version back).
type EnvSet struct {
	New    *cel.Env
	Stored *cel.Env
}

// baseEnvSet builds the environments once: declaring the libraries is
// the expensive part of making an environment.
var baseEnvSet = sync.OnceValues(func() (*EnvSet, error) {
	base, err := cel.NewEnv(baseOptions()...)
	if err != nil {
		return nil, err
	}
	newEnv, err := base.Extend(Lists(0))
	if err != nil {
		return nil, err
	}
	stored, err := base.Extend(Lists(1))
	if err != nil {
		return nil, err
	}
	return &EnvSet{New: newEnv, Stored: stored}, nil
})

// BaseEnvSet returns the environments of CRD validation rules, with every
// library and setting and no variables: the cel package extends them with
// self and oldSelf.
//
// Mirrors environment.MustBaseEnvSet(DefaultCompatibilityVersion()).
func BaseEnvSet() (*EnvSet, error) { return baseEnvSet() }

// Extend returns both environments extended with the options opts gives
// for each. opts is called once per environment, because a type provider
// (what declares a schema's object types) is built over the environment
// it extends.
//
// Mirrors (*EnvSet).Extend in k8s.io/apiserver/pkg/cel/environment, which
// receives the declared types and builds that provider itself.
func (e *EnvSet) Extend(opts func(*cel.Env) []cel.EnvOption) (*EnvSet, error) {
	n, err := e.New.Extend(opts(e.New)...)
	if err != nil {
		return nil, err
	}
	s, err := e.Stored.Extend(opts(e.Stored)...)
	if err != nil {
		return nil, err
	}
	return &EnvSet{New: n, Stored: s}, nil
}

// baseOptions are the options every environment has, in the order of
// upstream's baseOpts (with the version in which each arrived).
func baseOptions() []cel.EnvOption {
	return []cel.EnvOption{
		// Always (the CEL epoch, 1.23).
		cel.HomogeneousAggregateLiterals(),
		cel.EagerlyValidateDeclarations(true),
		cel.DefaultUTCTimeZone(true),
		URLs(),
		Regex(),
		// has() costs nothing, as before cel-go v0.17.7.
		cel.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
		cel.Lib(programOptions{
			cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost),
			cel.CostLimit(PerCallLimit),
			cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false)),
		}),
		// 1.28
		cel.CrossTypeNumericComparisons(true),
		cel.OptionalTypes(),
		QuantityLib(),
		// 1.29
		cel.ASTValidators(
			cel.ValidateDurationLiterals(),
			cel.ValidateTimestampLiterals(),
			cel.ValidateRegexLiterals(),
			cel.ValidateHomogeneousAggregateLiterals(),
		),
		ext.Strings(ext.StringsVersion(2)),
		ext.Sets(),
		// 1.30
		IPLib(),
		CIDRLib(),
		// 1.31
		FormatLib(),
		// 1.32
		ext.TwoVarComprehensions(),
		// 1.33
		SemverLib(),
		// 1.34
		ext.Lists(ext.ListsVersion(3)),
		// Every program prices the Kubernetes functions (StrictCostOpt).
		cel.Lib(programOptions{cel.CostTracking(&CostEstimator{})}),
	}
}

// programOptions is a library of program options only.
type programOptions []cel.ProgramOption

func (programOptions) CompileOptions() []cel.EnvOption       { return nil }
func (p programOptions) ProgramOptions() []cel.ProgramOption { return p }
