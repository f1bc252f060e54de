package cel

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"

	"github.com/crdlab/crdlab/apis/apiextensions/cel/library"
	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	"github.com/crdlab/crdlab/apis/validation/field"
)

// Validator holds the compiled rules of a schema, in a tree shaped like
// the schema but only as deep as there are rules: Items, Properties and
// AdditionalProperties lead to the nodes below that have some.
//
// It is built once per CRD version and used by every request, from many
// goroutines: nothing in it changes after NewValidator.
//
// Mirrors cel.Validator in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go.
type Validator struct {
	Items                *Validator
	Properties           map[string]*Validator
	AdditionalProperties *Validator

	// Schema is the node the rules sit on.
	Schema *structural.Structural

	rules    []Rule
	compiled []CompilationResult
	// compileErr is set if the node's rules could not be compiled at all
	// (a CRD that passed validation should never get here).
	compileErr error
	// isResourceRoot: the node is the root of the resource or of an
	// embedded resource; self then has apiVersion, kind and metadata.
	isResourceRoot bool
	// usesOldSelf: a rule of this node reads oldSelf.
	usesOldSelf bool
}

// NewValidator compiles every rule of s and below. It returns nil if s has
// no rules. Rules that do not compile become errors at validation time.
//
// Mirrors cel.NewValidator.
func NewValidator(s *structural.Structural, isResourceRoot bool, perCallLimit uint64) *Validator {
	if !hasRules(s) {
		return nil
	}
	return newValidator(s, isResourceRoot, SchemaDeclType(s, isResourceRoot), perCallLimit)
}

func newValidator(s *structural.Structural, isResourceRoot bool, declType *DeclType, perCallLimit uint64) *Validator {
	rules := RulesOf(s)
	compiled, err := Compile(s, rules, declType, perCallLimit, AllStored{})
	v := &Validator{Schema: s, rules: rules, compiled: compiled, compileErr: err, isResourceRoot: isResourceRoot}
	for _, c := range compiled {
		v.usesOldSelf = v.usesOldSelf || c.UsesOldSelf
	}
	var elem *DeclType
	if declType != nil {
		elem = declType.ElemType
	}
	if s.Items != nil {
		v.Items = newChildValidator(s.Items, elem, perCallLimit)
	}
	for name, prop := range s.Properties {
		var ft *DeclType
		if escaped, ok := Escape(name); ok {
			if declType == nil {
				continue
			}
			f, ok := declType.Fields[escaped]
			if !ok {
				continue // a field without a type is out of reach of rules
			}
			ft = f.Type
		} else if ft = SchemaDeclType(prop, prop.XEmbeddedResource); ft == nil {
			continue
		}
		if c := newChildValidator(prop, ft, perCallLimit); c != nil {
			if v.Properties == nil {
				v.Properties = map[string]*Validator{}
			}
			v.Properties[name] = c
		}
	}
	if s.AdditionalProperties != nil {
		v.AdditionalProperties = newChildValidator(s.AdditionalProperties, elem, perCallLimit)
	}
	if len(compiled) == 0 && err == nil && v.Items == nil && v.AdditionalProperties == nil && len(v.Properties) == 0 {
		return nil
	}
	return v
}

func newChildValidator(s *structural.Structural, declType *DeclType, perCallLimit uint64) *Validator {
	if !hasRules(s) {
		return nil
	}
	return newValidator(s, s.XEmbeddedResource, declType, perCallLimit)
}

func hasRules(s *structural.Structural) bool {
	if s == nil {
		return false
	}
	if len(s.XValidations) > 0 || hasRules(s.Items) || hasRules(s.AdditionalProperties) {
		return true
	}
	for _, p := range s.Properties {
		if hasRules(p) {
			return true
		}
	}
	return false
}

// Options are what one Validate call needs besides the objects.
type Options struct {
	// Correlation pairs the new and the old object of an update, for
	// ratcheting; nil on create (nothing is ratcheted).
	Correlation *CorrelatedObject
	// Warn receives the errors that ratcheting turned into warnings.
	Warn func(msg string)
}

