package crdgen

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
)

// Options say what CRDs look like. The zero value is filled in by
// defaults: 256 KiB, two versions, blocks nested up to five deep.
type Options struct {
	// Group is the API group of every CRD ("provider.example.io").
	Group string
	// Bytes is the target JSON size of one CRD, all versions together
	// (within a few percent).
	Bytes int
	// Versions is how many versions each CRD serves (v1alpha1, v1beta1,
	// v1beta2, v1, …); the last one is the storage version.
	Versions int
	// Depth is how deep blocks nest below forProvider.
	Depth int
	// Seed picks the names, descriptions and shapes.
	Seed uint64
}

func (o Options) withDefaults() Options {
	if o.Group == "" {
		o.Group = "provider.example.io"
	}
	if o.Bytes <= 0 {
		o.Bytes = 256 << 10
	}
	if o.Versions <= 0 {
		o.Versions = 2
	}
	if o.Depth <= 0 {
		o.Depth = 5
	}
	return o
}

// versionNames are the version names, oldest first.
var versionNames = []string{"v1alpha1", "v1alpha2", "v1beta1", "v1beta2", "v1beta3", "v1", "v2", "v3"}

// Names are the names of CRD i.
type Names struct {
	Kind, Plural, Singular, Name, Group string
	// Versions are the version names, the storage version last.
	Versions []string
}

// NamesOf returns the names of CRD i.
func NamesOf(i int, o Options) Names {
	o = o.withDefaults()
	r := rand.New(rand.NewPCG(o.Seed, uint64(i)))
	kind := title(pick(r, nouns)) + title(pick(r, nouns)) + title(pick(r, nouns)) + fmt.Sprint(i)
	plural := strings.ToLower(kind) + "s"
	n := Names{Kind: kind, Plural: plural, Singular: strings.ToLower(kind), Name: plural + "." + o.Group, Group: o.Group}
	first := max(len(versionNames)-o.Versions, 0)
	if o.Versions > len(versionNames) {
		for v := range o.Versions {
			n.Versions = append(n.Versions, fmt.Sprintf("v%d", v+1))
		}
	} else {
		n.Versions = append(n.Versions, versionNames[first-max(first-2, 0):][:o.Versions]...)
	}
	return n
}

// CRD returns CRD i as JSON: apiextensions.k8s.io/v1
// CustomResourceDefinition, cluster-scoped, with the status subresource
// and Crossplane's printer columns.
func CRD(i int, o Options) []byte {
	o = o.withDefaults()
	n, g, params := build(i, o)
	req := required(params)

	versions := make([]any, len(n.Versions))
	for v, name := range n.Versions {
		// Later versions add a parameter or two, as providers' do.
		vp := params
		if v > 0 {
			vp = cloneProps(params)
			for range v {
				k, p := g.param(0, 400)
				vp[k] = p
			}
		}
		versions[v] = map[string]any{
			"name":                     name,
			"served":                   true,
			"storage":                  v == len(n.Versions)-1,
			"subresources":             map[string]any{"status": map[string]any{}},
			"additionalPrinterColumns": printerColumns,
			"schema":                   map[string]any{"openAPIV3Schema": g.root(n, vp, req)},
		}
	}
	crd := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata": map[string]any{
			"name":        n.Name,
			"annotations": map[string]any{"controller-gen.kubebuilder.io/version": "v0.16.3"},
		},
		"spec": map[string]any{
			"group": o.Group,
			"names": map[string]any{
				"kind": n.Kind, "listKind": n.Kind + "List", "plural": n.Plural, "singular": n.Singular,
				"categories": []any{"crossplane", "managed", "example"},
			},
			"scope":    "Cluster",
			"versions": versions,
		},
	}
	b, err := json.Marshal(crd)
	if err != nil {
		panic(err) // maps of strings, numbers and slices always marshal
	}
	return b
}

// build returns the names of CRD i, the generator it goes on with, and
// the parameters of its first version.
func build(i int, o Options) (Names, *gen, map[string]any) {
	n := NamesOf(i, o)
	g := &gen{r: rand.New(rand.NewPCG(o.Seed, uint64(i)+1<<32)), depth: o.Depth}
	// One version's schema is about Bytes/Versions; forProvider,
	// initProvider and atProvider each hold the parameters once, so the
	// parameters get a third of that, less the fixed parts.
	perVersion := o.Bytes / o.Versions
	fixed, _ := json.Marshal(map[string]any{"schema": (&gen{r: rand.New(rand.NewPCG(0, 0))}).root(n, map[string]any{}, nil),
		"additionalPrinterColumns": printerColumns, "name": n.Versions[0], "served": true, "storage": true})
	return n, g, g.params(max((perVersion-len(fixed)-200)/3, 300), 0)
}

