package cel

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/crdlab/crdlab/apis/apiextensions/cel/library"
	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	"github.com/crdlab/crdlab/apis/validation/field"
)

// Cost limits of a CRD's rules, checked when the CRD is written.
//
// Mirrors the constants of k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation.
const (
	// StaticEstimatedCostLimit bounds the estimated cost of one rule (its
	// cost times how often it can run in one object).
	StaticEstimatedCostLimit = 10_000_000
	// StaticEstimatedCRDCostLimit bounds the sum over a schema.
	StaticEstimatedCRDCostLimit = 100_000_000
)

// SupportedReasons are the values a rule's reason may take.
var SupportedReasons = []string{"FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"}

// CRDOptions say how a CRD version's rules are checked.
type CRDOptions struct {
	// Compile compiles the rules and checks their cost. Upstream does so
	// only when the schema is otherwise valid (structural, defaults
	// pruned and valid): a broken schema has no CEL types to check with.
	Compile bool
	// Stored lists the expressions of the CRD before an update: they may
	// use what only the Stored environment has. Nil on create.
	Stored StoredExpressions
	// SuppressPerExpressionCost skips the per-rule cost limit, for a
	// version whose schema an update does not change.
	SuppressPerExpressionCost bool
	// Parses, if set, parses each expression once for all the versions
	// of one CRD (nil: each is parsed where it is compiled).
	Parses *Parses
}