// Validate runs every rule at every node of obj that declares some, and
// returns the violations and what is left of costBudget. oldObj is the
// object before an update (nil on create): transition rules (those that
// read oldSelf) run only where an old value exists, unless their
// optionalOldSelf is true.
//
// Once the budget runs out, no further rule runs and the remaining budget
// returned is negative.
//
// Mirrors (*Validator).Validate.
func (v *Validator) Validate(ctx context.Context, fldPath *field.Path, obj, oldObj any, costBudget int64, opts Options) (field.ErrorList, int64) {
	return v.validate(ctx, fldPath, obj, oldObj, ratchet{current: opts.Correlation}, costBudget, opts.Warn)
}

// ratchet is the correlation at the current node, or (if the node cannot
// be correlated) at its nearest correlatable ancestor.
//
// Mirrors ratchetingOptions.
type ratchet struct {
	current, nearestParent *CorrelatedObject
}

// shouldRatchet says whether errors at this node become warnings: the node
// (or its nearest correlatable ancestor) is unchanged.
func (r ratchet) shouldRatchet() bool {
	if r.current != nil {
		return r.current.CachedDeepEqual()
	}
	return r.nearestParent.CachedDeepEqual()
}

func (r ratchet) key(name string) ratchet {
	if r.current == nil {
		return r
	}
	if r.nearestParent == nil && (name == "apiVersion" || name == "kind") {
		// Both old and new are converted to one version: a change of
		// these cannot be seen, so they are never ratcheted.
		return ratchet{}
	}
	return ratchet{current: r.current.Key(name), nearestParent: r.current}
}

func (r ratchet) index(i int) ratchet {
	if r.current == nil {
		return r
	}
	return ratchet{current: r.current.Index(i), nearestParent: r.current}
}

func (v *Validator) validate(ctx context.Context, fldPath *field.Path, obj, oldObj any, r ratchet, budget int64, warn func(string)) (field.ErrorList, int64) {
	if v == nil || obj == nil {
		return nil, budget
	}
	errs, budget := v.validateExpressions(ctx, fldPath, obj, oldObj, r, budget, warn)
	if budget < 0 {
		return errs, budget
	}
	switch obj := obj.(type) {
	case []any:
		if v.Items == nil {
			return errs, budget
		}
		oldList, _ := oldObj.([]any)
		// Only map lists correlate old items with new ones.
		old := makeMapList(v.Schema, oldList)
		for i, item := range obj {
			var e field.ErrorList
			e, budget = v.Items.validate(ctx, fldPath.Index(i), item, old.get(item), r.index(i), budget, warn)
			errs = append(errs, e...)
			if budget < 0 {
				return errs, budget
			}
		}
	case map[string]any:
		oldMap, _ := oldObj.(map[string]any)
		correlatable := mapIsCorrelatable(v.Schema.XMapType)
		for k, val := range obj {
			var sub *Validator
			var p *field.Path
			switch {
			case v.AdditionalProperties != nil:
				sub, p = v.AdditionalProperties, fldPath.Key(k)
			case v.Properties[k] != nil:
				sub, p = v.Properties[k], fldPath.Child(k)
			default:
				continue
			}
			var oldV any
			if correlatable {
				oldV = oldMap[k]
			}
			var e field.ErrorList
			e, budget = sub.validate(ctx, p, val, oldV, r.key(k), budget, warn)
			errs = append(errs, e...)
			if budget < 0 {
				return errs, budget
			}
		}
	}
	return errs, budget
}

// mapIsCorrelatable says whether the entries of a map of this
// x-kubernetes-map-type keep their identity across updates (granular, the
// default, and atomic do).
//
// Mirrors cel.MapIsCorrelatable.
func MapIsCorrelatable(mapType *string) bool {
	return mapType == nil || *mapType == "granular" || *mapType == "atomic"
}

func mapIsCorrelatable(mapType *string) bool { return MapIsCorrelatable(mapType) }