// required returns the parameters the CEL rules require: the first three
// string parameters by name.
func required(params map[string]any) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(params)) {
		if len(out) == 3 {
			break
		}
		if params[k].(map[string]any)["type"] == "string" {
			out = append(out, k)
		}
	}
	return out
}

// Object returns an instance of CRD i in its storage version, named name,
// with the parameters its rules require set.
func Object(i int, o Options, name string) []byte {
	n, _, params := build(i, o.withDefaults())
	forProvider := map[string]any{}
	for _, k := range required(params) {
		forProvider[k] = "value-of-" + k
		if enum, ok := params[k].(map[string]any)["enum"].([]any); ok {
			forProvider[k] = enum[0]
		}
	}
	obj := map[string]any{
		"apiVersion": n.Group + "/" + n.Versions[len(n.Versions)-1],
		"kind":       n.Kind,
		"metadata":   map[string]any{"name": name},
		"spec": map[string]any{
			"forProvider":       forProvider,
			"providerConfigRef": map[string]any{"name": "default"},
		},
	}
	b, _ := json.Marshal(obj)
	return b
}

var printerColumns = []any{
	map[string]any{"jsonPath": `.status.conditions[?(@.type=='Ready')].status`, "name": "READY", "type": "string"},
	map[string]any{"jsonPath": `.status.conditions[?(@.type=='Synced')].status`, "name": "SYNCED", "type": "string"},
	map[string]any{"jsonPath": `.metadata.annotations.crossplane\.io/external-name`, "name": "EXTERNAL-NAME", "type": "string"},
	map[string]any{"jsonPath": ".metadata.creationTimestamp", "name": "AGE", "type": "date"},
}

// gen makes schemas from one random source.
type gen struct {
	r     *rand.Rand
	depth int
}

// root returns the openAPIV3Schema of one version around params.
// req are the parameters the CEL rules require (they are in every
// version).
func (g *gen) root(n Names, params map[string]any, req []string) map[string]any {
	forProvider := cloneProps(params)
	initProvider := cloneProps(params)
	atProvider := map[string]any{"id": g.str()}
	for k, p := range params {
		if strings.HasSuffix(k, "Ref") || strings.HasSuffix(k, "Selector") {
			continue
		}
		atProvider[k] = p
	}
	// CEL rules for a few required parameters, as upjet writes them.
	var rules []any
	for _, k := range req {
		rules = append(rules, map[string]any{
			"rule": "!('*' in self.managementPolicies || 'Create' in self.managementPolicies || 'Update' in self.managementPolicies) || " +
				"has(self.forProvider." + k + ") || (has(self.initProvider) && has(self.initProvider." + k + "))",
			"message": "spec.forProvider." + k + " is a required parameter",
		})
	}
	spec := map[string]any{
		"description": n.Kind + "Spec defines the desired state of " + n.Kind,
		"type":        "object",
		"required":    []any{"forProvider"},
		"properties": map[string]any{
			"deletionPolicy": map[string]any{
				"default": "Delete", "enum": []any{"Orphan", "Delete"}, "type": "string",
				"description": "DeletionPolicy specifies what will happen to the underlying external when this managed resource is deleted - either \"Delete\" or \"Orphan\" the external resource.",
			},
			"forProvider":  object(g.sentence(40, 120), forProvider),
			"initProvider": object("THIS IS A BETA FIELD. It will be honored unless the Management Policies feature flag is disabled. InitProvider holds the same fields as ForProvider, with the exception of Identifier and other resource reference fields.", initProvider),
			"managementPolicies": map[string]any{
				"default": []any{"*"}, "type": "array",
				"items":       map[string]any{"enum": []any{"Observe", "Create", "Update", "Delete", "LateInitialize", "*"}, "type": "string"},
				"description": "THIS IS A BETA FIELD. It is on by default but can be opted out through a Crossplane feature flag. ManagementPolicies specify the array of actions Crossplane is allowed to take on the managed and external resources.",
			},
			"providerConfigRef": reference("ProviderConfigReference specifies how the provider that will be used to create, observe, update, and delete this managed resource should be configured.", map[string]any{"name": "default"}),
			"writeConnectionSecretToRef": map[string]any{
				"description": "WriteConnectionSecretToReference specifies the namespace and name of a Secret to which any connection details for this managed resource should be written.",
				"type":        "object", "required": []any{"name", "namespace"},
				"properties": map[string]any{
					"name":      map[string]any{"description": "Name of the secret.", "type": "string"},
					"namespace": map[string]any{"description": "Namespace of the secret.", "type": "string"},
				},
			},
		},
	}
	if len(rules) > 0 {
		spec["x-kubernetes-validations"] = rules
	}
	return map[string]any{
		"description": n.Kind + " is the Schema for the " + n.Plural + " API. " + g.sentence(40, 200),
		"type":        "object",
		"required":    []any{"spec"},
		"properties": map[string]any{
			"apiVersion": map[string]any{"type": "string", "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values."},
			"kind":       map[string]any{"type": "string", "description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to."},
			"metadata":   map[string]any{"type": "object"},
			"spec":       spec,
			"status": map[string]any{
				"description": n.Kind + "Status defines the observed state of " + n.Kind + ".",
				"type":        "object",
				"properties": map[string]any{
					"atProvider":         object("", atProvider),
					"conditions":         conditions,
					"observedGeneration": map[string]any{"type": "integer", "format": "int64", "description": "ObservedGeneration is the latest metadata.generation which resulted in either a ready state, or stalled due to error it can not recover from without human intervention."},
				},
			},
		},
	}
}

