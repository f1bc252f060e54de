package differential

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// Step ops.
const (
	OpCreateCRD = "createCRD"
	OpUpdateCRD = "updateCRD"
	OpCreate    = "create"
	OpUpdate    = "update"
	OpPatch     = "patch"
)

// Tiers.
const (
	TierCI   = "ci"
	TierFull = "full"
)

// Case is one corpus file.
type Case struct {
	// Name is the file name without .yaml.
	Name string `json:"-"`
	// Tier is "ci" or "full".
	Tier string `json:"tier"`
	// About says what the case covers and which real CRDs it is shaped
	// after.
	About string `json:"about"`
	// Group, Version, Resource and Namespace are the defaults of the
	// custom resource steps.
	Group     string `json:"group,omitempty"`
	Version   string `json:"version,omitempty"`
	Resource  string `json:"resource,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Steps     []Step `json:"steps"`
}

// Step is one request.
type Step struct {
	Name string `json:"name"`
	Op   string `json:"op"`
	// Expect is "ok" or "invalid" (any 4xx); empty means either.
	Expect string `json:"expect,omitempty"`
	// Object is the body: a CRD or a custom resource. For update the
	// stored resourceVersion is filled in; for patch it is the patch.
	Object json.RawMessage `json:"object"`
	// Resource and Version say where a custom resource lives (plural of
	// the case's CRD and version); Namespace is empty for cluster scope.
	Resource  string `json:"resource,omitempty"`
	Group     string `json:"group,omitempty"`
	Version   string `json:"version,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	// Target is the object's name for patch (and update, if Object has
	// none).
	Target string `json:"target,omitempty"`
	// Query is added to the URL (e.g. fieldValidation=Strict).
	Query string `json:"query,omitempty"`
}

// Load reads every case of dir whose tier is in tiers.
func Load(dir string, tiers ...string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Case
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var c Case
		if err := yaml.UnmarshalStrict(b, &c); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		c.Name = strings.TrimSuffix(filepath.Base(f), ".yaml")
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for _, t := range tiers {
			if c.Tier == t {
				out = append(out, c)
				break
			}
		}
	}
	return out, nil
}

func (c *Case) check() error {
	for i := range c.Steps {
		s := &c.Steps[i]
		if s.Op == OpCreateCRD || s.Op == OpUpdateCRD {
			continue
		}
		for _, d := range []struct {
			dst *string
			v   string
		}{{&s.Group, c.Group}, {&s.Version, c.Version}, {&s.Resource, c.Resource}, {&s.Namespace, c.Namespace}} {
			if *d.dst == "" {
				*d.dst = d.v
			}
		}
	}
	if c.Tier != TierCI && c.Tier != TierFull {
		return fmt.Errorf("tier %q is neither %q nor %q", c.Tier, TierCI, TierFull)
	}
	seen := map[string]bool{}
	for i, s := range c.Steps {
		if s.Name == "" || seen[s.Name] {
			return fmt.Errorf("step %d: missing or repeated name %q", i, s.Name)
		}
		seen[s.Name] = true
		switch s.Op {
		case OpCreateCRD, OpUpdateCRD:
		case OpCreate, OpUpdate, OpPatch:
			if s.Resource == "" || s.Group == "" || s.Version == "" {
				return fmt.Errorf("step %s: a custom resource step needs group, version and resource", s.Name)
			}
			if s.Op == OpPatch && s.Target == "" {
				return fmt.Errorf("step %s: patch needs a target", s.Name)
			}
		default:
			return fmt.Errorf("step %s: unknown op %q", s.Name, s.Op)
		}
		if s.Expect != "" && s.Expect != "ok" && s.Expect != "invalid" {
			return fmt.Errorf("step %s: expect is %q", s.Name, s.Expect)
		}
		if len(s.Object) == 0 {
			return fmt.Errorf("step %s: no object", s.Name)
		}
	}
	return nil
}