// activation resolves self and oldSelf.
type activation struct {
	self, oldSelf ref.Val
	hasOldSelf    bool
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case ScopedVarName:
		return a.self, true
	case OldScopedVarName:
		return a.oldSelf, a.hasOldSelf
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

// activations builds the activation for plain rules and the one for rules
// with optionalOldSelf (where oldSelf is an optional, none on create).
func (v *Validator) activations(s *structural.Structural, obj, oldObj any) (plain, optional *activation) {
	plain = &activation{self: UnstructuredToVal(obj, s)}
	if !v.usesOldSelf {
		return plain, plain
	}
	optional = &activation{self: plain.self, hasOldSelf: true, oldSelf: types.OptionalNone}
	if oldObj != nil {
		plain.oldSelf = UnstructuredToVal(oldObj, s)
		plain.hasOldSelf = true
		optional.oldSelf = types.OptionalOf(plain.oldSelf)
	}
	return plain, optional
}

func (v *Validator) validateExpressions(ctx context.Context, fldPath *field.Path, obj, oldObj any, r ratchet, budget int64, warn func(string)) (errs field.ErrorList, remaining int64) {
	s := v.Schema
	remaining = budget
	if obj == nil {
		// Only non-null values are validated; a rule on the parent can
		// check for null.
		return nil, remaining
	}
	if m, ok := oldObj.(map[string]any); ok && m == nil {
		oldObj = nil
	}
	if l, ok := oldObj.([]any); ok && l == nil {
		oldObj = nil
	}
	if v.compileErr != nil {
		return field.ErrorList{field.Invalid(fldPath, s.Type, fmt.Sprintf("rule compiler initialization error: %v", v.compileErr))}, remaining
	}
	if len(v.compiled) == 0 {
		return nil, remaining
	}
	if remaining <= 0 {
		return field.ErrorList{field.Invalid(fldPath, s.Type, "validation failed due to running out of cost budget, no further validation rules will be run")}, -1
	}
	if v.isResourceRoot {
		s = WithTypeAndObjectMeta(s)
	}
	act, optAct := v.activations(s, obj, oldObj)
	for i, c := range v.compiled {
		rule := v.rules[i]
		if c.Error != nil {
			errs = append(errs, field.Invalid(fldPath, s.Type, fmt.Sprintf("rule compile error: %v", c.Error)))
			continue
		}
		if c.Program == nil {
			continue // an empty rule
		}
		optionalOldSelf := rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
		if c.UsesOldSelf && oldObj == nil && !optionalOldSelf {
			// A transition rule needs an old value to compare with.
			continue
		}
		ruleAct := act
		if optionalOldSelf {
			ruleAct = optAct
		}
		result, details, err := c.Program.ContextEval(ctx, ruleAct)
		if details == nil {
			return append(errs, field.InternalError(fldPath, fmt.Errorf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleErrorString(rule)))), -1
		}
		cost := details.ActualCost()
		if cost == nil {
			return append(errs, field.Invalid(fldPath, s.Type, fmt.Sprintf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleErrorString(rule)))), -1
		}
		if *cost > math.MaxInt64 || int64(*cost) > remaining {
			return append(errs, field.Invalid(fldPath, s.Type, "validation failed due to running out of cost budget, no further validation rules will be run")), -1
		}
		remaining -= int64(*cost)
		if err != nil {
			msg := err.Error()
			switch {
			case strings.HasPrefix(msg, "no such overload"):
				// Only a dynamically typed value (int-or-string) gets
				// past the type checker to fail like this.
				errs = append(errs, field.Invalid(fldPath, s.Type, fmt.Sprintf("'%v': call arguments did not match a supported operator, function or macro signature for rule: %v", err, ruleErrorString(rule))))
			case strings.HasPrefix(msg, "operation cancelled: actual cost limit exceeded"):
				return append(errs, field.Invalid(fldPath, s.Type, fmt.Sprintf("'%v': no further validation rules will be run due to call cost exceeds limit for rule: %v", err, ruleErrorString(rule)))), -1
			default:
				// no such key, index out of bounds, overflow, division by zero…
				errs = append(errs, field.Invalid(fldPath, s.Type, fmt.Sprintf("%v evaluating rule: %v", err, ruleErrorString(rule))))
			}
			continue
		}
		if result == types.True {
			continue
		}

		path := fldPath
		if c.NormalizedRuleFieldPath != "" {
			path = path.Child(c.NormalizedRuleFieldPath)
		}
		// Errors of a rule that does not read oldSelf, on an unchanged
		// part of the object, become warnings (ratcheting).
		add := func(e *field.Error) {
			if !c.UsesOldSelf && r.shouldRatchet() {
				if warn != nil {
					warn(e.Error())
				}
				return
			}
			errs = append(errs, e)
		}
		detail, ok := "", false
		if c.MessageExpression != nil {
			msg, left, msgErr := evalMessageExpression(ctx, c.MessageExpression, rule.MessageExpression, act, remaining)
			switch {
			case msgErr == nil:
				detail, ok, remaining = msg, true, left
			case msgErr.Type == ErrorTypeInternal:
				add(field.InternalError(path, msgErr))
				return errs, -1
			case msgErr.Type == ErrorTypeInvalid:
				add(field.Invalid(path, s.Type, msgErr.Error()))
				return errs, -1
			default:
				// The message is wrong, not the object: fall back to
				// the rule's message.
				remaining = left
			}
		}
		if !ok {
			detail = ruleMessageOrDefault(rule)
		}
		var value any = obj
		if s.Type == "object" || s.Type == "array" {
			value = field.OmitValue
		}
		add(fieldErrorForReason(path, value, detail, rule.Reason))
	}
	return errs, remaining
}