var conditions = map[string]any{
	"description":                "Conditions of the resource.",
	"type":                       "array",
	"x-kubernetes-list-type":     "map",
	"x-kubernetes-list-map-keys": []any{"type"},
	"items": map[string]any{
		"description": "A Condition that may apply to a resource.",
		"type":        "object",
		"required":    []any{"lastTransitionTime", "reason", "status", "type"},
		"properties": map[string]any{
			"lastTransitionTime": map[string]any{"type": "string", "format": "date-time", "description": "LastTransitionTime is the last time this condition transitioned from one status to another."},
			"message":            map[string]any{"type": "string", "description": "A Message containing details about this condition's last transition from one status to another, if any."},
			"observedGeneration": map[string]any{"type": "integer", "format": "int64", "description": "ObservedGeneration represents the .metadata.generation that the condition was set based upon."},
			"reason":             map[string]any{"type": "string", "description": "A Reason for this condition's last transition from one status to another."},
			"status":             map[string]any{"type": "string", "description": "Status of this condition; is it currently True, False, or Unknown?"},
			"type":               map[string]any{"type": "string", "description": "Type of this condition. At most one of each condition type may apply to a resource at any point in time."},
		},
	},
}

// params returns parameters whose JSON is about budget bytes; depth is how
// deep they sit below forProvider.
func (g *gen) params(budget, depth int) map[string]any {
	out := map[string]any{}
	for size := 0; size < budget; {
		k, p := g.param(depth, budget-size)
		if _, dup := out[k]; dup {
			continue
		}
		out[k] = p
		b, _ := json.Marshal(p)
		size += len(b) + len(k) + 4
	}
	return out
}

// param returns one parameter (name and schema) of at most about room
// bytes.
func (g *gen) param(depth, room int) (string, any) {
	name := g.name()
	desc := g.sentence(30, 400)
	switch x := g.r.IntN(100); {
	case x < 14 && depth < g.depth && room > 1500:
		// A block: a list of objects with parameters of their own.
		sub := g.params(min(room*2/3, 1500+g.r.IntN(max(room/2, 1))), depth+1)
		return name, map[string]any{"description": desc, "type": "array", "items": object("", sub)}
	case x < 18 && depth < g.depth && room > 1500:
		// A single nested object (max-items-1 blocks become objects).
		sub := g.params(min(room/2, 1000+g.r.IntN(max(room/3, 1))), depth+1)
		return name, object(desc, sub)
	case x < 23 && depth == 0:
		// A reference pair; the caller adds <name>Ref and <name>Selector
		// as two parameters, the second on its next call.
		return name + "Ref", reference("Reference to a "+title(g.name())+" to populate "+name+".", nil)
	case x < 28 && depth == 0:
		return name + "Selector", selector("Selector for a " + title(g.name()) + " to populate " + name + ".")
	case x < 38:
		return name, map[string]any{"description": desc, "type": "boolean"}
	case x < 50:
		return name, map[string]any{"description": desc, "type": "number"}
	case x < 60:
		p := map[string]any{"description": desc, "type": "array", "items": map[string]any{"type": "string"}}
		if g.r.IntN(2) == 0 {
			p["x-kubernetes-list-type"] = "set"
		}
		return name, p
	case x < 66:
		return name, map[string]any{"description": desc, "type": "object", "additionalProperties": map[string]any{"type": "string"}, "x-kubernetes-map-type": "granular"}
	case x < 70:
		return name, map[string]any{"description": desc, "type": "string", "enum": []any{"Enabled", "Disabled", "Standard", "Premium"}}
	default:
		return name, map[string]any{"description": desc, "type": "string"}
	}
}

