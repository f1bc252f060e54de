package cel

import (
	"errors"
	"strings"
	"sync/atomic"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"

	"github.com/crdlab/crdlab/apis/apiextensions/cel/library"
	"github.com/crdlab/crdlab/apis/apiextensions/structural"
)

// The variables of a rule.
const (
	// ScopedVarName is the value at the rule's node.
	ScopedVarName = "self"
	// OldScopedVarName is the value at the same node before an update.
	OldScopedVarName = "oldSelf"
)

// Rule is one entry of x-kubernetes-validations.
//
// Mirrors apiextensions.ValidationRule.
type Rule struct {
	Rule              string `json:"rule"`
	Message           string `json:"message,omitempty"`
	MessageExpression string `json:"messageExpression,omitempty"`
	// Reason is FieldValueInvalid (the default), FieldValueForbidden,
	// FieldValueRequired or FieldValueDuplicate.
	Reason          *string `json:"reason,omitempty"`
	FieldPath       string  `json:"fieldPath,omitempty"`
	OptionalOldSelf *bool   `json:"optionalOldSelf,omitempty"`
}

// RulesOf reads the x-kubernetes-validations of one schema node.
func RulesOf(s *structural.Structural) []Rule {
	if s == nil || len(s.XValidations) == 0 {
		return nil
	}
	out := make([]Rule, len(s.XValidations))
	for i, raw := range s.XValidations {
		m, _ := raw.(map[string]any)
		str := func(k string) string { v, _ := m[k].(string); return v }
		out[i] = Rule{Rule: str("rule"), Message: str("message"), MessageExpression: str("messageExpression"), FieldPath: str("fieldPath")}
		if r, ok := m["reason"].(string); ok {
			out[i].Reason = &r
		}
		if b, ok := m["optionalOldSelf"].(bool); ok {
			out[i].OptionalOldSelf = &b
		}
	}
	return out
}

// Error is why a rule could not be compiled or run.
//
// Mirrors apiservercel.Error in k8s.io/apiserver/pkg/cel/errors.go.
type Error struct {
	Type   ErrorType
	Detail string
}

// ErrorType says whose fault an Error is.
type ErrorType string

const (
	// ErrorTypeInvalid: the expression is wrong (422 at CRD create).
	ErrorTypeInvalid ErrorType = "FieldValueInvalid"
	// ErrorTypeRequired: something is missing.
	ErrorTypeRequired ErrorType = "FieldValueRequired"
	// ErrorTypeInternal: the server failed.
	ErrorTypeInternal ErrorType = "InternalError"
)

func (e *Error) Error() string { return e.Detail }

// CompilationResult is one rule, compiled.
//
// Program is nil and Error set if it does not compile; both are nil for an
// empty rule.
//
// Mirrors cel.CompilationResult in compilation.go.
type CompilationResult struct {
	Program cel.Program
	Error   *Error
	// UsesOldSelf makes the rule a transition rule.
	UsesOldSelf bool
	// MaxCost is the estimated worst cost of one evaluation.
	MaxCost uint64
	// MaxCardinality is how often the rule can run at most in one object
	// if it sits under unbounded lists or maps.
	MaxCardinality uint64
	// MessageExpression is the compiled messageExpression, if any.
	MessageExpression        cel.Program
	MessageExpressionError   *Error
	MessageExpressionMaxCost uint64
	// NormalizedRuleFieldPath is fieldPath as a field path ("spec.x").
	NormalizedRuleFieldPath string
}

// StoredExpressions says which expressions were already in the CRD before
// an update: they compile in the Stored environment, new ones in the New
// one (see library.EnvSet). A nil StoredExpressions means all are new.
type StoredExpressions interface {
	StoredRule(expr string) bool
	StoredMessageExpression(expr string) bool
}

// AllStored treats every expression as stored: the choice when custom
// resources are validated.
type AllStored struct{}

func (AllStored) StoredRule(string) bool              { return true }
func (AllStored) StoredMessageExpression(string) bool { return true }

// ExpressionSet is a StoredExpressions from the expressions of the old CRD.
type ExpressionSet struct {
	Rules, MessageExpressions map[string]bool
}

func (s ExpressionSet) StoredRule(e string) bool              { return s.Rules[e] }
func (s ExpressionSet) StoredMessageExpression(e string) bool { return s.MessageExpressions[e] }

// compilations counts the rules compiled since the process started.
var compilations atomic.Int64

// Compilations is how many rules this process has compiled (each rule's
// expression and its messageExpression count once). Tests read it to prove
// that rules are compiled when a CRD version is set up, never when a
// custom resource is written; upstream has no such counter.
func Compilations() int64 { return compilations.Load() }