// ValidateSchemaRules checks the x-kubernetes-validations of one CRD
// version's schema (root, reported under fldPath, the openAPIV3Schema):
// the fields of each rule (rule, message, messageExpression, reason,
// fieldPath); and, with opts.Compile, that every expression compiles, that
// transition rules sit where oldSelf can be correlated, and the estimated
// cost of each rule and of the whole schema.
//
// The messages and paths are upstream's; a rule's value is shown as the
// internal ValidationRule struct, as upstream prints it.
//
// Mirrors the x-kubernetes-validations part of
// ValidateCustomResourceDefinitionOpenAPISchema and the cost check of
// validateCustomResourceDefinitionValidation in
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go,
// with CELSchemaContext (cel_validation.go).
func ValidateSchemaRules(root *structural.Structural, fldPath *field.Path, opts CRDOptions) field.ErrorList {
	if root == nil {
		return nil
	}
	w := &crdWalker{opts: opts}
	one := uint64(1)
	ctx := nodeContext{cardinality: &one}
	if opts.Compile && len(root.XValidations) > 0 {
		ctx.inScope, ctx.declType = true, SchemaDeclType(root, true)
		ctx.typeErr = ctx.declType == nil
	}
	w.walk(root, fldPath, ctx)
	errs := w.errs
	if opts.Compile && w.total > StaticEstimatedCRDCostLimit {
		for _, e := range w.mostExpensive {
			errs = append(errs, field.Forbidden(e.path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"))
		}
		errs = append(errs, field.Forbidden(fldPath, costErrorMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", w.total, StaticEstimatedCRDCostLimit)))
	}
	return errs
}

// nodeContext is what the walk knows at a schema node.
type nodeContext struct {
	// inScope: the node or an ancestor has rules. declType is then the
	// node's CEL type as seen from the nearest such ancestor, and typeErr
	// says it could not be made.
	inScope  bool
	declType *DeclType
	typeErr  bool
	// cardinality is how many times the node can occur in one object;
	// nil if unbounded.
	cardinality *uint64
	// uncorrelatable is the outermost array (not a map list) above the
	// node: oldSelf cannot be used below it.
	uncorrelatable *field.Path
	// junctor: inside allOf/anyOf/oneOf/not, where rules are checked but
	// not compiled.
	junctor bool
}

type crdWalker struct {
	opts          CRDOptions
	errs          field.ErrorList
	total         uint64
	mostExpensive []ruleCost
}

type ruleCost struct {
	path *field.Path
	cost uint64
}

// observe adds a rule's cost to the total and keeps the four most
// expensive (of those above 1% of the limit).
//
// Mirrors (*TotalCost).ObserveExpressionCost.
func (w *crdWalker) observe(p *field.Path, cost uint64) {
	if math.MaxUint64-w.total < cost {
		w.total = math.MaxUint64
	} else {
		w.total += cost
	}
	if cost < StaticEstimatedCRDCostLimit/100 {
		return
	}
	w.mostExpensive = append(w.mostExpensive, ruleCost{p, cost})
	sort.SliceStable(w.mostExpensive, func(i, j int) bool { return w.mostExpensive[i].cost > w.mostExpensive[j].cost })
	if len(w.mostExpensive) > 4 {
		w.mostExpensive = w.mostExpensive[:4]
	}
}

// walk visits s and everything below it; it returns whether rule fields
// at s or below were wrong (which, as upstream, keeps the rules of s from
// being compiled).
func (w *crdWalker) walk(s *structural.Structural, p *field.Path, ctx nodeContext) (bad bool) {
	if s == nil {
		return false
	}
	child := func(c *structural.Structural, cp *field.Path, accessed *DeclType, uncorrelatable *field.Path) bool {
		cc := nodeContext{uncorrelatable: ctx.uncorrelatable, junctor: ctx.junctor}
		if cc.uncorrelatable == nil {
			cc.uncorrelatable = uncorrelatable
		}
		if ctx.cardinality != nil {
			if n := maxElements(s); n != nil {
				v := multiplyWithOverflowGuard(*ctx.cardinality, *n)
				cc.cardinality = &v
			}
		}
		if w.opts.Compile && !ctx.junctor {
			// The CEL type of a node with rules comes from the nearest
			// ancestor with rules if there is one, else from the node.
			switch {
			case ctx.inScope && ctx.typeErr:
				cc.inScope, cc.typeErr = true, true
			case ctx.inScope && accessed != nil:
				cc.inScope, cc.declType = true, accessed
			case ctx.inScope || len(c.XValidations) > 0:
				cc.inScope, cc.declType = true, SchemaDeclType(c, c.XEmbeddedResource)
				cc.typeErr = cc.declType == nil
			}
		}
		return w.walk(c, cp, cc)
	}
	var elem *DeclType
	if ctx.declType != nil {
		elem = ctx.declType.ElemType
	}
	if s.AdditionalProperties != nil {
		bad = child(s.AdditionalProperties, p.Child("additionalProperties"), elem, nil) || bad
	}
	var pp *field.Path // made once for all the properties
	if len(s.Properties) > 0 {
		pp = p.Child("properties")
	}
	for _, name := range sortedKeys(s.Properties) {
		var accessed *DeclType
		if ctx.declType != nil {
			if escaped, ok := Escape(name); ok {
				if f, ok := ctx.declType.Fields[escaped]; ok {
					accessed = f.Type
				}
			}
		}
		var unc *field.Path
		if !MapIsCorrelatable(s.XMapType) {
			unc = p
		}
		bad = child(s.Properties[name], pp.Key(name), accessed, unc) || bad
	}
	junctor := func(j *structural.Structural, jp *field.Path) {
		if j != nil {
			bad = w.walk(j, jp, nodeContext{junctor: true}) || bad
		}
	}
	if s.Not != nil {
		junctor(s.Not, p.Child("not"))
	}
	for i, j := range s.AllOf {
		junctor(j, p.Child("allOf").Index(i))
	}
	for i, j := range s.OneOf {
		junctor(j, p.Child("oneOf").Index(i))
	}
	for i, j := range s.AnyOf {
		junctor(j, p.Child("anyOf").Index(i))
	}
	if s.Items != nil {
		var unc *field.Path
		if s.XListType == nil || *s.XListType != "map" {
			unc = p
		}
		bad = child(s.Items, p.Child("items"), elem, unc) || bad
	}

	rules := RulesOf(s)
	if len(rules) == 0 {
		return bad
	}
	for i, r := range rules {
		rp := p.Child("x-kubernetes-validations").Index(i)
		if e := validateRuleFields(s, r, rp); len(e) > 0 {
			w.errs = append(w.errs, e...)
			bad = true
		}
	}
	if bad || ctx.junctor || !w.opts.Compile {
		return bad
	}
	if ctx.typeErr || ctx.declType == nil {
		w.errs = append(w.errs, field.InternalError(p.Child("x-kubernetes-validations"), fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %s", "unable to convert structural schema to CEL declarations")))
		return bad
	}
	results, err := compile(s, rules, ctx.declType, library.PerCallLimit, w.opts.Stored, w.opts.Parses)
	if err != nil {
		w.errs = append(w.errs, field.InternalError(p.Child("x-kubernetes-validations"), err))
		return bad
	}
	for i, cr := range results {
		rp := p.Child("x-kubernetes-validations").Index(i)
		cost := cr.MaxCost
		if ctx.cardinality != nil {
			cost = multiplyWithOverflowGuard(cost, *ctx.cardinality)
		} else {
			cost = multiplyWithOverflowGuard(cost, cr.MaxCardinality)
		}
		if !w.opts.SuppressPerExpressionCost && cost > StaticEstimatedCostLimit {
			w.errs = append(w.errs, field.Forbidden(rp.Child("rule"), costErrorMessage("estimated rule cost", cost, StaticEstimatedCostLimit)))
		}
		w.observe(rp.Child("rule"), cost)
		if cr.Error != nil {
			if cr.Error.Type == ErrorTypeRequired {
				w.errs = append(w.errs, field.Required(rp.Child("rule"), cr.Error.Detail))
			} else {
				w.errs = append(w.errs, field.Invalid(rp.Child("rule"), upstreamRule(rules[i]), cr.Error.Detail))
			}
		}
		if cr.MessageExpressionError != nil {
			w.errs = append(w.errs, field.Invalid(rp.Child("messageExpression"), upstreamRule(rules[i]), cr.MessageExpressionError.Detail))
		} else if cr.MessageExpression != nil {
			if !w.opts.SuppressPerExpressionCost && cr.MessageExpressionMaxCost > StaticEstimatedCostLimit {
				w.errs = append(w.errs, field.Forbidden(rp.Child("messageExpression"), costErrorMessage("estimated messageExpression cost", cr.MessageExpressionMaxCost, StaticEstimatedCostLimit)))
			}
			w.observe(rp.Child("messageExpression"), cr.MessageExpressionMaxCost)
		}
		if cr.UsesOldSelf {
			if ctx.uncorrelatable != nil {
				w.errs = append(w.errs, field.Invalid(rp.Child("rule"), rules[i].Rule, fmt.Sprintf("oldSelf cannot be used on the uncorrelatable portion of the schema within %v", ctx.uncorrelatable)))
			}
		} else if rules[i].OptionalOldSelf != nil {
			w.errs = append(w.errs, field.Invalid(rp.Child("optionalOldSelf"), *rules[i].OptionalOldSelf, "may not be set if oldSelf is not used in rule"))
		}
	}
	return bad
}

// validateRuleFields checks what can be checked of a rule without
// compiling it.
func validateRuleFields(s *structural.Structural, r Rule, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	rule, msg, msgExpr := strings.TrimSpace(r.Rule), strings.TrimSpace(r.Message), strings.TrimSpace(r.MessageExpression)
	switch {
	case rule == "":
		errs = append(errs, field.Required(p.Child("rule"), "rule is not specified"))
	case r.Message != "" && msg == "":
		errs = append(errs, field.Invalid(p.Child("message"), r.Message, "must be non-empty if specified"))
	case hasNewlines(msg):
		errs = append(errs, field.Invalid(p.Child("message"), r.Message, "must not contain line breaks"))
	case hasNewlines(rule) && msg == "":
		errs = append(errs, field.Required(p.Child("message"), "message must be specified if rule contains line breaks"))
	}
	if r.MessageExpression != "" && msgExpr == "" {
		errs = append(errs, field.Required(p.Child("messageExpression"), "messageExpression must be non-empty if specified"))
	}
	if r.Reason != nil && !contains(SupportedReasons, *r.Reason) {
		errs = append(errs, field.NotSupported(p.Child("reason"), *r.Reason, SupportedReasons))
	}
	if r.FieldPath != "" && strings.TrimSpace(r.FieldPath) == "" {
		errs = append(errs, field.Invalid(p.Child("fieldPath"), r.FieldPath, "must be non-empty if specified"))
	}
	if hasNewlines(r.FieldPath) {
		errs = append(errs, field.Invalid(p.Child("fieldPath"), r.FieldPath, "must not contain line breaks"))
	}
	if r.FieldPath != "" {
		if _, _, err := ValidFieldPath(r.FieldPath, s); err != nil {
			errs = append(errs, field.Invalid(p.Child("fieldPath"), r.FieldPath, "must be a valid path"))
		}
	}
	return errs
}

// upstreamRule is a rule as upstream prints it in an error: the internal
// apiextensions.ValidationRule, which has no JSON tags.
type upstreamRule struct {
	Rule              string
	Message           string
	MessageExpression string
	Reason            *string
	FieldPath         string
	OptionalOldSelf   *bool
}

// maxElements is how many children a node can have: its maxProperties
// (maps) or maxItems (arrays), nil if unbounded; 1 for anything else.
//
// Mirrors extractMaxElements in cel_validation.go.
func maxElements(s *structural.Structural) *uint64 {
	one := uint64(1)
	switch s.Type {
	case "object":
		if s.AdditionalProperties != nil || s.AdditionalPropertiesBool != nil {
			if s.MaxProperties != nil {
				n := uint64(zeroIfNegative(*s.MaxProperties))
				return &n
			}
			return nil
		}
		return &one
	case "array":
		if s.MaxItems != nil {
			n := uint64(zeroIfNegative(*s.MaxItems))
			return &n
		}
		return nil
	}
	return &one
}

func multiplyWithOverflowGuard(base, cardinality uint64) uint64 {
	switch {
	case base == 0:
		return 0
	case math.MaxUint64/base < cardinality:
		return math.MaxUint64
	}
	return base * cardinality
}

// costErrorMessage mirrors getCostErrorMessage.
func costErrorMessage(name string, cost, limit uint64) string {
	factor := float64(cost) / float64(limit)
	var f string
	switch {
	case factor > 100.0:
		f = "more than 100x"
	case factor < 1.5:
		f = strconv.FormatFloat(factor, 'f', 6, 64) + "x"
	default:
		f = strconv.FormatFloat(factor, 'f', 1, 64) + "x"
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", name, f)
}

func sortedKeys(m map[string]*structural.Structural) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