func object(desc string, props map[string]any) map[string]any {
	o := map[string]any{"type": "object", "properties": props}
	if desc != "" {
		o["description"] = desc
	}
	return o
}

// reference is Crossplane's Reference: a name and a resolution policy.
func reference(desc string, def map[string]any) map[string]any {
	r := map[string]any{
		"description": desc, "type": "object", "required": []any{"name"},
		"properties": map[string]any{
			"name":   map[string]any{"description": "Name of the referenced object.", "type": "string"},
			"policy": policy,
		},
	}
	if def != nil {
		r["default"] = def
	}
	return r
}

// selector is Crossplane's Selector: labels or the controller reference.
func selector(desc string) map[string]any {
	return map[string]any{
		"description": desc, "type": "object",
		"properties": map[string]any{
			"matchControllerRef": map[string]any{"description": "MatchControllerRef ensures an object with the same controller reference as the selecting object is selected.", "type": "boolean"},
			"matchLabels":        map[string]any{"description": "MatchLabels ensures an object with matching labels is selected.", "type": "object", "additionalProperties": map[string]any{"type": "string"}},
			"policy":             policy,
		},
	}
}

var policy = map[string]any{
	"description": "Policies for referencing.",
	"type":        "object",
	"properties": map[string]any{
		"resolution": map[string]any{"default": "Required", "enum": []any{"Required", "Optional"}, "type": "string",
			"description": "Resolution specifies whether resolution of this reference is required. The default is 'Required', which means the reconcile will fail if the reference cannot be resolved."},
		"resolve": map[string]any{"enum": []any{"Always", "IfNotPresent"}, "type": "string",
			"description": "Resolve specifies when this reference should be resolved. The default is 'IfNotPresent', which will attempt to resolve the reference only when the corresponding field is not present."},
	},
}

// cloneProps returns a copy of the top level of props (the schemas below
// are shared: they are never changed).
func cloneProps(props map[string]any) map[string]any {
	out := make(map[string]any, len(props))
	for k, v := range props {
		out[k] = v
	}
	return out
}

// name returns a camelCase parameter name of one to three words.
func (g *gen) name() string {
	s := pick(g.r, nouns)
	for range g.r.IntN(3) {
		s += title(pick(g.r, nouns))
	}
	return s
}

func (g *gen) str() map[string]any {
	return map[string]any{"type": "string", "description": g.sentence(20, 80)}
}

// sentence returns prose of min to max bytes.
func (g *gen) sentence(minLen, maxLen int) string {
	n := minLen + g.r.IntN(max(maxLen-minLen, 1))
	var b strings.Builder
	b.WriteString(title(pick(g.r, words)))
	for b.Len() < n {
		b.WriteByte(' ')
		b.WriteString(pick(g.r, words))
	}
	b.WriteByte('.')
	return b.String()
}

func pick(r *rand.Rand, from []string) string { return from[r.IntN(len(from))] }

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

var nouns = strings.Fields(`account address alarm alias analytics api app archive association
	attachment audit authorizer autoscaling backup balancer bandwidth bucket budget cache capacity
	certificate channel cidr cluster collection config connection connector container database
	delivery deployment destination directory disk distribution domain encryption endpoint
	environment event filter firewall fleet function gateway grant group health host identity image
	instance integration key keyspace lambda launch layer lifecycle link listener log maintenance
	member metric mount namespace network node notification object origin parameter partition
	peering permission pipeline placement policy pool port principal profile protocol provider
	queue quota record region registry replica replication repository resource retention role route
	rule schedule schema secret security segment server service session share snapshot source
	stack stage storage stream subnet subscription table tag target task template threshold
	throughput topic traffic trail trigger trust user vault version volume vpc webhook workgroup zone`)

var words = strings.Fields(`the a an of to in for on with by from as is are be this that which
	when if or and not can may must should will resource value values name names configuration
	block argument attribute specified specifies defaults default required optional valid
	possible between including used use set list map string number identifier id arn managed
	created updated deleted provider cloud region zone account network subnet policy rule
	settings enabled disabled whether seconds minutes maximum minimum length format see
	documentation details more information following one each all any only also supported
	type types mode state status type kind target source destination endpoint`)