// Compile compiles the rules of one schema node s (not below it), whose
// CEL type is declType. Results are in the order of the rules.
//
// Mirrors cel.Compile in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/compilation.go.
func Compile(s *structural.Structural, rules []Rule, declType *DeclType, perCallLimit uint64, stored StoredExpressions) ([]CompilationResult, error) {
	return compile(s, rules, declType, perCallLimit, stored, nil)
}

// compile is Compile, parsing each expression through parses (nil: parse
// each).
func compile(s *structural.Structural, rules []Rule, declType *DeclType, perCallLimit uint64, stored StoredExpressions, parses *Parses) ([]CompilationResult, error) {
	if len(rules) == 0 {
		return nil, nil
	}
	if declType == nil {
		return nil, errors.New("failed to convert to declType for CEL validation rules")
	}
	base, err := library.BaseEnvSet()
	if err != nil {
		return nil, err
	}
	optional := false
	for _, r := range rules {
		optional = optional || r.OptionalOldSelf != nil && *r.OptionalOldSelf
	}
	withOldSelf, withOptionalOldSelf, err := prepareEnvSet(base, declType, optional)
	if err != nil {
		return nil, err
	}
	estimator := &library.CostEstimator{SizeEstimator: &sizeEstimator{root: declType}}
	maxCard := maxCardinality(declType.MinSerializedSize)
	out := make([]CompilationResult, len(rules))
	for i, r := range rules {
		set := withOldSelf
		if r.OptionalOldSelf != nil && *r.OptionalOldSelf {
			set = withOptionalOldSelf
		}
		out[i] = compileRule(s, r, set, stored, estimator, maxCard, perCallLimit, parses)
	}
	return out, nil
}

// prepareEnvSet declares self and oldSelf (plain, and, when optional
// says a rule has optionalOldSelf, optional) with a freshly named type.
// Upstream builds the optional one for every node with rules; with none
// that uses it, it is a tenth of a real-size CRD's validation.
func prepareEnvSet(base *library.EnvSet, declType *DeclType, optional bool) (withOldSelf, withOptionalOldSelf *library.EnvSet, err error) {
	scoped := declType.maybeAssignTypeName(uniqueSelfTypeName())
	// The types are registered once for the (two or four) environments.
	decls := typeDecls(scoped)
	extend := func(oldSelfType *cel.Type) (*library.EnvSet, error) {
		return base.Extend(func(env *cel.Env) []cel.EnvOption {
			return append(newTypeProvider(decls, env).envOptions(),
				cel.Variable(ScopedVarName, scoped.CelType()),
				cel.Variable(OldScopedVarName, oldSelfType))
		})
	}
	if withOldSelf, err = extend(scoped.CelType()); err != nil {
		return nil, nil, err
	}
	if !optional {
		return withOldSelf, nil, nil
	}
	if withOptionalOldSelf, err = extend(types.NewOptionalType(scoped.CelType())); err != nil {
		return nil, nil, err
	}
	return withOldSelf, withOptionalOldSelf, nil
}

func compileRule(s *structural.Structural, r Rule, set *library.EnvSet, stored StoredExpressions, estimator *library.CostEstimator, maxCard, perCallLimit uint64, parses *Parses) (res CompilationResult) {
	if strings.TrimSpace(r.Rule) == "" {
		return res
	}
	compilations.Add(1)
	env, isStored := set.New, false
	if stored != nil && stored.StoredRule(r.Rule) {
		env, isStored = set.Stored, true
	}
	ast, issues := parses.compile(env, isStored, r.Rule)
	if issues != nil && issues.Err() != nil {
		res.Error = &Error{ErrorTypeInvalid, "compilation failed: " + issues.String()}
		return res
	}
	if ast.OutputType() != cel.BoolType {
		res.Error = &Error{ErrorTypeInvalid, "cel expression must evaluate to a bool"}
		return res
	}
	for _, ref := range ast.NativeRep().ReferenceMap() {
		if ref.Name == OldScopedVarName {
			res.UsesOldSelf = true
			break
		}
	}
	prog, err := env.Program(ast, cel.CostLimit(perCallLimit), cel.CostTracking(estimator), cel.InterruptCheckFrequency(library.CheckFrequency))
	if err != nil {
		res.Error = &Error{ErrorTypeInvalid, "program instantiation failed: " + err.Error()}
		return res
	}
	cost, err := env.EstimateCost(ast, estimator)
	if err != nil {
		res.Error = &Error{ErrorTypeInternal, "cost estimation failed: " + err.Error()}
		return res
	}
	res.MaxCost = cost.Max
	res.MaxCardinality = maxCard
	res.Program = prog

	if r.MessageExpression != "" {
		menv, isStored := set.New, false
		if stored != nil && stored.StoredMessageExpression(r.MessageExpression) {
			menv, isStored = set.Stored, true
		}
		mast, issues := parses.compile(menv, isStored, r.MessageExpression)
		if issues != nil && issues.Err() != nil {
			res.MessageExpressionError = &Error{ErrorTypeInvalid, "messageExpression compilation failed: " + issues.String()}
			return res
		}
		if mast.OutputType() != cel.StringType {
			res.MessageExpressionError = &Error{ErrorTypeInvalid, "messageExpression must evaluate to a string"}
			return res
		}
		mprog, err := menv.Program(mast, cel.CostLimit(perCallLimit), cel.CostTracking(estimator), cel.InterruptCheckFrequency(library.CheckFrequency))
		if err != nil {
			res.MessageExpressionError = &Error{ErrorTypeInvalid, "messageExpression instantiation failed: " + err.Error()}
			return res
		}
		mcost, err := menv.EstimateCost(mast, estimator)
		if err != nil {
			res.MessageExpressionError = &Error{ErrorTypeInternal, "cost estimation failed for messageExpression: " + err.Error()}
			return res
		}
		res.MessageExpression = mprog
		res.MessageExpressionMaxCost = mcost.Max
	}
	if r.FieldPath != "" {
		if p, _, err := ValidFieldPath(r.FieldPath, s); err == nil {
			res.NormalizedRuleFieldPath = p.String()
		}
	}
	return res
}