// fieldErrorForReason makes the error a failed rule reports.
func fieldErrorForReason(p *field.Path, value any, detail string, reason *string) *field.Error {
	if reason == nil {
		return field.Invalid(p, value, detail)
	}
	switch *reason {
	case "FieldValueForbidden":
		return field.Forbidden(p, detail)
	case "FieldValueRequired":
		return field.Required(p, detail)
	case "FieldValueDuplicate":
		return field.Duplicate(p, value)
	}
	return field.Invalid(p, value, detail)
}

// evalMessageExpression runs a messageExpression. An error of type ""
// (neither Invalid nor Internal) means the message could not be made and
// the rule's message is used instead.
func evalMessageExpression(ctx context.Context, prog cel.Program, src string, act interpreter.Activation, budget int64) (string, int64, *Error) {
	result, details, err := prog.ContextEval(ctx, act)
	if details == nil || details.ActualCost() == nil {
		return "", -1, &Error{ErrorTypeInternal, fmt.Sprintf("runtime cost could not be calculated for messageExpression: %q", src)}
	}
	cost := *details.ActualCost()
	if cost > math.MaxInt64 || int64(cost) > budget {
		return "", -1, &Error{ErrorTypeInvalid, "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"}
	}
	left := budget - int64(cost)
	if err != nil {
		if strings.HasPrefix(err.Error(), "operation cancelled: actual cost limit exceeded") {
			return "", -1, &Error{ErrorTypeInvalid, fmt.Sprintf("no further validation rules will be run due to call cost exceeds limit for messageExpression: %q", src)}
		}
		return "", left, &Error{Detail: "messageExpression evaluation failed due to: " + err.Error()}
	}
	msg, ok := result.Value().(string)
	if !ok {
		return "", left, &Error{Detail: "messageExpression failed to convert to string"}
	}
	msg = strings.TrimSpace(msg)
	switch {
	case len(msg) > library.MaxEvaluatedMessageExpressionSizeBytes:
		return "", left, &Error{Detail: fmt.Sprintf("messageExpression beyond allowable length of %d", library.MaxEvaluatedMessageExpressionSizeBytes)}
	case strings.Contains(msg, "\n"):
		return "", left, &Error{Detail: "messageExpression should not contain line breaks"}
	case msg == "":
		return "", left, &Error{Detail: "messageExpression should evaluate to a non-empty string"}
	}
	return msg, left, nil
}

func ruleMessageOrDefault(r Rule) string {
	if r.Message == "" {
		return "failed rule: " + ruleErrorString(r)
	}
	return strings.TrimSpace(r.Message)
}

func ruleErrorString(r Rule) string {
	if r.Message != "" {
		return strings.TrimSpace(r.Message)
	}
	return strings.TrimSpace(r.Rule)
}

var newlineMatcher = regexp.MustCompile(`[\n\r]+`)

// hasNewlines reports line breaks as CEL's grammar knows them.
func hasNewlines(s string) bool { return newlineMatcher.MatchString(s) }