// Parses remembers the expressions it parsed, by their text, for the
// other places they are compiled in while one CRD is validated: each
// version of a CRD carries its own copy of its rules, each compiled with
// its version's types, and parsing (an ANTLR parser) was about three
// quarters of a rule's compile. Only parsing is shared: a parsed
// expression is the same whatever the types of self (an environment's
// parser depends on its macros and parser options, which the
// environments of one EnvSet's Extend share; New and Stored are kept
// apart all the same). Each compile checks a copy of its own, since the
// checker rewrites the expression it checks.
//
// A Parses is used by one goroutine at a time. The zero value is empty;
// a nil *Parses parses every time.
//
// Upstream parses each rule every time (cel.Compile in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/compilation.go).
type Parses struct {
	m map[parseKey]*exprpb.ParsedExpr
}

type parseKey struct {
	stored bool
	text   string
}

// maxLoadedDepth is the depth cel.ParsedExprToAst refuses (cel-go's
// defaultMaxASTDepth): an expression parsed deeper is parsed every
// time, so that it fails, or not, as a fresh parse does.
const maxLoadedDepth = 250

// compile is env.Compile(text) with the parse remembered.
func (p *Parses) compile(env *cel.Env, stored bool, text string) (*cel.Ast, *cel.Issues) {
	if p == nil {
		return env.Compile(text)
	}
	key := parseKey{stored, text}
	if pe, ok := p.m[key]; ok {
		return env.Check(cel.ParsedExprToAstWithSource(pe, common.NewTextSource(text)))
	}
	parsed, issues := env.Parse(text)
	if issues != nil && issues.Err() != nil {
		return nil, issues
	}
	if !celast.ExceedsDepth(parsed.NativeRep(), maxLoadedDepth) {
		if pe, err := cel.AstToParsedExpr(parsed); err == nil {
			if p.m == nil {
				p.m = map[parseKey]*exprpb.ParsedExpr{}
			}
			p.m[key] = pe
		}
	}
	return env.Check(parsed)
}

// sizeEstimator tells the cost estimator how big the value an expression
// reads can be, by walking its path ("self", "spec", "@items"…) down the
// DeclType tree to the node's MaxElements.
//
// Mirrors sizeEstimator in compilation.go.
type sizeEstimator struct{ root *DeclType }

func (e *sizeEstimator) EstimateSize(element checker.AstNode) *checker.SizeEstimate {
	path := element.Path()
	if len(path) == 0 {
		return nil
	}
	node := e.root
	for _, name := range path[1:] { // path[0] is self
		switch name {
		case "@items", "@values":
			if node.ElemType == nil {
				return nil
			}
			node = node.ElemType
		case "@keys":
			if node.KeyType == nil {
				return nil
			}
			node = node.KeyType
		default:
			f, ok := node.Fields[name]
			if !ok || f.Type == nil {
				return nil
			}
			node = f.Type
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(node.MaxElements)}
}

func (e *sizeEstimator) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// maxCardinality is how many values of at least minSize bytes fit in one
// request, each followed by a comma: the most times a rule under
// unbounded lists or maps can run.
func maxCardinality(minSize int64) uint64 {
	return uint64(library.MaxRequestSizeBytes / (minSize + 1))
}
